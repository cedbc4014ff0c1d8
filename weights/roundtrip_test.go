package weights

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/discspan/discspan/network"
)

// fillRandom gives p values of all magnitudes: normal ones, tiny ones
// (float16 subnormals), exact zeros and values representable in float16.
func fillRandom(p *network.Params, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	for _, t := range p.Tensors() {
		for i := range t.Data {
			switch rng.IntN(8) {
			case 0:
				t.Data[i] = 0
			case 1:
				t.Data[i] = float32(rng.NormFloat64() * 1e-6)
			case 2:
				t.Data[i] = fromHalf(uint16(rng.IntN(0x7c00)) | uint16(rng.IntN(2))<<15)
			default:
				t.Data[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-2)))
			}
		}
	}
}

func TestRoundTrip(t *testing.T) {
	v := fakeVocab(t, 40, 20, 5, 4)
	c := smallConfig(v)
	p, err := network.NewParams(c)
	if err != nil {
		t.Fatal(err)
	}
	fillRandom(p, 1)
	cases := []struct {
		name  string
		dtype DType
		check func(t *testing.T, name string, want []float32, got []float32, shape []int)
	}{
		{"float32 exact", Float32, func(t *testing.T, name string, want, got []float32, _ []int) {
			for i := range want {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s[%d] = %v, want %v", name, i, got[i], want[i])
				}
			}
		}},
		{"float16 nearest", Float16, func(t *testing.T, name string, want, got []float32, _ []int) {
			for i, x := range want {
				if exact := fromHalf(toHalf(x)); got[i] != exact {
					t.Fatalf("%s[%d] = %v, want %v (the nearest float16 of %v)", name, i, got[i], exact, x)
				}
				if fromHalf(toHalf(x)) == x && got[i] != x {
					t.Fatalf("%s[%d] = %v, want %v exactly (representable in float16)", name, i, got[i], x)
				}
				a := math.Abs(float64(x))
				d := math.Abs(float64(got[i]) - float64(x))
				if a >= 0x1p-14 && d > 1e-3*a || a < 0x1p-14 && d > 0x1p-25 {
					t.Fatalf("%s[%d] = %v, want %v within 1e-3 relative (2^-25 absolute below 2^-14)", name, i, got[i], x)
				}
			}
		}},
		{"int8 within scale/2", Int8, func(t *testing.T, name string, want, got []float32, shape []int) {
			withinHalfScale(t, name, want, got, shape, int8Levels)
		}},
		{"int4 within scale/2 (matrices), int8 (vectors)", Int4, func(t *testing.T, name string, want, got []float32, shape []int) {
			levels := float64(int8Levels)
			if len(shape) >= 2 {
				levels = int4Levels
			}
			withinHalfScale(t, name, want, got, shape, levels)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := encode(t, p, v, tc.dtype)
			f, err := Read(data, "model.safetensors")
			if err != nil {
				t.Fatal(err)
			}
			if f.DType != tc.dtype || f.Bytes != len(data) || f.Params.Config() != c {
				t.Errorf("dtype %v, bytes %d, config %+v", f.DType, f.Bytes, f.Params.Config())
			}
			for _, want := range p.Tensors() {
				got := f.Params.Get(want.Name)
				tc.check(t, want.Name, want.Data, got.Data, want.Shape)
			}
			checkMeta(t, f.Meta, testMeta(c, v))
			// Deterministic: the same input gives the same bytes.
			if again := encode(t, p, v, tc.dtype); !bytes.Equal(again, data) {
				t.Error("two writes of the same model differ")
			}
		})
	}
}

// withinHalfScale fails unless every value of got is within half its row's
// scale (max |want| of the row / levels) of want.
func withinHalfScale(t *testing.T, name string, want, got []float32, shape []int, levels float64) {
	t.Helper()
	r, c := rows(shape)
	for row := 0; row < r; row++ {
		var m float64
		for _, x := range want[row*c : (row+1)*c] {
			m = max(m, math.Abs(float64(x)))
		}
		tol := m / levels / 2 * (1 + 1e-6)
		for j := row * c; j < (row+1)*c; j++ {
			if d := math.Abs(float64(got[j]) - float64(want[j])); d > tol {
				t.Fatalf("%s[%d] = %v, want %v within %g (scale/2)", name, j, got[j], want[j], tol)
			}
		}
	}
}

func checkMeta(t *testing.T, got, want Meta) {
	t.Helper()
	if got.Config != want.Config {
		t.Errorf("config %+v, want %+v", got.Config, want.Config)
	}
	for _, l := range []struct {
		name      string
		got, want []string
	}{
		{"words", got.Vocab.Words, want.Vocab.Words}, {"chars", got.Vocab.Chars, want.Vocab.Chars},
		{"labels", got.Vocab.Labels, want.Vocab.Labels}, {"tags", got.Vocab.Tags, want.Vocab.Tags},
	} {
		if len(l.got) != len(l.want) {
			t.Errorf("%s: %d, want %d", l.name, len(l.got), len(l.want))
			continue
		}
		for i := range l.got {
			if l.got[i] != l.want[i] {
				t.Errorf("%s[%d] = %q, want %q", l.name, i, l.got[i], l.want[i])
			}
		}
	}
	if got.Vocab.WordID(want.Vocab.Words[5]) != 5 {
		t.Error("vocab index not rebuilt")
	}
	if got.TrainingData != want.TrainingData || got.DevF1 != want.DevF1 || got.DevDiscF1 != want.DevDiscF1 ||
		got.Epochs != want.Epochs || !got.Created.Equal(want.Created) || got.CreatedBy != want.CreatedBy {
		t.Errorf("meta %+v, want %+v", got, want)
	}
	if (got.TestF1 == nil) != (want.TestF1 == nil) || got.TestF1 != nil && *got.TestF1 != *want.TestF1 {
		t.Errorf("test_f1 %v, want %v", got.TestF1, want.TestF1)
	}
	if len(got.Extra) != len(want.Extra) || got.Extra["note"] != want.Extra["note"] {
		t.Errorf("extra %v, want %v", got.Extra, want.Extra)
	}
}

// TestScores: a random model written and read back scores sentences the
// same (float32: bit for bit; float16 and int8: within the stated bounds).
func TestScores(t *testing.T) {
	v := fakeVocab(t, 60, 30, 6, 5)
	c := smallConfig(v)
	m := randomModel(t, c, 5)
	sentences := [][]string{
		{"w3", "w17", "w40", "unknown", "w59"},
		{"w8", "W9", "w10", "w11", "w12", "w13", "w14", "w15", "w16"},
		{"w5"},
	}
	cases := []struct {
		name   string
		dtype  DType
		maxAbs float64 // on span scores
	}{
		{"float32", Float32, 0},
		{"float16", Float16, 2e-3},
		{"int8", Int8, 5e-2},
		{"int4", Int4, 0.5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Read(encode(t, m.Params, v, tc.dtype), "model.safetensors")
			if err != nil {
				t.Fatal(err)
			}
			m2, err := f.Model()
			if err != nil {
				t.Fatal(err)
			}
			var worst, scale float64
			for _, s := range sentences {
				in := f.Meta.Vocab.Encode(s)
				a, err := m.Forward(in)
				if err != nil {
					t.Fatal(err)
				}
				b, err := m2.Forward(in)
				if err != nil {
					t.Fatal(err)
				}
				for k, pair := range [][2][]float32{{a.Scores.Cont, b.Scores.Cont}, {a.Scores.Disc, b.Scores.Disc}, {a.Scores.Gap, b.Scores.Gap}, {a.Tags, b.Tags}} {
					for i := range pair[0] {
						scale = max(scale, math.Abs(float64(pair[0][i])))
						d := math.Abs(float64(pair[0][i]) - float64(pair[1][i]))
						if tc.maxAbs == 0 && d != 0 {
							t.Fatalf("output %d[%d]: %v, want %v exactly", k, i, pair[1][i], pair[0][i])
						}
						worst = max(worst, d)
					}
				}
			}
			t.Logf("%s: max abs score difference %.3g (largest score magnitude %.3g)", tc.name, worst, scale)
			if worst > tc.maxAbs {
				t.Errorf("max abs score difference %g, want at most %g", worst, tc.maxAbs)
			}
		})
	}
}
