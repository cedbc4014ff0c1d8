// The parsing worker: the same main.wasm as the page, which sees that it
// runs in a worker and serves load and parse requests (ui/browser). Its
// creator (the page, or the parsing worker for an ensemble member's
// worker, named "discspan model K") first sends it its own compiled
// module: the worker starts at once, on code already compiled and
// optimised, and fetches nothing. The build puts Go's wasm_exec.js in front
// of this file, so that the worker needs no other script either: a worker
// that fetched files of its own could fail offline where the page did not.
"use strict";
// The build of the page that started this worker (?b=<build>, see boot.js):
// the worker's own requests and the workers it starts name it too.
globalThis.discspanBuild = new URLSearchParams(self.location.search).get("b") || "";
const ofBuild = (file) => file + (globalThis.discspanBuild ? "?b=" + encodeURIComponent(globalThis.discspanBuild) : "");
if (typeof Go === "undefined") importScripts(ofBuild("wasm_exec.js"));
// Without the module after a few seconds (a page of another build, which
// sent none), the worker fetches main.wasm itself.
const fromParent = new Promise((resolve) => {
  self.onmessage = (e) => { if (e.data && e.data.op === "module") resolve(e.data.module || null); };
  setTimeout(() => resolve(null), 5000);
});
(async () => {
  const go = new Go();
  const module = await fromParent;
  const result = module
    ? { module, instance: await WebAssembly.instantiate(module, go.importObject) }
    : await WebAssembly.instantiateStreaming(fetch(ofBuild("main.wasm")), go.importObject);
  globalThis.wasm = result;
  await go.run(result.instance);
})().catch((e) => {
  // Rethrown outside the promise so that the page's worker.onerror hears it.
  setTimeout(() => { throw e; });
});
