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

// unanswered is set when the network did not answer a request in time,
// and cleared by its next answer: meanwhile requests take the copy kept
// here at once (a page's files would otherwise wait in turn, in waves).
let unanswered = false;

// keyOf is the key of a request's copy: its URL without the query, so
// that the page has one copy however it was opened (?backend=cpu, ...).
const keyOf = (url) => url.origin + url.pathname;

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/weights/")) {
    return; // the network, as usual
  }
  let keptServed = false; // the page got the copy kept: the answer is only stored
  const network = fetch(req).then((resp) => {
    unanswered = false;
    // Only the server's own answers are kept: not a redirect (a login
    // page's, say) nor an error.
    if (resp.status === 200 && !resp.redirected && resp.type === "basic") {
      // The worker is kept alive until the copy is stored; a copy that
      // cannot be stored (no space) is reported on the console.
      const copy = keptServed ? resp : resp.clone();
      event.waitUntil(caches.open(APP_CACHE).then((c) => c.put(keyOf(url), copy)).catch((e) => console.warn("discspan: not kept for offline use:", req.url, e)));
    }
    return resp;
  });
  event.waitUntil(network.catch(() => {})); // the copy is stored after the page has its answer
  const kept = async () => {
    const cached = await caches.match(keyOf(url));
    if (cached || req.mode !== "navigate") return cached;
    return caches.match("index.html");
  };
  event.respondWith((async () => {
    let timer;
    const slow = new Promise((resolve) => { timer = setTimeout(resolve, unanswered ? 0 : networkWaitMs); });
    try {
      const first = await Promise.race([network, slow]);
      if (first && first.ok && !first.redirected) return first;
      if (first === undefined) unanswered = true;
      const copy = await kept();
      if (copy) {
        keptServed = true;
        return copy;
      }
      return first || (await network); // nothing kept: the network's answer, whatever it is
    } catch {
      return (await kept()) || Response.error();
    } finally {
      clearTimeout(timer);
    }
  })());
});
