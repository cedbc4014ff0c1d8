// The service worker of the discspan app: it keeps the app's files so that
// the app starts without a network. Requests go to the network first (so a
// new build is used as soon as it is there) and fall back to the copy kept
// here when the network fails or does not answer within networkWaitMs. The weights are not handled here: the app keeps them in its own
// cache ("discspan-data-v1"), which this worker never deletes.
"use strict";
const APP_CACHE = "discspan-app-v1";
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
// that connects but does not answer (a train, a captive portal) the app
// starts from its copy rather than waiting for the browser to give up. The
// network's answer, if it comes, is still kept for the next visit.
const networkWaitMs = 3000;

// unanswered is set when the network did not answer a request in time,
// and cleared by its next answer: meanwhile requests take the copy kept
// here at once (a page's files would otherwise wait in turn, in waves).
let unanswered = false;

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/weights/")) {
    return; // the network, as usual
  }
  const network = fetch(req).then((resp) => {
    unanswered = false;
    if (resp.ok && resp.status === 200) {
      // The worker is kept alive until the copy is stored; a copy that
      // cannot be stored (no space) is reported on the console.
      const copy = resp.clone();
      event.waitUntil(caches.open(APP_CACHE).then((c) => c.put(req, copy)).catch((e) => console.warn("discspan: not kept for offline use:", req.url, e)));
    }
    return resp;
  });
  event.waitUntil(network.catch(() => {})); // the copy is stored after the page has its answer
  const kept = async () => {
    const cached = await caches.match(req, { ignoreSearch: true });
    if (cached || req.mode !== "navigate") return cached;
    return caches.match("index.html");
  };
  event.respondWith((async () => {
    let timer;
    const slow = new Promise((resolve) => { timer = setTimeout(resolve, unanswered ? 0 : networkWaitMs); });
    try {
      const first = await Promise.race([network, slow]);
      if (first) return first;
      unanswered = true;
      return (await kept()) || (await network); // nothing kept: wait for the network
    } catch {
      return (await kept()) || Response.error();
    } finally {
      clearTimeout(timer);
    }
  })());
});
