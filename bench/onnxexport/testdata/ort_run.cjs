// Runs an exported discspan model with onnxruntime-web (wasm execution
// provider, one thread) under Node and prints its outputs as JSON, for
// TestORTMatchesForward. Usage:
//
//	node ort_run.cjs ORT_DIR MODEL.onnx FEEDS.json
//
// ORT_DIR holds node_modules/onnxruntime-web; FEEDS.json is a list of
// {tokens, chars, word_ids, char_ids, char_lens}.
'use strict';
const path = require('path');
const fs = require('fs');
const { createRequire } = require('module');

async function main() {
  const [ortDir, modelPath, feedsPath] = process.argv.slice(2);
  const ort = createRequire(path.join(path.resolve(ortDir), 'package.json'))('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  const session = await ort.InferenceSession.create(fs.readFileSync(modelPath), { executionProviders: ['wasm'] });
  const out = [];
  for (const f of JSON.parse(fs.readFileSync(feedsPath, 'utf8'))) {
    const r = await session.run({
      word_ids: new ort.Tensor('int64', BigInt64Array.from(f.word_ids.map(BigInt)), [f.tokens]),
      char_ids: new ort.Tensor('int64', BigInt64Array.from(f.char_ids.map(BigInt)), [f.chars, f.tokens]),
      char_lens: new ort.Tensor('int32', Int32Array.from(f.char_lens), [f.tokens]),
    });
    const o = {};
    for (const k of ['cont', 'disc', 'gap', 'tags']) {
      o[k] = { dims: r[k].dims, data: Array.from(r[k].data) };
    }
    out.push(o);
  }
  process.stdout.write(JSON.stringify({ version: ort.env.versions.web, outputs: out }));
}

main().catch((e) => { console.error(String(e && e.stack || e)); process.exit(1); });
