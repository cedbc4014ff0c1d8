package train

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
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
	if err := treebank.WriteFile(part, devTrees[:30]); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		list        string
		wantTrees   int
		wantDropped int
		wantErr     string
	}{
		{"one file", dev, len(devTrees), 0, ""},
		{"two files in order", dev + "," + qa, len(devTrees) + len(qaTrees), 0, ""},
		{"excluded part", dev + ",-" + part, len(devTrees) - 30, 30, ""},
		{"nothing but exclusions", "-" + dev, 0, 0, "names no training file"},
		{"empty name", dev + ",", 0, 0, "empty file name"},
		{"missing file", dev + "," + filepath.Join(dir, "absent.dbr"), 0, 0, "absent.dbr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			trees, dropped, err := readTrainingTrees(tt.list)
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
		})
	}
}

// TestMinWordCount checks that a larger threshold gives a smaller word
// vocabulary, every word of it seen that often.
func TestMinWordCount(t *testing.T) {
	dev := needData(t, "dev.punctmoved.discbracket")
	counts := map[int]int{}
	for _, threshold := range []int{0, 2, 3} {
		d, err := loadData(dev, "", nil, threshold, 0, 0, 0)
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
	}
	for _, tt := range tests {
		if got := describeTrainingList(tt.list); got != tt.want {
			t.Errorf("describeTrainingList(%q) = %q, want %q", tt.list, got, tt.want)
		}
	}
}
