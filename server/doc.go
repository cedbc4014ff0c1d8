// Package server serves the discspan browser app: its static files (with
// precompressed gzip and brotli variants and the right MIME types, among
// them application/wasm), the model list at api.ModelsPath (JSON, read from
// the weight files' metadata; only files that pass weights.Verify are listed) and the weight files
// themselves under content-addressed names (api.WeightsURL) with an ETag,
// "Cache-Control: immutable" and Range requests.
//
// New builds the whole thing as one http.Handler from Options for a local
// server (discspan serve). NewReadOnly builds the same handler without the
// training API and without touching the file system: it serves a
// published weights directory (Publish writes one: the weight files under
// their content-addressed names and the model list, ManifestName) from an
// fs.FS, for hosts such as the Cloudflare Worker in server/worker, which
// reads it from the Worker's static assets. Nothing here parses: the app
// parses in the browser tab.
//
// # Training API
//
// With Options.JobsDir set, the handler also trains models:
//
//   - POST /api/train?preset=tiny&epochs=N with a treebank as the body
//     (export or discbracket; the format comes from the Content-Type when
//     it names one, else from the first non-blank line: "#BOS", "%%" or
//     another "#" line is export, "(" is discbracket) queues a job and
//     answers 202 with {"id": ..., "job": ...}. The treebank is split
//     deterministically: every DevEvery-th sentence (the 10th, 20th, ...)
//     goes to the dev set, the others to the training set; fewer than
//     MinUploadSentences sentences are refused (400). A malformed treebank
//     (text that is not UTF-8 included) or a sentence over Options.MaxWords
//     words gets 400 with {"error": "line N: reason", "line": N}; a body
//     over Options.MaxUpload gets 413. The upload is read as a stream:
//     each sentence is written to the job's train/dev split as it is read,
//     so memory does not grow with the upload. At most Options.MaxUploads
//     uploads are read at once and at most Options.MaxQueue jobs wait (503
//     with Retry-After beyond that); a body that sends nothing for
//     Options.UploadIdleTimeout, or takes longer than Options.UploadTimeout
//     in all, gets 408.
//   - GET /api/jobs lists the jobs; GET /api/jobs/{id} gives one (Job:
//     state queued|running|done|failed|cancelled, epoch/epochs, step, loss,
//     dev F1, best dev F1, times, error); DELETE /api/jobs/{id} cancels a
//     queued or running job (202) and deletes a finished one (200: its
//     record and directory; its model stays, unless ?model=1);
//     GET /api/jobs/{id}/events streams it as Server-Sent Events ("job"
//     events carrying the Job JSON, a last "end" event when it finishes,
//     or a "shutdown" event when the server stops first).
//   - One job runs at a time (one device); the others wait, first in first
//     out. A finished job's weights are written to the models directory as
//     job-<id>.safetensors and appear in /api/models.
//   - Every answer carries a Content-Security-Policy (ContentSecurityPolicy),
//     X-Content-Type-Options: nosniff, X-Frame-Options: DENY,
//     Referrer-Policy: no-referrer and the cross-origin isolation headers
//     (COOP same-origin, COEP require-corp, CORP same-origin). With
//     Options.Hosts, a request naming another host gets 421 (DNS
//     rebinding); a cross-origin POST or DELETE (Sec-Fetch-Site or Origin)
//     gets 403.
//   - Every training endpoint wants "Authorization: Bearer <Options.Token>"
//     (compared in constant time; 401 otherwise). New refuses the API
//     without a token unless Options.Loopback says the server listens on
//     loopback only.
//   - Jobs live under JobsDir/<id>/: job.json (written atomically), the
//     upload, train.discbracket and dev.discbracket, and train's output and
//     checkpoint. Once a job is done, failed or cancelled, only job.json
//     and the training log stay. At start, the server removes temporary
//     files left by a killed process and the directories of unfinished
//     uploads. Handler.Close interrupts a running job (its checkpoint
//     written); a handler created later on the same directory queues the
//     unfinished jobs again in id order and resumes the interrupted one
//     from its checkpoint.
//
// Costs: the model list stats every weight file per request and verifies
// and hashes a file (SHA-256 of its data and of the whole file) only when
// its size or modification time changed, a failed file included; a static
// file is hashed once for its ETag.
package server
