// The service worker of the discspan app: it keeps the app's files so that
// the app starts without a network. Requests go to the network first (so a
// new build is used as soon as it is there) and fall back to the copy kept
// here. The weights are not handled here: the app keeps them in its own
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

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/weights/")) {
    return; // the network, as usual
  }
  event.respondWith(
    fetch(req)
      .then((resp) => {
        if (resp.ok && resp.status === 200) {
          // The worker is kept alive until the copy is stored; a copy
          // that cannot be stored (no space) is reported on the console.
          const copy = resp.clone();
          event.waitUntil(caches.open(APP_CACHE).then((c) => c.put(req, copy)).catch((e) => console.warn("discspan: not kept for offline use:", req.url, e)));
        }
        return resp;
      })
      .catch(async () => {
        const cached = await caches.match(req, { ignoreSearch: true });
        if (cached) return cached;
        if (req.mode === "navigate") {
          const page = await caches.match("index.html");
          if (page) return page;
        }
        return Response.error();
      }),
  );
});
