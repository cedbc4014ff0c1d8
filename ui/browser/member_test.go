package browser

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/parser/parsertest"
	"github.com/discspan/discspan/scorer"
)

// loopConn connects a remoteMember to a memberServer in this goroutine
// through the protocol's JSON and bytes, as the workers exchange them.
// From the failAt-th batch on (0: never) it fails as a crashed worker.
type loopConn struct {
	srv    *memberServer
	sent   int
	failAt int
	closed bool
}

func (c *loopConn) send(batch []network.Input) func() ([]network.Output, error) {
	c.sent++
	if c.closed {
		panic("a batch sent to a closed member")
	}
	if c.failAt > 0 && c.sent >= c.failAt {
		return func() ([]network.Output, error) {
			return nil, fmt.Errorf("out of memory: %w", errMemberFailed)
		}
	}
	req, err := json.Marshal(batch)
	if err != nil {
		panic(err)
	}
	j, b, err := c.srv.handle("score", req, nil)
	return func() ([]network.Output, error) {
		if err != nil {
			return nil, err
		}
		var a scoreAnswer
		if err := json.Unmarshal(j, &a); err != nil {
			return nil, err
		}
		return unpackResults(a, b)
	}
}

func (c *loopConn) close() { c.closed = true }

// equalOutputs reports the first difference between two batches' results.
func equalOutputs(got, want []network.Output) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d results, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if (g.Scores == nil) != (w.Scores == nil) {
			return fmt.Errorf("result %d: scores %v, want %v", i, g.Scores != nil, w.Scores != nil)
		}
		if w.Scores != nil && (g.Scores.N != w.Scores.N || g.Scores.L != w.Scores.L ||
			!slices.Equal(g.Scores.Cont, w.Scores.Cont) || !slices.Equal(g.Scores.Disc, w.Scores.Disc) || !slices.Equal(g.Scores.Gap, w.Scores.Gap)) {
			return fmt.Errorf("result %d: scores differ", i)
		}
		if !slices.Equal(g.Tags, w.Tags) {
			return fmt.Errorf("result %d: tag logits differ", i)
		}
	}
	return nil
}

// TestMemberProtocol runs an ensemble's second model through a member
// worker's side of the protocol (memberServer, loaded from the ensemble
// file) and back: the ensemble's scores equal the sequential ensemble's bit
// for bit, also after the worker fails (the member then scores here), and
// a batch the model refuses gets the model's own error.
func TestMemberProtocol(t *testing.T) {
	data := parsertest.Ensemble(t, []uint64{4, 5})
	ms, err := parser.Read(data, "ens")
	if err != nil {
		t.Fatal(err)
	}
	var batch []network.Input
	for _, words := range parsertest.Sentences {
		batch = append(batch, ms.Vocab.Encode(words))
	}
	batch = append(batch, network.Input{}) // an empty sentence
	want, err := scorer.MeanCPU(ms.Models).Score(batch)
	if err != nil {
		t.Fatal(err)
	}

	srv := &memberServer{}
	if _, _, err := srv.handle("score", []byte(`[]`), nil); !errors.Is(err, parser.ErrNoModel) {
		t.Errorf("score before member-load: %v", err)
	}
	for _, tc := range []struct {
		req  string
		want string
	}{
		{`{"name":"ens","member":2}`, "ens has 2 models, no model 2"},
		{`{"name":`, "member-load request"},
	} {
		if _, _, err := srv.handle("member-load", []byte(tc.req), data); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("member-load %s: %v, want %q", tc.req, err, tc.want)
		}
	}
	req, _ := json.Marshal(memberLoad{Name: "ens", Member: 1})
	answer, _, err := srv.handle("member-load", req, data)
	if err != nil {
		t.Fatal(err)
	}
	// The member says how much memory it holds once loaded (here the Go
	// runtime's; in a browser the worker's wasm memory).
	var loaded memberLoaded
	if err := json.Unmarshal(answer, &loaded); err != nil || loaded.Memory <= int64(len(data)) {
		t.Errorf("member-load answered %s (%v): want the memory held, more than the %d bytes of the weights", answer, err, len(data))
	}

	for _, tc := range []struct {
		name   string
		failAt int // the batch from which the worker fails (0: never)
	}{
		{"worker works", 0},
		{"worker fails at the second batch", 2},
		{"worker fails at once", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn := &loopConn{srv: srv, failAt: tc.failAt}
			member := &remoteMember{local: scorer.NewCPU(ms.Models[1]), conn: conn}
			ens := scorer.Mean(scorer.NewCPU(ms.Models[0]), member)
			for round := 1; round <= 3; round++ {
				got, err := ens.Score(batch)
				if err != nil {
					t.Fatalf("batch %d: %v", round, err)
				}
				if err := equalOutputs(got, want); err != nil {
					t.Fatalf("batch %d: %v", round, err)
				}
				failed := tc.failAt > 0 && round >= tc.failAt
				if (member.Failed() != nil) != failed {
					t.Fatalf("batch %d: failed %v, want %v", round, member.Failed(), failed)
				}
				wantBackend := "ensemble of 2: cpu"
				if failed {
					wantBackend = "ensemble of 2: cpu + cpu (here: out of memory: the member's worker failed)"
				}
				if got := ens.Backend(); got != wantBackend {
					t.Fatalf("batch %d: backend %q, want %q", round, got, wantBackend)
				}
			}
			if wantSent := 3; tc.failAt > 0 {
				wantSent = tc.failAt
				if conn.sent != wantSent || !conn.closed {
					t.Errorf("%d batches sent, closed %v; want %d, the worker closed after its failure", conn.sent, conn.closed, wantSent)
				}
			} else if conn.sent != wantSent {
				t.Errorf("%d batches sent, want %d", conn.sent, wantSent)
			}
			if err := ens.Close(); err != nil || !conn.closed {
				t.Errorf("Close: %v, worker closed %v", err, conn.closed)
			}
		})
	}

	// A word id outside the vocabulary: the worker refuses it, and the
	// member answers with the model's own error.
	bad := []network.Input{{WordIDs: []int{1 << 20}, CharIDs: [][]int{{5}}}}
	_, wantErr := ms.Models[1].ForwardBatch(bad)
	member := &remoteMember{local: scorer.NewCPU(ms.Models[1]), conn: &loopConn{srv: srv}}
	if _, err := member.Score(bad); err == nil || wantErr == nil || err.Error() != wantErr.Error() || member.Failed() != nil {
		t.Errorf("refused batch: %v (failed %v), want %v", err, member.Failed(), wantErr)
	}
}

// TestPackResults checks that packResults and unpackResults are inverse,
// and that unpackResults refuses bytes its shapes do not describe.
func TestPackResults(t *testing.T) {
	data := parsertest.Model(t, 6)
	ms, err := parser.Read(data, "m")
	if err != nil {
		t.Fatal(err)
	}
	outs, err := ms.Models[0].ForwardBatch([]network.Input{ms.Vocab.Encode(parsertest.Sentences[0]), {}, ms.Vocab.Encode(parsertest.Sentences[1])})
	if err != nil {
		t.Fatal(err)
	}
	outs = append(outs, network.Output{}) // no scores at all
	a, b := packResults(outs)
	back, err := unpackResults(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := equalOutputs(back, outs); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		a    scoreAnswer
		b    []byte
		want string
	}{
		{"short", a, b[:len(b)-4], "shorter than"},
		{"long", a, append(slices.Clone(b), 0, 0, 0, 0), "4 more than"},
		{"ragged", a, b[:len(b)-1], "not a whole number"},
		{"negative", scoreAnswer{Results: []resultShape{{N: -1, L: 3}}}, nil, "shape n=-1"},
		{"huge", scoreAnswer{Results: []resultShape{{N: 1 << 30, L: 1 << 10}}}, nil, "shape n="},
	} {
		if _, err := unpackResults(tc.a, tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
