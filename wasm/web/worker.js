// The parsing worker: the same main.wasm as the page, which sees that it
// runs in a worker and serves load and parse requests (ui/browser).
"use strict";
importScripts("wasm_exec.js");
(async () => {
  const go = new Go();
  const result = await WebAssembly.instantiateStreaming(fetch("main.wasm"), go.importObject);
  globalThis.wasm = result;
  await go.run(result.instance);
})().catch((e) => {
  // Rethrown outside the promise so that the page's worker.onerror hears it.
  setTimeout(() => { throw e; });
});
