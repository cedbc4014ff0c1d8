package weights

import (
	"bytes"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
)

// ensembleFile writes members of the small configuration (seeded 1, 2, ...)
// as one file stored as dt.
func ensembleFile(t *testing.T, members int, dt DType) ([]*network.Params, *network.Vocab, []byte) {
	t.Helper()
	v := fakeVocab(t, 40, 20, 5, 4)
	var ps []*network.Params
	for k := range members {
		p, err := network.NewParams(smallConfig(v))
		if err != nil {
			t.Fatal(err)
		}
		fillRandom(p, uint64(k+1))
		ps = append(ps, p)
	}
	var b bytes.Buffer
	if err := WriteEnsemble(&b, ps, testMeta(ps[0].Config(), v), dt); err != nil {
		t.Fatal(err)
	}
	return ps, v, b.Bytes()
}

func TestEnsembleRoundTrip(t *testing.T) {
	for _, dt := range allDTypes {
		t.Run(dt.String(), func(t *testing.T) {
			ps, _, data := ensembleFile(t, 3, dt)
			f, err := Read(data, "ens.safetensors")
			if err != nil {
				t.Fatal(err)
			}
			if f.Ensemble != 3 || len(f.Members) != 3 || f.Params != f.Members[0] {
				t.Fatalf("Ensemble %d, %d members, Params first: %v; want 3, 3, true", f.Ensemble, len(f.Members), f.Params == f.Members[0])
			}
			// Each member reads back as that member (stored with dt), not
			// as another one.
			for k, p := range ps {
				var single bytes.Buffer
				if err := Write(&single, p, f.Meta, dt); err != nil {
					t.Fatal(err)
				}
				alone, err := Read(single.Bytes(), "single")
				if err != nil {
					t.Fatal(err)
				}
				if alone.Ensemble != 1 || len(alone.Members) != 1 {
					t.Fatalf("single file: Ensemble %d, %d members", alone.Ensemble, len(alone.Members))
				}
				want, got := alone.Params.Tensors(), f.Members[k].Tensors()
				for i := range want {
					if !slices.EqualFunc(want[i].Data, got[i].Data, func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }) {
						t.Fatalf("member %d tensor %s differs from the member written alone", k, want[i].Name)
					}
				}
			}
			if slices.Equal(f.Members[0].Tensors()[0].Data, f.Members[1].Tensors()[0].Data) {
				t.Fatal("members 0 and 1 read back equal")
			}
			models, err := f.Models()
			if err != nil || len(models) != 3 {
				t.Fatalf("Models: %d models, %v", len(models), err)
			}
			if _, err := f.Model(); err == nil || !strings.Contains(err.Error(), "an ensemble of 3 models") {
				t.Fatalf("Model on an ensemble: %v, want a refusal", err)
			}
			raw := parseRaw(t, data)
			if raw.Meta["format_version"] != "2" || raw.Meta["members"] != "3" {
				t.Fatalf("format_version %q, members %q; want 2 and 3", raw.Meta["format_version"], raw.Meta["members"])
			}
			raw.tensor(t, "member2.word.emb")
		})
	}
}

func TestSingleModelStaysVersion1(t *testing.T) {
	ps, v, _ := ensembleFile(t, 1, Float16)
	raw := parseRaw(t, encode(t, ps[0], v, Float16))
	if raw.Meta["format_version"] != "1" {
		t.Fatalf("format_version %q, want 1", raw.Meta["format_version"])
	}
	if _, ok := raw.Meta["members"]; ok {
		t.Fatal("a single model has a members entry")
	}
	raw.tensor(t, "word.emb")
}

func TestEnsembleCorrupt(t *testing.T) {
	_, _, data := ensembleFile(t, 2, Float16)
	edit := func(change func(*rawFile)) []byte {
		r := parseRaw(t, data)
		change(&r)
		return r.encode(true)
	}
	cases := []struct {
		name string
		data []byte
		kind error
		want string
	}{
		{"members 1", edit(func(r *rawFile) { r.Meta["members"] = "1" }), ErrMeta, `metadata members is "1", want an integer from 2 to 16`},
		{"members 17", edit(func(r *rawFile) { r.Meta["members"] = "17" }), ErrMeta, "want an integer from 2 to 16"},
		{"members x", edit(func(r *rawFile) { r.Meta["members"] = "x" }), ErrMeta, `metadata members is "x"`},
		{"members with version 1", edit(func(r *rawFile) { r.Meta["format_version"] = "1" }), ErrMeta, "members entry but format_version \"1\""},
		{"members 3, two stored", edit(func(r *rawFile) { r.Meta["members"] = "3" }), ErrTensors, `missing tensor "member2.`},
		{"members removed", edit(func(r *rawFile) { delete(r.Meta, "members") }), ErrTensors, `missing tensor "word.emb"`},
		{"a member's tensor renamed", edit(func(r *rawFile) { r.tensor(t, "member1.tagger.b").Name = "member1.tagger.bias" }), ErrTensors,
			`missing tensor "member1.tagger.b"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(c.data, "ens.safetensors")
			if !errors.Is(err, c.kind) || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %v saying %q", err, c.kind, c.want)
			}
			// ReadMember checks the whole file too, whichever member.
			_, err = ReadMember(c.data, "ens.safetensors", 0)
			if !errors.Is(err, c.kind) || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("ReadMember: error %v, want %v saying %q", err, c.kind, c.want)
			}
		})
	}
}

func TestWriteEnsembleRefuses(t *testing.T) {
	v := fakeVocab(t, 40, 20, 5, 4)
	a, _ := network.NewParams(smallConfig(v))
	other := smallConfig(v)
	other.SpanMLP++
	b, _ := network.NewParams(other)
	var buf bytes.Buffer
	if err := WriteEnsemble(&buf, []*network.Params{a, b}, testMeta(a.Config(), v), Float32); err == nil || !strings.Contains(err.Error(), "ensemble member 1 has config") {
		t.Fatalf("mixed configs: %v", err)
	}
	if err := WriteEnsemble(&buf, nil, testMeta(a.Config(), v), Float32); err == nil || !strings.Contains(err.Error(), "0 models") {
		t.Fatalf("no models: %v", err)
	}
}

// TestEnsembleDropoutMayDiffer: models trained with other dropout rates
// have the same tensors and may join one ensemble; the file records the
// first model's rates.
func TestEnsembleDropoutMayDiffer(t *testing.T) {
	v := fakeVocab(t, 40, 20, 5, 4)
	a, _ := network.NewParams(smallConfig(v))
	c := smallConfig(v)
	c.DropFeat, c.DropMLP = 0.5, 0.45
	b, _ := network.NewParams(c)
	var buf bytes.Buffer
	if err := WriteEnsemble(&buf, []*network.Params{a, b}, testMeta(a.Config(), v), Float16); err != nil {
		t.Fatal(err)
	}
	f, err := Read(buf.Bytes(), "ens")
	if err != nil {
		t.Fatal(err)
	}
	if f.Meta.Config != a.Config() || f.Ensemble != 2 {
		t.Fatalf("config %+v (want the first model's %+v), %d models", f.Meta.Config, a.Config(), f.Ensemble)
	}
}

// TestReadMember reads each member of an ensemble alone: the same values
// as Read's, the file's other facts kept, and less memory spent than
// Read's; a member the file lacks is refused.
func TestReadMember(t *testing.T) {
	for _, dt := range allDTypes {
		t.Run(dt.String(), func(t *testing.T) {
			_, _, data := ensembleFile(t, 3, dt)
			all, err := Read(data, "ens.safetensors")
			if err != nil {
				t.Fatal(err)
			}
			for k := range 3 {
				f, err := ReadMember(data, "ens.safetensors", k)
				if err != nil {
					t.Fatal(err)
				}
				if f.Ensemble != 3 || len(f.Members) != 1 || f.Params != f.Members[0] || f.TensorsSHA256 != all.TensorsSHA256 || f.DType != dt {
					t.Fatalf("member %d: Ensemble %d, %d members, sha %s, dtype %s; want 3, 1, %s, %s", k, f.Ensemble, len(f.Members), f.TensorsSHA256, f.DType, all.TensorsSHA256, dt)
				}
				want, got := all.Members[k].Tensors(), f.Params.Tensors()
				for i := range want {
					if !slices.Equal(want[i].Data, got[i].Data) {
						t.Fatalf("member %d, tensor %s differs from Read's", k, want[i].Name)
					}
				}
			}
			for _, k := range []int{-1, 3} {
				if _, err := ReadMember(data, "ens.safetensors", k); err == nil || !strings.Contains(err.Error(), "ens.safetensors has 3 models") {
					t.Errorf("member %d: %v, want a refusal", k, err)
				}
			}
			// Memory: Read converts three members, ReadMember one; it
			// saves (nearly) the float32 parameters of the two others.
			allocated := func(read func()) uint64 {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				read()
				runtime.ReadMemStats(&after)
				return after.TotalAlloc - before.TotalAlloc
			}
			whole := allocated(func() { _, _ = Read(data, "ens") })
			one := allocated(func() { _, _ = ReadMember(data, "ens", 1) })
			others := uint64(2 * 4 * all.Meta.Config.NumParams())
			if one >= whole || whole-one < others*9/10 {
				t.Errorf("ReadMember allocated %d bytes, Read %d: want %d fewer (two members' float32 parameters)", one, whole, others)
			}
		})
	}
}
