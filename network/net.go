package network

// net is the whole network as typed views of parameter slices: either the
// weights or, with the same shapes, their gradients.
type net[T float] struct {
	cfg              Config
	wordEmb, charEmb embedding[T]
	charLSTM         bilstm[T]
	lstm1, lstm2     bilstm[T]
	tagger           linear[T]
	mods             [numKinds][2]module[T] // [kind][modSpan, modLabel]
}

// module is one span or label module: two endpoint MLPs and a biaffine.
type module[T float] struct {
	left, right linear[T]
	bi          biaffine[T]
}

// bindNet builds a net over the slices get returns for each parameter name.
func bindNet[T float](c Config, get func(name string) []T) net[T] {
	lstm1d := func(prefix string, in, h int) lstm[T] {
		return lstm[T]{wih: get(prefix + ".w_ih"), whh: get(prefix + ".w_hh"), b: get(prefix + ".b"), in: in, hid: h}
	}
	bi := func(prefix string, in, h int) bilstm[T] {
		return bilstm[T]{fwd: lstm1d(prefix+".fwd", in, h), bwd: lstm1d(prefix+".bwd", in, h)}
	}
	n := net[T]{
		cfg:      c,
		wordEmb:  embedding[T]{w: get("word.emb"), rows: c.WordVocab, dim: c.WordDim},
		charEmb:  embedding[T]{w: get("char.emb"), rows: c.CharVocab, dim: c.CharDim},
		charLSTM: bi("char_lstm", c.CharDim, c.CharHidden),
		lstm1:    bi("lstm1", c.featDim(), c.LSTM1Hidden),
		lstm2:    bi("lstm2", 2*c.LSTM1Hidden, c.LSTM2Hidden),
		tagger:   linear[T]{w: get("tagger.w"), b: get("tagger.b"), in: 2 * c.LSTM1Hidden, out: c.Tags},
	}
	for k, kind := range kindNames {
		for m, mod := range moduleNames {
			d, o := c.moduleDims(m)
			p := kind + "." + mod
			lin := func(side string) linear[T] {
				return linear[T]{w: get(p + "." + side + ".w"), b: get(p + "." + side + ".b"), in: 2 * c.LSTM2Hidden, out: d}
			}
			n.mods[k][m] = module[T]{left: lin("left"), right: lin("right"), bi: biaffine[T]{w: get(p + ".biaffine"), outs: o, d: d}}
		}
	}
	return n
}

// bind32 binds a float32 net to p's tensors (no copy).
func bind32(p *Params) net[float32] { return bindNet(p.cfg, p.data) }
