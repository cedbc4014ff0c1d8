// The service worker of the discspan app: it keeps the app's files so that
// the app starts without a network. Requests go to the network first (so a
// new build is used as soon as it is there) and fall back to the copy kept
// here when the network fails or does not answer within networkWaitMs.
//
// Copies are kept per build. make wasm names each build (wasm/stamp: a
// hash of its files) and writes the name into index.html and here; a page
// asks for its files with ?b=<build>, and a file's copy is only ever that
// of the page's build, never another's: a page does not run files of two
// builds, which do not work together. The page's copy served without a
// network is that of the newest build whose files are all kept; the build
// before it is kept too (a page of it may still be open), older ones are
// dropped.
//
// The weights are not handled here: the app keeps them in its own cache
// ("discspan-data-v1"), which this worker never deletes.
"use strict";
const BUILD = "@BUILD@"; // this worker's build (wasm/stamp writes it)
const APP_CACHE = "discspan-app-v3"; // v3: copies kept per build
// BUILD_FILES are a build's files, which its pages ask for with ?b=<build>.
const BUILD_FILES = ["app.css", "boot.js", "vugu.js", "worker.js", "wasm_exec.js", "main.wasm"];
const PAGES = ["./", "index.html"];
const SHELL = [...PAGES, ...BUILD_FILES, "api/models"];

const at = (p) => new URL(p, self.location);
const isBuild = (b) => /^[0-9a-f]{12}$/.test(b);
// handled is the paths of the app's files: the only requests handled here.
const handled = new Set(SHELL.map((p) => at(p).pathname));
const pagePaths = new Set(PAGES.map((p) => at(p).pathname));

// keyOf is the key of a request's copy: its URL without the query, so
// that the page has one copy however it was opened (?backend=cpu, ...),
// but with the build a build's file is asked for with. A page's copy is
// kept under pageKey(its build).
const buildOf = (url) => {
  const b = url.searchParams.get("b") || "";
  return isBuild(b) ? b : "";
};
const keyOf = (url) => url.origin + url.pathname + (buildOf(url) ? "?b=" + buildOf(url) : "");
const pageKey = (build) => at("./").href + (build ? "?b=" + build : "");
// The builds whose files are all kept: { newest, previous }.
const buildsKey = at("./.builds").href;
const pageBuild = (html) => {
  const m = /<html[^>]*\sdata-build="([0-9a-f]{12})"/.exec(html);
  return m ? m[1] : "";
};

async function keptBuilds(cache) {
  const r = await cache.match(buildsKey);
  try {
    return r ? await r.json() : {};
  } catch {
    return {};
  }
}

// settle records build as the newest build once its page and files are
// all kept, and drops the copies of builds older than the one before it.
// Settles run one at a time: two at once (pages of two builds loading
// around a deploy) could each drop the other's copies. A Web Lock orders
// them across workers too (the active one and one installing); where
// there is none, a chain orders this worker's.
let settling = Promise.resolve();
function settle(build) {
  if (self.navigator && navigator.locks) return navigator.locks.request("discspan-settle", () => settleNow(build));
  settling = settling.then(() => settleNow(build), () => settleNow(build));
  return settling;
}

async function settleNow(build) {
  if (!build) return;
  const cache = await caches.open(APP_CACHE);
  const keys = [pageKey(build), ...BUILD_FILES.map((f) => keyOf(at(f + "?b=" + build)))];
  const present = await Promise.all(keys.map((k) => cache.match(k)));
  if (present.some((r) => !r)) return;
  const kept = await keptBuilds(cache);
  if (kept.newest === build) return;
  const now = { newest: build, previous: kept.newest || "" };
  await cache.put(buildsKey, new Response(JSON.stringify(now), { headers: { "Content-Type": "application/json" } }));
  for (const req of await cache.keys()) {
    const b = buildOf(new URL(req.url));
    if (b && b !== now.newest && b !== now.previous) await cache.delete(req);
  }
}

// keepable says whether an answer of the network is the server's own, to
// be kept: not a redirect (a login page's, say) nor an error. (A server
// that redirects one of the app's files on purpose would thus always get
// the copy from the install.)
const keepable = (resp) => resp.status === 200 && !resp.redirected && resp.type === "basic";

// keep stores the network's answer to url as its copy: a page under the
// build it names (read from its HTML), a build's file under its build;
// then settles that build.
async function keep(url, resp) {
  const cache = await caches.open(APP_CACHE);
  let build = buildOf(url), key = keyOf(url);
  if (pagePaths.has(url.pathname)) {
    build = pageBuild(await resp.clone().text());
    key = pageKey(build);
  }
  await cache.put(key, resp);
  await settle(build);
}

self.addEventListener("install", (event) => {
  // This build's files, before the worker takes over: a page of this
  // build then starts offline (the page itself is kept when the server
  // still has this build; the next visit keeps it otherwise).
  event.waitUntil((async () => {
    const stamped = isBuild(BUILD);
    await Promise.all(SHELL.map(async (p) => {
      const url = at(stamped && BUILD_FILES.includes(p) ? p + "?b=" + BUILD : p);
      const resp = await fetch(url, { cache: "no-cache" });
      if (!keepable(resp)) throw new Error("discspan: " + url + ": " + resp.status + (resp.redirected ? " (redirected)" : ""));
      if (pagePaths.has(url.pathname) && stamped && pageBuild(await resp.clone().text()) !== BUILD) return;
      await keep(url, resp);
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("discspan-app-") && k !== APP_CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// networkWaitMs is how long a request waits for the network's answer
// (its headers) before the copy kept here is used instead: on a network
// that connects but does not answer (a train's, a hotel's) the app starts
// from its copy rather than waiting for the browser to give up. The
// network's answer, if it comes, is still kept for the next visit.
const networkWaitMs = 3000;

// networkGiveUpMs is when a request the network has not answered is
// given up: a browser holds a few connections to a server, and requests
// left waiting would hold them, queueing the next ones (the weights
// included) behind them once the network is back.
const networkGiveUpMs = 30000;

// unanswered is set when the network did not answer a request in time,
// and cleared by its next answer: meanwhile requests take the copy kept
// here at once (a page's files would otherwise wait in turn, in waves).
let unanswered = false;

// fromCopies holds the pages (client ids) served from the copies: their
// files come from the copies at once.
const fromCopies = new Set();

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin || !handled.has(url.pathname)) {
    return; // the network, as usual (the weights, the training API)
  }
  const navigation = req.mode === "navigate";
  const page = navigation && pagePaths.has(url.pathname);
  let keptServed = false; // the page got the copy kept: the answer is only stored
  const abort = new AbortController();
  const giveUp = setTimeout(() => abort.abort(), networkGiveUpMs);
  const network = fetch(req, { signal: abort.signal }).then((resp) => {
    clearTimeout(giveUp); // the body may take longer: it is not cut short
    unanswered = false;
    if (keepable(resp)) {
      // The worker is kept alive until the copy is stored; a copy that
      // cannot be stored (no space) is reported on the console.
      const copy = keptServed ? resp : resp.clone();
      event.waitUntil(keep(url, copy).catch((e) => console.warn("discspan: not kept for offline use:", req.url, e)));
    }
    return resp;
  }, (e) => {
    clearTimeout(giveUp);
    throw e;
  });
  event.waitUntil(network.catch(() => {})); // the copy is stored after the page has its answer
  // kept is the copy of the request: for the app's page, that of the
  // newest build kept whole (then the one before it); for a build's file,
  // that build's only.
  const kept = async () => {
    const cache = await caches.open(APP_CACHE);
    if (!page) return cache.match(keyOf(url));
    const builds = await keptBuilds(cache);
    // "": the page of a build not named (served from wasm/web as it is).
    for (const b of [builds.newest, builds.previous, ""]) {
      const copy = typeof b === "string" ? await cache.match(pageKey(b)) : undefined;
      if (copy) return copy;
    }
    return undefined;
  };
  const served = (copy) => {
    keptServed = true;
    if (navigation && event.resultingClientId) fromCopies.add(event.resultingClientId);
    return copy;
  };
  event.respondWith((async () => {
    let timer;
    const wait = unanswered || fromCopies.has(event.clientId) ? 0 : networkWaitMs;
    const slow = new Promise((resolve) => { timer = setTimeout(resolve, wait); });
    try {
      const first = await Promise.race([network, slow]);
      if (first && first.ok && !first.redirected) return first;
      if (first === undefined && wait > 0) unanswered = true;
      const copy = await kept();
      if (copy) return served(copy);
      return first || (await network); // nothing kept: the network's answer, whatever it is
    } catch {
      const copy = await kept();
      return copy ? served(copy) : Response.error();
    } finally {
      clearTimeout(timer);
    }
  })());
});
