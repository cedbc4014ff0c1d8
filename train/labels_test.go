package train

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discspan/discspan/weights"
)

// TestUnlearnableData: training data whose constituents a parser cannot
// predict or write are refused before training, naming the file, the
// sentence and the label: an empty label ("--"), which used to enter the
// vocabulary and stop the run at a later epoch's dev parse, a label
// holding "/", which the parser reads as a unary chain (dev F1 stayed 0),
// and data with no constituent at all ("labels = 0" of the network's
// config named no file). A sentence of a --train list is named by its
// file and its number in that file.
func TestUnlearnableData(t *testing.T) {
	dir := t.TempDir()
	good := "(ROOT (NP (DT 0=the) (NN 1=dog)) (VB 2=runs))\n"
	for _, tc := range []struct {
		name, train, dev, want string
	}{
		{"empty label", good + "(ROOT (-- (DT 0=a) (NN 1=cat)) (VB 2=sleeps))\n", good,
			`empty label.discbracket: sentence 2 (id 2): constituent 1 has no label ("--" in the file)`},
		{"label with a slash", good + "(ROOT (S/NP (DT 0=a) (NN 1=cat)) (VB 2=sleeps))\n", good,
			`label "S/NP" holds "/", which the parser reads as a unary chain (it would predict S over NP)`},
		{"empty label in dev", good, good + "(ROOT (-- (DT 0=a) (NN 1=cat)) (VB 2=sleeps))\n",
			`dev.discbracket: sentence 2 (id 2): constituent 1 has no label`},
		{"no constituent", "(ROOT (DT 0=the) (NN 1=dog))\n(ROOT (VB 0=runs))\n", good,
			"no constituent to learn"},
		// The second file of a list: its own name and its own count.
		{"second file of a list", good + good, good,
			`extra.discbracket: sentence 1 (id 1): constituent 1 has no label`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			train := filepath.Join(dir, tc.name+".discbracket")
			dev := filepath.Join(dir, "dev.discbracket")
			for path, text := range map[string]string{train: tc.train, dev: tc.dev} {
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			o := resumeOptions(t, train, dir)
			o.Dev, o.Epochs = dev, 1
			if tc.name == "second file of a list" {
				extra := filepath.Join(dir, "extra.discbracket")
				if err := os.WriteFile(extra, []byte("(ROOT (-- (DT 0=a) (NN 1=cat)) (VB 2=sleeps))\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				o.Train = train + "," + extra
			}
			_, err := Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if _, err := os.Stat(o.Out); err == nil {
				t.Error("a model was written")
			}
		})
	}
}

// TestFileNameNotUTF8: a training file whose name is not UTF-8 (another
// encoding's) gives a model whose card names it with U+FFFD; the write
// used to fail after the first epoch, and again on every --resume.
func TestFileNameNotUTF8(t *testing.T) {
	dir := t.TempDir()
	data := shortSentences(t, dir, 20, 10)
	odd := filepath.Join(dir, "bad\xffname.discbracket")
	if err := os.Rename(data, odd); err != nil {
		t.Skipf("this file system takes no such name: %v", err)
	}
	o := resumeOptions(t, odd, dir)
	o.Epochs = 1
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	meta, err := weights.ReadMeta(o.Out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "bad\uFFFDname.discbracket"; meta.Meta.TrainingData != want {
		t.Errorf("training data %q, want %q", meta.Meta.TrainingData, want)
	}
}

// A sentence the parser could not learn, in a training file, is no error
// when the list drops it (a "-FILE" entry holds its words): it is never
// trained on.
func TestUnlearnableDataDropped(t *testing.T) {
	dir := t.TempDir()
	good := "(ROOT (NP (DT 0=the) (NN 1=dog)) (VB 2=runs))\n"
	bad := "(ROOT (-- (DT 0=a) (NN 1=cat)) (VB 2=sleeps))\n"
	files := map[string]string{"train.discbracket": good + bad, "drop.discbracket": bad, "dev.discbracket": good}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := resumeOptions(t, filepath.Join(dir, "train.discbracket")+",-"+filepath.Join(dir, "drop.discbracket"), dir)
	o.Dev, o.Epochs = filepath.Join(dir, "dev.discbracket"), 1
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatalf("training with the unlearnable sentence dropped: %v", err)
	}
}
