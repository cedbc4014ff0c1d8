// Package weights reads and writes discspan model files: the parameters of
// a network.Model with its configuration, vocabulary and provenance, in the
// safetensors format (https://github.com/huggingface/safetensors), so that
// other tools (Python's safetensors, numpy, a JavaScript loader) read them
// as they are. This comment is the format's specification.
//
// # File layout
//
//	bytes 0 .. 7        N: the header length, unsigned 64-bit little-endian
//	bytes 8 .. 8+N      the header: a UTF-8 JSON object; its first byte is '{'
//	                    and it is padded at the end with spaces (0x20) so that
//	                    N is a multiple of 8 (at most 100,000,000)
//	bytes 8+N .. end    the data section: the raw tensor bytes
//
// The header maps the key "__metadata__" to an object whose values are all
// strings (see Metadata) and every tensor name to
//
//	{"dtype":"F16","shape":[512,160],"data_offsets":[BEGIN,END]}
//
// BEGIN and END are byte offsets relative to the start of the data section
// (byte 8+N of the file), END exclusive; END-BEGIN is the product of the
// shape times the element size (1 for I8 and U8, 2 for F16, 4 for F32). Values are
// little-endian, in row-major (C) order. The tensors tile the data section
// exactly: sorted by BEGIN, the first starts at 0, each starts where the
// previous ends, the last ends at the end of the file. Keys are unique. The
// writer puts "__metadata__" first and the tensors in data order, with no
// whitespace, but a reader must not depend on the order of JSON keys.
//
// # Tensors
//
// The tensors are the parameters of network.Params for the configuration,
// with the same names and shapes (see network.NewParams; a Linear weight is
// (out, in), an LSTM direction has w_ih (4H, in), w_hh (4H, H) and one bias
// b (4H), gates in the order i, f, g, o):
//
//	word.emb                                    (word_vocab, word_dim)
//	char.emb                                    (char_vocab, char_dim)
//	char_lstm.{fwd,bwd}.{w_ih,w_hh,b}           in = char_dim, H = char_hidden
//	lstm1.{fwd,bwd}.{w_ih,w_hh,b}               in = word_dim + 2*char_hidden, H = lstm1_hidden
//	lstm2.{fwd,bwd}.{w_ih,w_hh,b}               in = 2*lstm1_hidden, H = lstm2_hidden
//	tagger.w (tags, 2*lstm1_hidden), tagger.b   (tags)
//	{cont,disc,gap}.{span,label}.{left,right}.w (d, 2*lstm2_hidden)
//	{cont,disc,gap}.{span,label}.{left,right}.b (d)
//	{cont,disc,gap}.{span,label}.biaffine       (O, d+1, d+1)
//
// with d = span_mlp, O = 1 for span modules and d = label_mlp, O = labels
// for label modules. All of them have the dtype named by the metadata entry
// "dtype" (but for I4, below):
//
//   - F32: IEEE 754 binary32, the model's own values.
//   - F16: IEEE 754 binary16, rounded to nearest, ties to even (subnormals
//     kept; the writer refuses values that round beyond 65504). For bits
//     s (1), e (5), m (10): (-1)^s * 2^(e-15) * (1 + m/1024) when 0 < e < 31,
//     (-1)^s * 2^-14 * m/1024 when e = 0; e = 31 is Inf or NaN (refused).
//   - I8: signed bytes with float32 scales. A tensor of shape (d0, ..., dk)
//     is viewed as R rows of C = dk values (R = d0*...*d(k-1), R = 1 for a
//     vector), and its scales are the extra F32 tensor "<name>.__scale" of
//     shape [R]. The value of element i is Math.fround(q[i] * scale[floor(i / C)])
//     (float32 product). The writer uses scale[r] = max |x| over row r / 127
//     (as float32, nudged up by an ulp if needed so that max |x| / scale <= 127;
//     0 for an all-zero row) and q = round(x / scale), half away from zero,
//     in [-127, 127]: every value is within scale/2 of the original.
//   - I4 (the metadata's dtype; no safetensors dtype has 4 bits): every
//     matrix (a tensor of rank 2 or more) is a U8 tensor of shape
//     [R, ceil(C/2)], two 4-bit values a byte, with the F32 scales
//     "<name>.__scale" of shape [R]; every vector (rank 0 or 1) is stored as
//     in I8. Value j of row r is the nibble n of byte floor(j/2) of the row
//     (the low nibble for even j, the high one for odd j), and its value is
//     Math.fround((n - 8) * scale[r]). The writer uses scale[r] = max |x| over
//     row r / 7 (nudged up as for I8) and n = 8 + round(x / scale), in [1, 15];
//     a row of odd length ends with a high nibble of 0, read as -8 and unused.
//
// Data order: the tensors in the order above (network.Params order); for I8
// and I4, all the scale tensors (in that order) come first, then the int8
// and U8 tensors.
// Since the data section starts at a multiple of 8, every tensor starts at
// a file offset that is a multiple of its element size: a JavaScript loader
// can view it without copying, e.g. new Uint16Array(buf, 8+N+BEGIN, count).
//
// # Ensembles
//
// A file may hold an ensemble: 2 to 16 models of one configuration and
// vocabulary (config holds the first model's dropout rates; the others may
// have been trained with other rates), trained separately, whose outputs a parser averages (cont,
// disc and gap scores and tag logits, entry by entry). Its metadata has
// format_version "2" and "members" (the number of models, decimal); the
// tensors of model k (from 0) are those above named "member<k>." + name
// (e.g. "member1.word.emb"), member after member in data order (for I8 and I4, the
// scale tensors of every member first). A single model is written as
// format_version "1" without "members" and its tensor names unprefixed, so
// that readers of version 1 read it.
//
// # Metadata
//
// All values are strings; structured values are JSON encoded into the
// string. Required entries:
//
//	format            "discspan"
//	format_version    "1", or "2" for an ensemble (a reader refuses a larger version:
//	                  written by a newer discspan)
//	config            network.Config as a JSON object with exactly its fields:
//	                  word_dim, char_dim, char_hidden, max_chars, lstm1_hidden,
//	                  lstm2_hidden, label_mlp, span_mlp, labels, tags, word_vocab,
//	                  char_vocab (integers), drop_char, drop_feat, drop_lstm,
//	                  drop_mlp, leaky_slope (numbers)
//	vocab             network.Vocab as JSON: {"words":[...],"chars":[...],"labels":[...],"tags":[...]}
//	                  (word_vocab words with "<unk>", "<bos>", "<eos>" first; char_vocab
//	                  one-character strings with "<unk>", "<bow>", "<eow>", "<bos>", "<eos>"
//	                  first; then the labels constituent labels and the tags POS tags;
//	                  an id is a position in its list)
//	dtype             "F32", "F16", "I8" or "I4"
//	tensors_sha256    hex (lower case) SHA-256 of the data section, bytes 8+N to the end, as stored
//	metadata_sha256   hex SHA-256 of every other metadata entry: for each key in increasing
//	                  order of its UTF-8 bytes, uint64 LE byte length of the key, the key's
//	                  UTF-8 bytes, uint64 LE byte length of the value, the value's bytes
//
// Descriptive entries, always written, optional when reading (checked when
// present):
//
//	training_data     training treebank: file name or description
//	dev_f1            labelled F1 on the development set (decimal number, e.g. "87.25")
//	dev_disc_f1       discontinuous-constituent F1 on the development set
//	test_f1           labelled F1 on the test set (only when measured)
//	epochs            training epochs (decimal integer)
//	created           creation time, RFC 3339 in UTC ("2025-01-31T12:00:00Z")
//	created_by        the command line that wrote the file ("discspan train ...")
//	members           ensembles only (required there): the number of models, "2" to "16"
//
// Other keys are kept as Meta.Extra. The two checksums seal the file: any
// change to the tensor bytes or to the metadata is detected, and the tensor
// entries themselves are checked against the configuration.
//
// # Reading
//
// Read, ReadFile and ReadMeta check everything, in this order, and report
// the first problem (for the tensor set, up to four mismatches at once) as
// an *Error naming the file ("weights: model.safetensors:
// ..."), which matches (errors.Is) one of ErrTruncated, ErrHeader, ErrMeta,
// ErrNewer, ErrChecksum, ErrDType, ErrLayout, ErrVocab, ErrTensors and
// ErrValue: the header length against the file size; the header's UTF-8,
// first byte, JSON syntax (with the byte offset), padding and duplicate keys;
// the metadata's format and version, metadata_sha256, dtype, config and
// vocabulary (sizes agreeing with the config); every tensor entry's fields,
// dtype, and shape against its byte length; the tiling of the data section
// (truncation, overlaps, gaps, offsets running backwards, trailing bytes);
// the tensor set against the configuration (missing, unexpected, wrong shape
// or dtype); then, except for ReadMeta, tensors_sha256 and finally the
// values (NaN, infinities, negative scales).
package weights
