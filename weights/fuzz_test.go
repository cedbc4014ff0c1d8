package weights

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzRead: Read never panics, fails only with an *Error naming the file,
// and agrees with the header-only reader. Seeds: testdata/fuzz/FuzzRead
// (valid micro files in the three dtypes and corrupt variants) and the ones
// added here.
func FuzzRead(f *testing.F) {
	v := fakeVocab(f, 4, 6, 1, 1)
	c := microConfig(v)
	m := randomModel(f, c, 3)
	for _, dt := range allDTypes {
		data := encode(f, m.Params, v, dt)
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Add([]byte{})
	f.Add([]byte("\x02\x00\x00\x00\x00\x00\x00\x00{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Read(data, "fuzz")
		meta, metaErr := readMeta(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Name != "fuzz" || e.Kind == nil {
				t.Fatalf("error %v (%T) is not an *Error naming the file", err, err)
			}
			if metaErr == nil && !errors.Is(err, ErrChecksum) && !errors.Is(err, ErrValue) {
				t.Fatalf("Read: %v, but the header-only reader accepts the file", err)
			}
			return
		}
		if metaErr != nil {
			t.Fatalf("Read accepts the file, the header-only reader says %v", metaErr)
		}
		if meta.Meta.Config != file.Meta.Config || meta.DType != file.DType {
			t.Fatal("Read and readMeta disagree")
		}
		model, err := file.Model()
		if err != nil {
			t.Fatal(err)
		}
		if model.Config() != file.Meta.Config {
			t.Fatal("model config differs")
		}
	})
}
