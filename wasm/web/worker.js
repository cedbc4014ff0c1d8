// The parsing worker: the same main.wasm as the page, which sees that it
// runs in a worker and serves load and parse requests (ui/browser). An
// ensemble member's worker (named "discspan model K" by the parsing
// worker) is first sent the parsing worker's compiled module: it starts
// at once, on code already compiled and optimised, instead of fetching and
// compiling main.wasm again.
"use strict";
importScripts("wasm_exec.js");
const fromParent = self.name.startsWith("discspan model ")
  ? new Promise((resolve) => {
    self.onmessage = (e) => { if (e.data && e.data.op === "module") resolve(e.data.module || null); };
  })
  : Promise.resolve(null);
(async () => {
  const go = new Go();
  const module = await fromParent;
  const result = module
    ? { module, instance: await WebAssembly.instantiate(module, go.importObject) }
    : await WebAssembly.instantiateStreaming(fetch("main.wasm"), go.importObject);
  globalThis.wasm = result;
  await go.run(result.instance);
})().catch((e) => {
  // Rethrown outside the promise so that the page's worker.onerror hears it.
  setTimeout(() => { throw e; });
});
