package weights

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
)

// TestTinySize reports the file sizes of the Tiny preset with a realistic
// Alpino vocabulary (6.7k words, 78 characters, 34 labels, 12 tags) and
// checks that the shipped dtype fits the 8 MB browser budget.
func TestTinySize(t *testing.T) {
	v := fakeVocab(t, 6700, 78, 34, 12)
	c := tinyConfig(v)
	m := randomModel(t, c, 1)
	const budget = 8_000_000
	in := v.Encode([]string{"w10", "w200", "w3000", "w6000", "w42", "w7", "w999", "w1234"})
	ref, err := m.Forward(in)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Tiny: %d parameters", c.NumParams())
	for _, dt := range allDTypes {
		var b bytes.Buffer
		if err := Write(&b, m.Params, testMeta(c, v), dt); err != nil {
			t.Fatal(err)
		}
		f, err := Read(b.Bytes(), "tiny")
		if err != nil {
			t.Fatal(err)
		}
		m2, _ := f.Model()
		out, err := m2.Forward(in)
		if err != nil {
			t.Fatal(err)
		}
		var diff, mag float64
		for i := range ref.Scores.Cont {
			mag = max(mag, math.Abs(float64(ref.Scores.Cont[i])), math.Abs(float64(ref.Scores.Disc[i])), math.Abs(float64(ref.Scores.Gap[i])))
			diff = max(diff, math.Abs(float64(ref.Scores.Cont[i]-out.Scores.Cont[i])),
				math.Abs(float64(ref.Scores.Disc[i]-out.Scores.Disc[i])), math.Abs(float64(ref.Scores.Gap[i]-out.Scores.Gap[i])))
		}
		n := headerLen(b.Bytes())
		t.Logf("%v: %d bytes (%.2f MB; header %d bytes), max abs span score difference %.3g (scores up to %.3g)", dt, b.Len(), float64(b.Len())/1e6, n, diff, mag)
		if dt == DefaultDType && b.Len() > budget {
			t.Errorf("%v (the shipped dtype): %d bytes, want at most %d", dt, b.Len(), budget)
		}
	}
}

func BenchmarkTiny(b *testing.B) {
	v := fakeVocab(b, 6700, 78, 34, 12)
	m := randomModel(b, tinyConfig(v), 1)
	for _, dt := range allDTypes {
		data := encode(b, m.Params, v, dt)
		b.Run("Write/"+dt.String(), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				encode(b, m.Params, v, dt)
			}
		})
		b.Run("Read/"+dt.String(), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Read(data, "tiny"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDataSizeGuard checks the guard against headers whose configuration
// cannot fit the data section with the figures of a real failure: eight
// small-preset models (6.27 M parameters each, 28 labels) in 4 bits hold
// 26,136,536 bytes of data, which the guard refused while it counted a
// byte a parameter whatever the dtype; float32 or int8 models of the same
// configuration cannot fit in them.
func TestDataSizeGuard(t *testing.T) {
	c := network.Small()
	c.Labels, c.Tags, c.WordVocab, c.CharVocab = 28, 12, 7321, 127
	const dataLen = 26136536
	for _, tc := range []struct {
		dt      DType
		refused bool
	}{
		{Int4, false},
		{Int8, true},
		{Float16, true},
		{Float32, true},
	} {
		t.Run(tc.dt.String(), func(t *testing.T) {
			h := &header{meta: Meta{Config: c}, dtype: tc.dt, members: 8, tensors: map[string]info{}}
			_, err := checkTensors(h, dataLen, func(int) bool { return false })
			if err == nil {
				t.Fatal("a header without tensors passed")
			}
			if refused := strings.Contains(err.Error(), "the data section holds only"); refused != tc.refused {
				t.Errorf("refused for its size: %v, want %v (%v)", refused, tc.refused, err)
			}
		})
	}
}
