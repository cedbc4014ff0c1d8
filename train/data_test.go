package train

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/bankfile"
	"github.com/discspan/discspan/network"
)

// TestSkippedCountDev checks the skipped-constituent count on the real dev
// file against tree.CountTargets.
func TestSkippedCountDev(t *testing.T) {
	trees, err := treebank.ReadFile(needData(t, "dev.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	merged := Merge(trees)
	want := tree.CountTargets(merged)
	_, got := Examples(merged, BuildVocab(merged, 2))
	if got.Targets != want {
		t.Errorf("Examples counted %+v, CountTargets %+v", got.Targets, want)
	}
	if want.Skipped == 0 || want.SkippedSentences == 0 {
		t.Errorf("no skipped constituents in dev: %+v", want)
	}
	if got.UnknownLabels != 0 || got.UnknownTags != 0 || got.Empty != 0 {
		t.Errorf("unexpected counts %+v", got)
	}
	t.Logf("%s; %d conflicting targets", got.SkippedLine(), got.Conflicts)
	if line := got.SkippedLine(); !strings.HasPrefix(line, "skipped ") || !strings.Contains(line, "block degree > 2") {
		t.Errorf("line %q", line)
	}
}

func TestExamplesTargets(t *testing.T) {
	// (ROOT (S (VP (X (a 0=w0) (a 2=w2)) (NP (b 1=w1)) (c 3=w3)))) plus a
	// node of block degree 3.
	trees, err := treebank.ReadAll(strings.NewReader(
		"(ROOT (S (VP (X (a 0=w0) (a 2=w2)) (NP (b 1=w1)) (c 3=w3))))\n"+
			"(ROOT (Y (a 0=w0) (a 2=w2) (a 4=w4)) (b 1=w1) (b 3=w3))\n"), "test", treebank.Discbracket)
	if err != nil {
		t.Fatal(err)
	}
	merged := Merge(trees)
	v := BuildVocab(merged, 1)
	if got, want := v.Labels, []string{"NP", "S/VP", "X"}; !slices.Equal(got, want) {
		t.Errorf("labels %v, want %v (Y has block degree 3)", got, want)
	}
	if got, want := v.Tags, []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("tags %v, want %v", got, want)
	}
	exs, st := Examples(merged, v)
	if st.Targets.Skipped != 1 || st.Targets.SkippedSentences != 1 || st.Conflicts != 0 {
		t.Errorf("stats %+v", st)
	}
	id := func(l string) int { i, _ := v.LabelID(l); return i + 1 }
	n := 4
	want := network.NewTargets(n)
	want.Cont[0*n+3] = id("S/VP")
	want.Cont[1*n+1] = id("NP")
	want.Disc[0*n+2] = id("X")
	want.Gap[1*n+1] = id("X")
	want.Tags = []int{0, 1, 0, 2}
	got := exs[0].Targets
	if !slices.Equal(got.Cont, want.Cont) || !slices.Equal(got.Disc, want.Disc) || !slices.Equal(got.Gap, want.Gap) || !slices.Equal(got.Tags, want.Tags) {
		t.Errorf("targets %+v, want %+v", got, want)
	}
	if got := exs[1].Targets; slices.Max(got.Cont) != 0 || slices.Max(got.Disc) != 0 {
		t.Errorf("sentence 2 has targets %+v", got)
	}
}

func TestMakeBatches(t *testing.T) {
	lengths := []int{5, 3, 9, 1, 20, 7, 7, 2, 4, 30, 6, 6}
	const maxWords = 12
	b1 := makeBatches(lengths, maxWords, 1, 0)
	if !slices.EqualFunc(b1, makeBatches(lengths, maxWords, 1, 0), slices.Equal) {
		t.Error("not deterministic")
	}
	if slices.EqualFunc(b1, makeBatches(lengths, maxWords, 1, 1), slices.Equal) && slices.EqualFunc(b1, makeBatches(lengths, maxWords, 2, 0), slices.Equal) {
		t.Error("same batches for other epochs and seeds")
	}
	seen := make([]int, len(lengths))
	for _, b := range b1 {
		words := 0
		for _, i := range b {
			seen[i]++
			words += lengths[i]
		}
		if words > maxWords && len(b) > 1 {
			t.Errorf("batch %v has %d words", b, words)
		}
	}
	for i, c := range seen {
		if c != 1 {
			t.Errorf("sentence %d in %d batches", i, c)
		}
	}
	// Grouped by length: the length ranges of the batches do not overlap.
	type span struct{ lo, hi int }
	var spans []span
	for _, b := range b1 {
		s := span{1 << 30, 0}
		for _, i := range b {
			s.lo, s.hi = min(s.lo, lengths[i]), max(s.hi, lengths[i])
		}
		spans = append(spans, s)
	}
	slices.SortFunc(spans, func(a, b span) int { return a.lo - b.lo })
	for k := 1; k < len(spans); k++ {
		if spans[k].lo < spans[k-1].hi {
			t.Errorf("length ranges overlap: %v", spans)
		}
	}
}

func TestCompactRoundTrip(t *testing.T) {
	trees, err := treebank.ReadFile(needData(t, "dev.punctmoved.discbracket"))
	if err != nil {
		t.Fatal(err)
	}
	merged := Merge(trees)
	exs, _ := Examples(merged, BuildVocab(merged, 2))
	for i, ex := range exs {
		c := compact(ex)
		got := c.dense()
		if !slices.Equal(got.Targets.Cont, ex.Targets.Cont) || !slices.Equal(got.Targets.Disc, ex.Targets.Disc) ||
			!slices.Equal(got.Targets.Gap, ex.Targets.Gap) || !slices.Equal(got.Targets.Tags, ex.Targets.Tags) ||
			!slices.Equal(got.Input.WordIDs, ex.Input.WordIDs) {
			t.Fatalf("sentence %d: targets differ after compact/dense", i)
		}
	}
}

// TestReadTrainingTreesList checks the list form of --train on the real
// suites: files read in order as one treebank, excluded files' sentences
// dropped, and the errors of malformed lists.
func TestReadTrainingTreesList(t *testing.T) {
	dev := needData(t, "dev.punctmoved.discbracket")
	qa := filepath.Join(dataDir, "../alpino-suites/qa.punctmoved.discbracket")
	if _, err := os.Stat(qa); err != nil {
		t.Skipf("alpino-suites absent (%v): skipping", err)
	}
	devTrees, err := treebank.ReadFile(dev)
	if err != nil {
		t.Fatal(err)
	}
	qaTrees, err := treebank.ReadFile(qa)
	if err != nil {
		t.Fatal(err)
	}
	// A file made of dev's first 30 sentences: they must all be dropped
	// from a list that has dev itself, once excluded.
	dir := t.TempDir()
	part := filepath.Join(dir, "part.discbracket")
	if err := bankfile.Write(part, devTrees[:30], bankfile.Options{}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		list        string
		wantTrees   int
		wantDropped int
		wantRepeats int // the sum of the trees' repeat counts
		wantErr     string
	}{
		{"one file", dev, len(devTrees), 0, len(devTrees), ""},
		{"two files in order", dev + "," + qa, len(devTrees) + len(qaTrees), 0, len(devTrees) + len(qaTrees), ""},
		{"excluded part", dev + ",-" + part, len(devTrees) - 30, 30, len(devTrees) - 30, ""},
		{"a file repeated", dev + "*3," + qa, len(devTrees) + len(qaTrees), 0, 3*len(devTrees) + len(qaTrees), ""},
		{"a repeated file's excluded part", part + "*2," + dev + "*1,-" + part, len(devTrees) - 30, 60, len(devTrees) - 30, ""},
		{"nothing but exclusions", "-" + dev, 0, 0, 0, "names no training file"},
		{"empty name", dev + ",", 0, 0, 0, "empty file name"},
		{"empty name repeated", "*2," + dev, 0, 0, 0, "empty file name"},
		{"missing file", dev + "," + filepath.Join(dir, "absent.dbr"), 0, 0, 0, "absent.dbr"},
		{"repeat count 0", dev + "*0", 0, 0, 0, "repeat count 0 is not from 1 to 100"},
		{"repeat count too large", dev + "*101", 0, 0, 0, "repeat count 101 is not from 1 to 100"},
		{"an exclusion repeated", dev + ",-" + part + "*2", 0, 0, 0, "cannot be repeated"},
		{"a star not followed by digits is part of the name", dev + "*x", 0, 0, 0, "*x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			trees, repeats, dropped, err := readTrainingTrees(tt.list, func(string, []*tree.Tree, func(*tree.Tree) bool) error { return nil })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(trees) != tt.wantTrees || dropped != tt.wantDropped {
				t.Errorf("got %d trees, %d dropped; want %d, %d", len(trees), dropped, tt.wantTrees, tt.wantDropped)
			}
			sum := 0
			for _, k := range repeats {
				sum += k
			}
			if len(repeats) != len(trees) || sum != tt.wantRepeats {
				t.Errorf("got %d repeat counts summing to %d; want %d summing to %d", len(repeats), sum, len(trees), tt.wantRepeats)
			}
		})
	}
}

// TestMinWordCount checks that a larger threshold gives a smaller word
// vocabulary, every word of it seen that often.
func TestMinWordCount(t *testing.T) {
	dev := needData(t, "dev.punctmoved.discbracket")
	counts := map[int]int{}
	for _, threshold := range []int{0, 2, 3} {
		d, err := loadData(dev, "", nil, false, threshold, 0, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		counts[threshold] = d.stats.Words
	}
	if counts[0] != counts[DefaultMinWordCount] {
		t.Errorf("threshold 0 gave %d words, the default %d", counts[0], counts[DefaultMinWordCount])
	}
	if counts[3] >= counts[2] {
		t.Errorf("threshold 3 gave %d words, threshold 2 %d: want fewer", counts[3], counts[2])
	}
}

func TestDescribeTrainingList(t *testing.T) {
	tests := []struct{ list, want string }{
		{"../data/train.dbr", "train.dbr"},
		{"a/train.dbr,b/qa.dbr", "train.dbr + qa.dbr"},
		{"a/train.dbr,b/qa.dbr,-a/dev.dbr,-a/test.dbr", "train.dbr + qa.dbr, without the sentences of dev.dbr, test.dbr"},
		{"a/train.dbr*2,b/qa.dbr*1,-a/dev.dbr", "train.dbr (x2) + qa.dbr, without the sentences of dev.dbr"},
	}
	for _, tt := range tests {
		if got := describeTrainingList(tt.list); got != tt.want {
			t.Errorf("describeTrainingList(%q) = %q, want %q", tt.list, got, tt.want)
		}
	}
}

// TestRepeatedFile checks FILE*K on real data: the vocabulary and the
// examples are those of the file read once, an epoch holds each of the
// repeated file's examples K times (the copies equal to their originals),
// the fingerprint tells the weighting apart (so a resumed run cannot change
// it) and a held-out fold keeps the counts of the sentences it keeps.
func TestRepeatedFile(t *testing.T) {
	dev := needData(t, "dev.punctmoved.discbracket")
	part := filepath.Join(t.TempDir(), "part.discbracket")
	devTrees, err := treebank.ReadFile(dev)
	if err != nil {
		t.Fatal(err)
	}
	if err := bankfile.Write(part, devTrees[:40], bankfile.Options{}); err != nil {
		t.Fatal(err)
	}
	load := func(list string, folds int) *dataset {
		t.Helper()
		holdOut := 0
		if folds > 0 {
			holdOut = 1
		}
		d, err := loadData(list, "", nil, false, 0, holdOut, folds, 0)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	once := load(dev+","+part, 0)
	once.applyRepeats()
	tests := []struct {
		name       string
		list       string
		folds      int
		wantCopies int
		sameHash   bool
	}{
		{"no counts", dev + "," + part, 0, 0, true},
		{"counts of 1", dev + "*1," + part + "*1", 0, 0, true},
		{"the part three times", dev + "," + part + "*3", 0, 80, false},
		{"dev twice", dev + "*2," + part, 0, len(devTrees), false},
		{"the part twice, fold 1 of 2 held out", dev + "," + part + "*2", 2, 20, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := load(tt.list, tt.folds)
			if !reflect.DeepEqual(d.vocab, once.vocab) {
				t.Errorf("vocabulary differs from that of the files read once: %d words against %d", len(d.vocab.Words), len(once.vocab.Words))
			}
			if (d.hash == once.hash) != tt.sameHash {
				t.Errorf("fingerprint equal to the unweighted list's: %v, want %v", d.hash == once.hash, tt.sameHash)
			}
			before := len(d.train)
			d.applyRepeats()
			if got := len(d.train) - before; got != tt.wantCopies || d.stats.Repeated != tt.wantCopies {
				t.Fatalf("%d copies added (stats: %d), want %d", got, d.stats.Repeated, tt.wantCopies)
			}
			if tt.folds == 0 {
				// The originals come first, in the order of the list.
				if !reflect.DeepEqual(d.train[:before], once.train) {
					t.Errorf("the examples read once differ from the unweighted list's")
				}
			}
			for _, c := range d.train[before:] {
				if !slices.ContainsFunc(d.train[:before], func(o example) bool { return reflect.DeepEqual(o, c) }) {
					t.Fatalf("a copy (%d words) equals no original", c.input.Len())
				}
			}
			d.applyRepeats() // a second call adds nothing
			if len(d.train) != before+tt.wantCopies {
				t.Errorf("a second applyRepeats added %d more", len(d.train)-before-tt.wantCopies)
			}
		})
	}
}
