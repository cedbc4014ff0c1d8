// The service worker of the discspan app: it keeps the app's files so that
// the app starts without a network. Requests go to the network first (so a
// new build is used as soon as it is there) and fall back to the copy kept
// here when the network fails or does not answer within networkWaitMs.
// The weights are not handled here: the app keeps them in its own cache
// ("discspan-data-v1"), which this worker never deletes.
"use strict";
const APP_CACHE = "discspan-app-v2"; // v2: copies kept by path, without the query
const SHELL = ["./", "index.html", "app.css", "boot.js", "vugu.js", "worker.js", "wasm_exec.js", "main.wasm", "api/models"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(APP_CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
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
// files come from the copies too, so that a page never runs files of two
// builds (the network may come back, with a new build, while it loads).
const fromCopies = new Set();

// handled is the paths of the app's files: the only requests handled here.
const handled = new Set(SHELL.map((p) => new URL(p, self.location).pathname));

// keyOf is the key of a request's copy: its URL without the query, so
// that the page has one copy however it was opened (?backend=cpu, ...).
const keyOf = (url) => url.origin + url.pathname;

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin || !handled.has(url.pathname)) {
    return; // the network, as usual (the weights, the training API)
  }
  const navigation = req.mode === "navigate";
  let keptServed = false; // the page got the copy kept: the answer is only stored
  const abort = new AbortController();
  const giveUp = setTimeout(() => abort.abort(), networkGiveUpMs);
  const network = fetch(req, { signal: abort.signal }).then((resp) => {
    clearTimeout(giveUp); // the body may take longer: it is not cut short
    unanswered = false;
    // Only the server's own answers are kept: not a redirect (a login
    // page's, say) nor an error. (A server that redirects one of the app's
    // files on purpose would thus always get the copy from the install.)
    if (resp.status === 200 && !resp.redirected && resp.type === "basic") {
      // The worker is kept alive until the copy is stored; a copy that
      // cannot be stored (no space) is reported on the console.
      const copy = keptServed ? resp : resp.clone();
      event.waitUntil(caches.open(APP_CACHE).then((c) => c.put(keyOf(url), copy)).catch((e) => console.warn("discspan: not kept for offline use:", req.url, e)));
    }
    return resp;
  }, (e) => {
    clearTimeout(giveUp);
    throw e;
  });
  event.waitUntil(network.catch(() => {})); // the copy is stored after the page has its answer
  // kept is the copy of the request; for the page, when the network gave
  // no answer (any), the copy of the app's page.
  const kept = async (anyPage) => {
    const cached = await caches.match(keyOf(url));
    if (cached || !navigation || !anyPage) return cached;
    return (await caches.match(url.origin + "/")) || caches.match("index.html");
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
      const copy = await kept(first === undefined);
      if (copy) return served(copy);
      return first || (await network); // nothing kept: the network's answer, whatever it is
    } catch {
      const copy = await kept(true);
      return copy ? served(copy) : Response.error();
    } finally {
      clearTimeout(timer);
    }
  })());
});
