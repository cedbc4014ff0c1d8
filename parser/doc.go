// Package parser turns a trained scoring network into trees: it encodes the
// words with the model's vocabulary, scores every span with the network
// (network.Model, or any Scorer such as a GPU backend), decodes the scores
// with one of the exact chart decoders (chart/decode) and builds the tree,
// with the part-of-speech tags the network's auxiliary tagger predicts and
// merged unary labels ("S/VP") split back into chains.
//
// ParseWords parses one sentence. ParseBatch parses many: the network scores
// chunks of sentences with its batched forward pass while a pool of workers,
// each with its own decode.Decoder (whose chart memory it reuses), decodes the
// chunk scored before, so that scoring and decoding overlap and use every
// core.
//
// Cost per sentence of n words and L labels: the network's forward pass,
// O(n·H² + n·L·d² + n²·L·d), then the decoder's (O(n³·L) for n3; see
// chart/decode for the others).
package parser
