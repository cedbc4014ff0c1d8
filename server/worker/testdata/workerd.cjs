// Loaded (node --require) before the worker's js/wasm tests: what
// workerd gives a worker and Node lacks.
//
// syumai/workers reads the request context when its packages start.
globalThis.context = { binding: {} };

// FixedLengthStream stands in for workerd's class of that name: a stream
// that passes its chunks on, holding at most one on each side while
// nobody reads (its length is not checked here).
globalThis.FixedLengthStream = class {
  constructor(length) {
    const t = new TransformStream({}, { highWaterMark: 1 }, { highWaterMark: 0 });
    this.readable = t.readable;
    this.writable = t.writable;
  }
};
