package scorer

import "github.com/discspan/discspan/network"

// Forwarder adapts a Scorer to the ForwardBatch method of network.Model, the
// interface parser.Parser's Scorer field takes.
type Forwarder struct{ S Scorer }

// ForwardBatch returns f.S.Score(ins).
func (f Forwarder) ForwardBatch(ins []network.Input) ([]network.Output, error) {
	return f.S.Score(ins)
}
