// Package parser is the one parsing engine: it turns a trained scoring
// network into trees. It encodes the words with the model's vocabulary,
// scores every span with a scorer.Scorer (the network's CPU reference, an
// ensemble's mean, or a GPU backend such as package webgpu's), decodes the
// scores with one of the exact chart decoders (chart/decode), under
// constraints when asked, and builds the tree, with the part-of-speech tags
// the network's auxiliary tagger predicts and merged unary labels ("S/VP")
// split back into chains.
//
// Entry points, one pipeline (Parser.build decodes for all of them):
//
//   - ReadFiles and Read are the one place where model files are read for
//     parsing: one file, an ensemble file or several files trained with one
//     vocabulary (Models); Models.Parser gives their CPU parser.
//   - Parser.Parse parses one sentence as a Request asks (variant, required
//     and forbidden constituents, the span scores for the stepper), with a
//     context that cancels the decoder; it is what the browser app's
//     parsing, annotation and teaching call, through an Engine.
//   - Parser.ParseBatch parses many (the CLI, evaluation): the scorer scores
//     chunks of sentences with its batched forward pass while a pool of
//     workers, each with its own decode.Decoder (whose chart memory it
//     reuses), decodes the chunk scored before, so that scoring and decoding
//     overlap and use every core. ParseWords is one sentence of it.
//   - Engine holds one loaded model behind the app (in the browser's Web
//     Worker, or on the host in tests): Load reads the weights' bytes and
//     chooses the backend (the CPU, or WebGPU through a GPUFunc when it is
//     faster), and the last sentence's scores are remembered so that
//     parsing it again with another variant, constraints or for the
//     stepper costs only the decoding.
//
// Cost per sentence of n words and L labels: the network's forward pass,
// O(n·H² + n·L·d² + n²·L·d), then the decoder's (O(n³·L) for n3; see
// chart/decode for the others).
package parser
