package train

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/network"
)

// ExampleStats counts what Examples made of a treebank.
type ExampleStats struct {
	// Targets counts the constituents of the merged trees; Targets.Skipped
	// those of block degree > 2 (not trained on) and
	// Targets.SkippedSentences the sentences that have one.
	Targets tree.TargetStats `json:"targets"`
	Words   int              `json:"words"`
	// Empty counts sentences without words (left out).
	Empty int `json:"empty"`
	// Conflicts counts targets dropped because an earlier one (in
	// tree.SortLabelled order: larger first) put another label in one of
	// their score cells: discontinuous constituents with different labels
	// and the same outer extent (nested Dutch verb clusters, INF in PPART)
	// or the same gap. The score decomposition (decoder.md) cannot tell
	// them apart.
	Conflicts int `json:"conflicts"`
	// UnknownLabels counts targets whose label the vocabulary lacks (dropped);
	// UnknownTags counts sentences left without tag targets because a tag is
	// unknown. Both are 0 on the data the vocabulary was built from.
	UnknownLabels int `json:"unknown_labels"`
	UnknownTags   int `json:"unknown_tags"`
}

// SkippedLine is the report of skipped constituents printed at the start of
// training.
func (s ExampleStats) SkippedLine() string {
	return fmt.Sprintf("skipped %d constituents of block degree > %d in %d sentences",
		s.Targets.Skipped, tree.MaxTargetBlocks, s.Targets.SkippedSentences)
}

// Merge returns the trees with their unary chains merged (tree.MergeUnaries).
func Merge(trees []*tree.Tree) []*tree.Tree {
	out := make([]*tree.Tree, len(trees))
	for i, t := range trees {
		out[i] = tree.MergeUnaries(t)
	}
	return out
}

// BuildVocab builds the vocabulary from merged training trees: words seen at
// least minCount times (lower-cased), every character, the labels of the
// trainable constituents (block degree <= 2) and every POS tag, labels and
// tags in byte order.
func BuildVocab(merged []*tree.Tree, minCount int) *network.Vocab {
	sents := make([][]string, len(merged))
	tags := map[string]bool{}
	for i, t := range merged {
		sents[i] = t.Words()
		for _, tag := range t.Tags() {
			tags[tag] = true
		}
	}
	v := network.NewVocab(sents, minCount)
	for _, l := range dataLabels(merged) {
		v.AddLabel(l)
	}
	for _, t := range sortedKeys(tags) {
		v.AddTag(t)
	}
	return v
}

// dataLabels returns the labels of the trainable constituents (block
// degree <= 2) of merged trees, in byte order.
func dataLabels(merged []*tree.Tree) []string {
	labels := map[string]bool{}
	for _, t := range merged {
		cons, _ := tree.Targets(t)
		for _, c := range cons {
			labels[c.Label] = true
		}
	}
	return sortedKeys(labels)
}

// withDataLabels returns v with the labels of merged that it lacks (an
// initial model's vocabulary, written without some labels by ensemble
// --drop-labels, or trained on other data), and those labels. v's labels
// keep their order: when they are in byte order, as the trainer writes
// them, every label goes to its byte-order place, so that a model that
// left labels out gets back its training vocabulary; otherwise the new
// labels follow.
func withDataLabels(v *network.Vocab, merged []*tree.Tree) (*network.Vocab, []string, error) {
	var added []string
	for _, l := range dataLabels(merged) {
		if _, ok := v.LabelID(l); !ok {
			added = append(added, l)
		}
	}
	if len(added) == 0 {
		return v, nil, nil
	}
	labels := append(slices.Clone(v.Labels), added...)
	if slices.IsSorted(v.Labels) {
		slices.Sort(labels)
	}
	out, _, err := v.WithLabels(labels)
	if err != nil {
		return nil, nil, fmt.Errorf("train: adding the training data's labels to the initial model's: %w", err)
	}
	return out, added, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Examples turns merged trees into training examples (sentences without
// words are left out) and counts what it skipped. Cost O(sum of n²) for the
// target tensors.
func Examples(merged []*tree.Tree, v *network.Vocab) ([]network.Example, ExampleStats) {
	var st ExampleStats
	out := make([]network.Example, 0, len(merged))
	for _, t := range merged {
		if ex, ok := makeExample(t, v, &st); ok {
			out = append(out, ex)
		}
	}
	return out, st
}

// compactExamples is Examples in the sparse form the trainer keeps: each
// sentence's dense targets (3 n² ints, 2.2 MB at 300 words) are made and
// compacted one at a time, not all at once.
func compactExamples(merged []*tree.Tree, v *network.Vocab) ([]example, ExampleStats) {
	var st ExampleStats
	out := make([]example, 0, len(merged))
	for _, t := range merged {
		if ex, ok := makeExample(t, v, &st); ok {
			out = append(out, compact(ex))
		}
	}
	return out, st
}

// makeExample returns the training example of merged tree t, counting in
// st; false for a sentence without words.
func makeExample(t *tree.Tree, v *network.Vocab, st *ExampleStats) (network.Example, bool) {
	cons, _ := st.Targets.Add(t)
	n := t.Len()
	if n == 0 {
		st.Empty++
		return network.Example{}, false
	}
	st.Words += n
	ex := network.Example{Input: v.Encode(t.Words()), Targets: network.NewTargets(n)}
	for _, c := range cons {
		id, ok := v.LabelID(c.Label)
		if !ok {
			st.UnknownLabels++
			continue
		}
		if !setTarget(&ex.Targets, n, c.Blocks, id+1) {
			st.Conflicts++
		}
	}
	ex.Targets.Tags = make([]int, n)
	for i, tag := range t.Tags() {
		id, ok := v.TagID(tag)
		if !ok {
			ex.Targets.Tags = nil
			st.UnknownTags++
			break
		}
		ex.Targets.Tags[i] = id
	}
	return ex, true
}

// setTarget writes class into the cells of a constituent (model.md: a
// continuous [i,j) -> cont (i,j-1); blocks [i,k),[l,j) -> disc (i,j-1) and gap
// (k,l-1)). A cell may already hold the same class (two discontinuous
// constituents with one label and the same outer extent or gap share it);
// when a cell holds another class it reports false and writes nothing.
func setTarget(t *network.Targets, n int, blocks []tree.Span, class int) bool {
	free := func(v int) bool { return v == 0 || v == class }
	switch len(blocks) {
	case 1:
		cell := blocks[0].Start*n + blocks[0].End - 1
		if !free(t.Cont[cell]) {
			return false
		}
		t.Cont[cell] = class
	case 2:
		outer := blocks[0].Start*n + blocks[1].End - 1
		gap := blocks[0].End*n + blocks[1].Start - 1
		if !free(t.Disc[outer]) || !free(t.Gap[gap]) {
			return false
		}
		t.Disc[outer], t.Gap[gap] = class, class
	default:
		return false // not a target (tree.Targets never returns one)
	}
	return true
}

// DataStats describes the data of a run.
type DataStats struct {
	Train      ExampleStats `json:"train"`
	TrainSents int          `json:"train_sentences"`
	Repeated   int          `json:"repeated_examples,omitempty"`  // copies added by FILE*K entries, an epoch
	Excluded   int          `json:"excluded_sentences,omitempty"` // training sentences dropped as repeats of an excluded file's
	DevSents   int          `json:"dev_sentences"`
	DevWords   int          `json:"dev_words"`
	Words      int          `json:"vocab_words"`
	Chars      int          `json:"vocab_chars"`
	Labels     int          `json:"vocab_labels"`
	Tags       int          `json:"vocab_tags"`
	// AddedLabels are the training data's labels that the initial model
	// of a fine-tuning run lacked (Options.Init), added to its vocabulary.
	AddedLabels []string `json:"added_labels,omitempty"`
}

// dataset is the data of a run.
type dataset struct {
	train    []example
	devGold  []*tree.Tree // as read: evaluation wants plain trees
	devWords [][]string
	vocab    *network.Vocab
	hash     string       // of the training trees, to check a resumed run's data
	devHash  string       // of the dev trees, likewise ("" without dev data)
	teacher  teacherStats // what the teacher gave (Options.Teacher)
	stats    DataStats
	// repeats[i] is how often train[i] is seen an epoch (a list entry
	// FILE*K, see readTrainingTrees); nil when every file is read once.
	// applyRepeats turns it into copies of the examples.
	repeats []int
}

// loadData reads the treebanks and builds the examples; v, when not nil, is
// the vocabulary to use (a resumed run's, or with addLabels an initial
// model's, given the training data's labels it lacks: withDataLabels),
// else it is built from train with words seen at least minWordCount times
// (0: DefaultMinWordCount). A
// sentence of train or dev longer than maxWords (tree.CheckLength) is an
// error, found before any example is built.
func loadData(trainPath, devPath string, v *network.Vocab, addLabels bool, minWordCount, holdOut, folds, maxWords int) (*dataset, error) {
	checkFile := func(name string, trees []*tree.Tree, dropped func(*tree.Tree) bool) error {
		if err := checkLengths(name, trees, maxWords, dropped); err != nil {
			return err
		}
		return checkLabels(name, trees, dropped)
	}
	trees, repeats, excluded, err := readTrainingTrees(trainPath, checkFile)
	if err != nil {
		return nil, err
	}
	merged := Merge(trees)
	var added []string
	switch {
	case v == nil:
		v = BuildVocab(merged, cmp.Or(minWordCount, DefaultMinWordCount))
	case addLabels:
		if v, added, err = withDataLabels(v, merged); err != nil {
			return nil, err
		}
	}
	if len(v.Labels) == 0 {
		return nil, fmt.Errorf("train: %s: no constituent to learn: every sentence is flat (words under the root only), or its constituents are of block degree 3 or more, which no decoder builds", trainPath)
	}
	d := &dataset{vocab: v, hash: treesHash(trees, repeats)}
	d.stats.AddedLabels = added
	d.stats.Excluded = excluded
	d.train, d.stats.Train = compactExamples(merged, v)
	if len(d.train) == 0 {
		return nil, fmt.Errorf("train: %s: no sentence with words", trainPath)
	}
	d.repeats = exampleRepeats(merged, repeats)
	if folds > 0 {
		all, allRepeats := d.train, d.repeats
		d.train, d.repeats = nil, nil
		for i, ex := range all {
			if foldOf(i, folds) != holdOut {
				d.train = append(d.train, ex)
				if allRepeats != nil {
					d.repeats = append(d.repeats, allRepeats[i])
				}
			}
		}
		d.stats.Train.Words = 0
		for _, ex := range d.train {
			d.stats.Train.Words += ex.input.Len()
		}
		if len(d.train) == 0 {
			return nil, fmt.Errorf("train: %s: holding out fold %d of %d leaves no sentence to train on (%d in all)", trainPath, holdOut, folds, len(all))
		}
	}
	d.stats.TrainSents = len(d.train)
	if devPath != "" {
		if d.devGold, err = treebank.ReadFile(devPath); err != nil {
			return nil, fmt.Errorf("train: reading dev data: %w", err)
		}
		if len(d.devGold) == 0 {
			return nil, fmt.Errorf("train: %s: no trees in the dev data (a model is chosen by its dev F1)", devPath)
		}
		if err := checkLengths(devPath, d.devGold, maxWords, nil); err != nil {
			return nil, err
		}
		if err := checkLabels(devPath, d.devGold, nil); err != nil {
			return nil, err
		}
		d.devHash = treesHash(d.devGold, nil)
		for _, t := range d.devGold {
			d.devWords = append(d.devWords, t.Words())
			d.stats.DevWords += t.Len()
		}
		d.stats.DevSents = len(d.devGold)
	}
	d.stats.Words, d.stats.Chars, d.stats.Labels, d.stats.Tags = len(v.Words), len(v.Chars), len(v.Labels), len(v.Tags)
	return d, nil
}

// exampleRepeats returns the repeat counts of the examples Examples makes of
// merged (which leaves out sentences without words), nil when every count
// is 1.
func exampleRepeats(merged []*tree.Tree, repeats []int) []int {
	if !slices.ContainsFunc(repeats, func(k int) bool { return k > 1 }) {
		return nil
	}
	out := make([]int, 0, len(merged))
	for i, t := range merged {
		if t.Len() > 0 {
			out = append(out, repeats[i])
		}
	}
	return out
}

// applyRepeats makes each training example appear as often as its file's
// repeat count asks (FILE*K in the training list), as copies after the
// originals; the copies share the originals' targets and teacher
// distributions, so it is called once the teacher has scored. The
// vocabulary and the fingerprint were taken from the sentences read once.
func (d *dataset) applyRepeats() {
	if d.repeats == nil {
		return
	}
	for i, k := range d.repeats {
		for range k - 1 {
			d.train = append(d.train, d.train[i])
			d.stats.Repeated++
		}
	}
	d.repeats = nil
}

// checkLengths reports the first tree longer than maxWords, naming it by
// its number in trees; trees that skip (when not nil) reports are left
// out.
func checkLengths(name string, trees []*tree.Tree, maxWords int, skip func(*tree.Tree) bool) error {
	for i, t := range trees {
		if skip != nil && skip(t) {
			continue
		}
		if err := tree.CheckLength(t.Len(), maxWords); err != nil {
			return fmt.Errorf("train: %s: sentence %d (id %s): %w", name, i+1, t.ID, err)
		}
	}
	return nil
}

// checkLabels reports the first constituent whose label the parser cannot
// learn or write, naming its tree: an empty one ("--" in export and
// discbracket files), or one holding tree.ChainSep, which the parser reads
// as a unary chain ("S/NP" would come back as an S over an NP). Trees that
// skip (when not nil) reports are left out.
func checkLabels(name string, trees []*tree.Tree, skip func(*tree.Tree) bool) error {
	for i, t := range trees {
		if skip != nil && skip(t) {
			continue
		}
		for k, nd := range t.Nodes {
			switch {
			case nd.Label == "":
				return fmt.Errorf("train: %s: sentence %d (id %s): constituent %d has no label (\"--\" in the file), which a parser cannot predict or write", name, i+1, t.ID, k+1)
			case strings.Contains(nd.Label, tree.ChainSep):
				return fmt.Errorf("train: %s: sentence %d (id %s): label %q holds %q, which the parser reads as a unary chain (it would predict %s)", name, i+1, t.ID, nd.Label, tree.ChainSep, chainNote(nd.Label))
			}
		}
	}
	return nil
}

// chainNote says what a label holding tree.ChainSep would come back as.
func chainNote(label string) string {
	parts := strings.Split(label, tree.ChainSep)
	return strings.Join(parts, " over ")
}

// foldOf returns the fold (1-based) of training example i of folds.
func foldOf(i, folds int) int { return i%folds + 1 }

// heldOutNote is what a model trained without a fold adds to its
// training-data description, and what a cross-fitted teacher must show.
func heldOutNote(holdOut, folds int) string {
	return fmt.Sprintf(" without fold %d/%d", holdOut, folds)
}

// MaxRepeat is the largest K of a training list entry FILE*K.
const MaxRepeat = 100

// splitFileList splits a list of files separated by commas, unless the
// whole list names a file that exists (a path with a comma in it, as a
// server's jobs folder may have).
func splitFileList(list string) []string {
	if fi, err := os.Stat(strings.TrimSpace(list)); err == nil && !fi.IsDir() {
		return []string{list}
	}
	return strings.Split(list, ",")
}

// readTrainingTrees reads the training treebank, or several given as a
// comma-separated list (read in that order, as one treebank). A file whose
// name starts with "-" is no training data but a list of sentences to keep
// out of it: a training sentence with the very words of one of its
// sentences is dropped (to keep dev and test sentences out of extra
// training material, e.g. "train.dbr,suites.dbr,-dev.dbr,-test.dbr"). A
// name ending in *K (K from 1 to MaxRepeat) is read once but its sentences
// are trained on K times an epoch, to weight one domain against others
// ("train.dbr*2,suites.dbr"); the vocabulary counts them once.
//
// Each training file's trees are given to check (with the file's name and
// what the exclusions drop), so that a refused sentence is named by its
// file and its number there, not by its place in the list, and a
// sentence dropped is not refused. It returns the trees, each
// one's repeat count, and the number of sentences dropped.
func readTrainingTrees(list string, check func(file string, trees []*tree.Tree, dropped func(*tree.Tree) bool) error) ([]*tree.Tree, []int, int, error) {
	type fileTrees struct {
		name    string
		trees   []*tree.Tree
		k       int
		exclude bool
	}
	var files []fileTrees
	excluded := map[string]bool{}
	for _, entry := range splitFileList(list) {
		entry = strings.TrimSpace(entry)
		exclude := strings.HasPrefix(entry, "-")
		name, k, err := splitRepeat(strings.TrimPrefix(entry, "-"))
		switch {
		case err != nil:
			return nil, nil, 0, fmt.Errorf("train: training data %q: %w", list, err)
		case name == "":
			return nil, nil, 0, fmt.Errorf("train: training data %q: empty file name in the list", list)
		case exclude && k != 1:
			return nil, nil, 0, fmt.Errorf("train: training data %q: %s: a file of sentences to drop cannot be repeated", list, entry)
		}
		ts, err := treebank.ReadFile(name)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("train: reading training data: %w", err)
		}
		if len(ts) == 0 {
			return nil, nil, 0, fmt.Errorf("train: %s: no trees", name)
		}
		if exclude {
			for _, t := range ts {
				excluded[strings.Join(t.Words(), " ")] = true
			}
			continue
		}
		files = append(files, fileTrees{name: name, trees: ts, k: k})
	}
	if len(files) == 0 {
		return nil, nil, 0, fmt.Errorf("train: %q names no training file, only files to exclude", list)
	}
	dropped := func(t *tree.Tree) bool { return len(excluded) > 0 && excluded[strings.Join(t.Words(), " ")] }
	var trees []*tree.Tree
	var repeats []int
	dropCount := 0
	for _, f := range files {
		// Checked as the file holds them (numbered in it), less the
		// sentences dropped, which are never trained on.
		if err := check(f.name, f.trees, dropped); err != nil {
			return nil, nil, 0, err
		}
		for _, t := range f.trees {
			if dropped(t) {
				dropCount++
				continue
			}
			trees, repeats = append(trees, t), append(repeats, f.k)
		}
	}
	return trees, repeats, dropCount, nil
}

// splitRepeat splits a training list entry "FILE*K" into the file and K; an
// entry without a "*" followed by digits is a file read once.
func splitRepeat(entry string) (string, int, error) {
	star := strings.LastIndexByte(entry, '*')
	digits := entry[star+1:]
	if star < 0 || digits == "" || strings.Trim(digits, "0123456789") != "" {
		return entry, 1, nil
	}
	k, err := strconv.Atoi(digits)
	if err != nil || k < 1 || k > MaxRepeat {
		return "", 0, fmt.Errorf("%s: repeat count %s is not from 1 to %d", entry, digits, MaxRepeat)
	}
	return entry[:star], k, nil
}
