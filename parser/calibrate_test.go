package parser

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/eval"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/weights"
)

func TestCalibrationShifted(t *testing.T) {
	s := decode.NewScores(3, 2)
	for i := range s.Cont {
		s.Cont[i], s.Disc[i], s.Gap[i] = float32(i), float32(-i), float32(2*i)
	}
	c := Calibration{"n3": {Disc: 1.5, Gap: -0.25}, "n6": {}}
	tests := []struct {
		name      string
		v         decode.Variant
		same      bool
		disc, gap float32
	}{
		{"offsets", decode.N3, false, 1.5, -0.25},
		{"zero offsets", decode.N6, true, 0, 0},
		{"no entry", decode.N4, true, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.Shifted(tt.v, s)
			if (got == s) != tt.same {
				t.Fatalf("same scores returned: %v, want %v", got == s, tt.same)
			}
			for i := range s.Cont {
				if got.Cont[i] != float32(i) || got.Disc[i] != float32(-i)+tt.disc || got.Gap[i] != float32(2*i)+tt.gap {
					t.Fatalf("entry %d: cont %g disc %g gap %g", i, got.Cont[i], got.Disc[i], got.Gap[i])
				}
				if s.Disc[i] != float32(-i) || s.Gap[i] != float32(2*i) {
					t.Fatalf("entry %d of the caller's scores changed", i)
				}
			}
		})
	}
}

func TestCalibrationOf(t *testing.T) {
	tests := []struct {
		name    string
		extra   map[string]string
		want    Calibration
		wantErr bool
	}{
		{"none", nil, nil, false},
		{"two variants", map[string]string{CalibrationKey: `{"n3":{"disc":0.5,"gap":0},"n6":{"disc":-1,"gap":0}}`}, Calibration{"n3": {Disc: 0.5}, "n6": {Disc: -1}}, false},
		{"bad JSON", map[string]string{CalibrationKey: `{"n3":`}, nil, true},
		{"unknown variant", map[string]string{CalibrationKey: `{"n9":{"disc":1}}`}, nil, true},
		{"the largest offsets", map[string]string{CalibrationKey: `{"n3":{"disc":1024,"gap":-1024}}`}, Calibration{"n3": {Disc: 1024, Gap: -1024}}, false},
		{"a disc offset too large", map[string]string{CalibrationKey: `{"n3":{"disc":1e30,"gap":0}}`}, nil, true},
		{"a gap offset too large", map[string]string{CalibrationKey: `{"n4":{"disc":0,"gap":-1025}}`}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CalibrationOf(weights.Meta{Extra: tt.extra})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v, want error %v", err, tt.wantErr)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for v, o := range tt.want {
				if got[v] != o {
					t.Errorf("%s: %+v, want %+v", v, got[v], o)
				}
			}
			if got != nil && got.String() != tt.extra[CalibrationKey] && len(got) == 2 {
				// String is the stored form: it reads back the same.
				back, err := CalibrationOf(weights.Meta{Extra: map[string]string{CalibrationKey: got.String()}})
				if err != nil || back["n3"] != got["n3"] || back["n6"] != got["n6"] {
					t.Errorf("String %q reads back as %v (%v)", got.String(), back, err)
				}
			}
		})
	}
}

// TestCalibrateMatchesGoldCount calibrates the shipped model's n3 decoder
// on 120 dev sentences: the chosen offset's trial predicts gold's number
// of discontinuous constituents (within 1%, or the closest found), and a
// parser that carries the calibration parses the same number.
func TestCalibrateMatchesGoldCount(t *testing.T) {
	const dev = "../../shared/data/alpino-cdb/dev.punctmoved.discbracket"
	if _, err := os.Stat(dev); err != nil {
		t.Skipf("shared data absent (%v): skipping", err)
	}
	gold, err := treebank.ReadFile(dev)
	if err != nil {
		t.Fatal(err)
	}
	gold = gold[:120]
	p, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	o, trials, err := p.Calibrate(context.Background(), gold, decode.N3, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("chosen %+v\n%s", o, FormatTrials(decode.N3, trials))
	if len(trials) < 2 || trials[0].Offsets != (Offsets{}) {
		t.Fatalf("trials %+v: want the uncalibrated decoding first, then others", trials)
	}
	target := trials[0].GoldDisc
	var chosen *CalibrationTrial
	for i := range trials {
		if trials[i].Offsets == o {
			chosen = &trials[i]
		}
	}
	if chosen == nil {
		t.Fatalf("no trial has the chosen offsets %+v", o)
	}
	for _, tr := range trials {
		if math.Abs(float64(tr.Disc-target)) < math.Abs(float64(chosen.Disc-target)) {
			t.Errorf("trial %+v is closer to gold's %d than the chosen %+v", tr, target, *chosen)
		}
	}
	if o.Gap != 0 {
		t.Errorf("gap offset %g, want 0", o.Gap)
	}
	cal := *p
	cal.Calibration = Calibration{"n3": o}
	words := make([][]string, len(gold))
	for i, g := range gold {
		words[i] = g.Words()
	}
	results, err := cal.ParseBatch(words, decode.N3, 0)
	if err != nil {
		t.Fatal(err)
	}
	cand := make([]*tree.Tree, len(results))
	for i, r := range results {
		cand[i] = r.Tree
	}
	res, err := eval.Evaluate(gold, cand, eval.ProperPrm())
	if err != nil {
		t.Fatal(err)
	}
	if res.All.CandDiscBrackets != chosen.Disc {
		t.Errorf("the calibrated parser predicts %d discontinuous constituents, its trial %d", res.All.CandDiscBrackets, chosen.Disc)
	}
}
