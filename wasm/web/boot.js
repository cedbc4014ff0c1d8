// Starts the discspan app: registers the service worker (offline use),
// then instantiates main.wasm and runs it. globalThis.wasm must hold the
// instantiation result: the WebGPU bindings read the wasm memory from it.
"use strict";
(async () => {
  const boot = document.getElementById("boot");
  const say = (msg) => {
    if (boot) { boot.textContent = msg; boot.className = "boot error"; }
    document.getElementById("app").dataset.phase = "failed";
  };
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("sw.js").catch((e) => console.warn("discspan: no service worker:", e));
  }
  if (!globalThis.WebAssembly || !globalThis.Go) {
    say("This browser cannot run discspan: it has no WebAssembly.");
    return;
  }
  // vugu's renderer hands its helper script to window.eval, which the
  // Content-Security-Policy forbids; the page has loaded it (vugu.js), so
  // that eval is skipped. Any other eval is refused as before.
  const nativeEval = globalThis.eval;
  globalThis.eval = (src) => (globalThis.vuguRender ? undefined : nativeEval(src));
  try {
    const go = new Go();
    const result = await WebAssembly.instantiateStreaming(fetch("main.wasm"), go.importObject);
    globalThis.wasm = result;
    await go.run(result.instance);
  } catch (e) {
    console.error(e);
    say("discspan could not start: " + e + ". Reload the page to try again.");
  }
})();
