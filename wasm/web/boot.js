// Starts the discspan app: registers the service worker (offline use),
// then instantiates main.wasm and runs it. globalThis.wasm must hold the
// instantiation result: the WebGPU bindings read the wasm memory from it.
"use strict";
(async () => {
  // This script runs: the hint shown when it never does goes.
  const stuck = document.getElementById("boot-stuck");
  if (stuck) stuck.remove();
  const boot = document.getElementById("boot");
  const say = (msg) => {
    if (boot) { boot.textContent = msg; boot.className = "boot error"; }
    document.getElementById("app").dataset.phase = "failed";
  };
  // The build this page is (make wasm names it): its files are asked for
  // with ?b=<build>, which the service worker matches with its copies of
  // that build only, so that the page never runs files of two builds. The
  // parsing worker is started with it too (ui/browser reads
  // discspanBuild).
  const build = document.documentElement.dataset.build || "";
  globalThis.discspanBuild = /^[0-9a-f]+$/.test(build) ? build : "";
  const ofBuild = (file) => file + (globalThis.discspanBuild ? "?b=" + globalThis.discspanBuild : "");
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("sw.js").catch((e) => console.warn("discspan: no service worker:", e));
  }
  if (!globalThis.WebAssembly) {
    say("This browser cannot run discspan: it has no WebAssembly.");
    return;
  }
  if (!globalThis.Go || !globalThis.vuguRender) {
    // A script of the page did not load: the network failed, or the
    // server has another build of the app by now (it answers a file of
    // an older build with 404).
    say("discspan could not start: " + (globalThis.Go ? "vugu.js" : "wasm_exec.js") + " did not load (the network failed, or a new version of the app replaced this one). Reload the page to try again.");
    return;
  }
  // Progress while the app downloads and compiles (seconds on a slow
  // machine): the megabytes received and the time so far.
  const t0 = performance.now();
  let step = "downloading and compiling", got = 0;
  const show = () => {
    if (!boot || boot.classList.contains("error")) return;
    const s = Math.floor((performance.now() - t0) / 1000);
    boot.textContent = "Starting the app (WebAssembly): " + step + (got ? ", " + (got / 1e6).toFixed(1) + " MB so far" : "") + (s >= 1 ? " (" + s + " s)" : "") + "…";
  };
  const tick = setInterval(show, 500);
  // vugu's renderer hands its helper script to window.eval, which the
  // Content-Security-Policy forbids; the page has loaded it (vugu.js), so
  // that eval is skipped. Any other eval is refused as before.
  const nativeEval = globalThis.eval;
  globalThis.eval = (src) => (globalThis.vuguRender ? undefined : nativeEval(src));
  try {
    const go = new Go();
    let resp = await fetch(ofBuild("main.wasm"));
    if (resp.ok && resp.body && globalThis.TransformStream) {
      const counter = new TransformStream({ transform(chunk, c) { got += chunk.byteLength; c.enqueue(chunk); } });
      resp = new Response(resp.body.pipeThrough(counter), { status: resp.status, statusText: resp.statusText, headers: resp.headers });
    }
    const result = await WebAssembly.instantiateStreaming(resp, go.importObject);
    clearInterval(tick);
    globalThis.wasm = result;
    await go.run(result.instance);
  } catch (e) {
    clearInterval(tick);
    console.error(e);
    say("discspan could not start: " + e + ". Reload the page to try again.");
  }
})();
