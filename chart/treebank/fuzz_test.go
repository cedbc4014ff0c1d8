package treebank

import (
	"bytes"
	"errors"
	"testing"
)

// The seed corpora are in testdata/fuzz/<FuzzName>/.

// unwritable reports whether err says that the trees hold text a treebank
// file cannot (see checkText): the readers pass it on, the writers refuse
// it, so there is nothing to read back.
func unwritable(err error) bool { return errors.Is(err, errText) }

// FuzzReadExport checks that reading never panics and that every tree read
// is written and read back unchanged.
func FuzzReadExport(f *testing.F) {
	f.Add([]byte(exportSample))
	f.Fuzz(func(t *testing.T, data []byte) {
		trees, _ := ReadExport(bytes.NewReader(data), "fuzz")
		var buf bytes.Buffer
		if err := WriteExport(&buf, trees, 4); unwritable(err) {
			return
		} else if err != nil {
			t.Fatalf("write: %v", err)
		}
		written := buf.String()
		back, err := ReadExport(&buf, "written")
		if err != nil {
			t.Fatalf("read back: %v\n%s", err, written)
		}
		if diff := treesEqual(back, trees, false); diff != "" {
			t.Fatalf("read back differs: %s\n%s", diff, written)
		}
		_ = WriteDiscbracket(&bytes.Buffer{}, trees) // must not panic
	})
}

// FuzzReadDiscbracket checks that reading never panics and that every
// tree read is written and read back unchanged.
func FuzzReadDiscbracket(f *testing.F) {
	f.Add([]byte("(ROOT (S (VP (VB 0=is) (JJ 2=rich)) (NP 1=John) (? 3=?)))\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		trees, readErr := ReadDiscbracket(bytes.NewReader(data), "fuzz")
		var buf bytes.Buffer
		if err := WriteDiscbracket(&buf, trees); unwritable(err) {
			return
		} else if err != nil {
			t.Fatalf("write: %v", err)
		}
		written := buf.String()
		back, err := ReadDiscbracket(&buf, "written")
		if err != nil {
			t.Fatalf("read back: %v\n%s", err, written)
		}
		// Ids are tree numbers, which change when bad lines are left out.
		if diff := treesEqual(back, trees, readErr != nil); diff != "" {
			t.Fatalf("read back differs: %s\n%s", diff, written)
		}
		_ = WriteExport(&bytes.Buffer{}, trees, 4) // must not panic
	})
}

// FuzzReadPTB checks that reading never panics and that every tree read is
// written (as discbracket, there is no PTB writer) and read back unchanged
// but for the id.
func FuzzReadPTB(f *testing.F) {
	f.Add([]byte("( (S (NP (DT the) (NN dog)) (VP (VBZ barks))) (ID a.1))\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		trees, _ := ReadPTB(bytes.NewReader(data), "fuzz")
		var buf bytes.Buffer
		if err := WriteDiscbracket(&buf, trees); unwritable(err) {
			return
		} else if err != nil {
			t.Fatalf("write: %v", err)
		}
		written := buf.String()
		back, err := ReadDiscbracket(&buf, "written")
		if err != nil {
			t.Fatalf("read back: %v\n%s", err, written)
		}
		if diff := treesEqual(back, trees, true); diff != "" {
			t.Fatalf("read back differs: %s\n%s", diff, written)
		}
		_ = WriteExport(&bytes.Buffer{}, trees, 3) // must not panic
	})
}
