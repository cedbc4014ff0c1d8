package components

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/discspan/discspan/annotate"
	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu"
)

// AnnotateCorpus is the corpus view of the annotation tab: import a
// treebank with progress, the sentences with their status, pre-annotation
// with the model, export, search, consistency search, a second file of the
// same sentences to compare with (its corpus score), and the diff of two
// analyses of the current sentence.
type AnnotateCorpus struct {
	App *app.App
}

func (c *AnnotateCorpus) importDone() string {
	if c.App.Annotate.Import.Done {
		return "1"
	}
	return "0"
}

// importState describes the import.
func (c *AnnotateCorpus) importState() string {
	p := c.App.Annotate.Import
	skipped := ""
	if p.Skipped != "" {
		skipped = "; " + p.Skipped
	}
	switch {
	case p.Err != "" && strings.HasPrefix(p.Err, p.Name+":"):
		return p.Err
	case p.Err != "":
		return p.Name + ": " + p.Err
	case p.Waiting:
		return fmt.Sprintf("%s: %s read, waiting: replace the open corpus?%s", p.Name, app.Count(p.Sentences, "sentence"), skipped)
	case p.Done && p.Second:
		return fmt.Sprintf("%s: %s imported as the second file%s", p.Name, app.Count(p.Sentences, "sentence"), skipped)
	case p.Done:
		return fmt.Sprintf("%s: %s imported%s", p.Name, app.Count(p.Sentences, "sentence"), skipped)
	}
	return fmt.Sprintf("%s: %s read (%d%%)", p.Name, app.Count(p.Sentences, "sentence"), p.Percent())
}

// otherScore describes the corpus-level score of the second file.
func (c *AnnotateCorpus) otherScore() string {
	sc := c.App.Annotate.OtherScore
	if sc.Err != "" {
		return "cannot compare: " + sc.Err
	}
	out := fmt.Sprintf("%s against %s: F1 %.2f (P %.2f, R %.2f; %d matching, %d in the first, %d in the second) over %s",
		sc.Name, sc.Against, sc.F1, sc.Precision, sc.Recall, sc.Matched, sc.Gold, sc.Test, app.Count(sc.Sentences, "sentence"))
	if sc.Mismatched > 0 {
		out += fmt.Sprintf("; %s left out because their words differ, first %s", app.Count(sc.Mismatched, "sentence"), sc.Mismatch)
	}
	return out
}

// otherF1 is the second file's corpus F1 for the data-f1 attribute ("" when
// it could not be compared).
func (c *AnnotateCorpus) otherF1() string {
	if sc := c.App.Annotate.OtherScore; sc.Err == "" {
		return fmt.Sprintf("%.2f", sc.F1)
	}
	return ""
}

// counts is the number of sentences per status.
func (c *AnnotateCorpus) counts() string {
	n := c.App.AnnCounts()
	return fmt.Sprintf("%s: %d untouched, %d pre-annotated, %d checked", app.Count(n[0]+n[1]+n[2], "sentence"), n[0], n[1], n[2])
}

// lastPage reports whether the list shows the corpus's last sentences.
func (c *AnnotateCorpus) lastPage() bool {
	a := &c.App.Annotate
	return a.ListFrom+app.ListRows >= len(a.Corpus.Sentences)
}

// rowLabel names a row's button for screen readers.
func (c *AnnotateCorpus) rowLabel(i int) string { return "open sentence " + strconv.Itoa(i+1) }

// rowCurrent marks the row of the sentence shown.
func (c *AnnotateCorpus) rowCurrent(i int) string { return trueIf(i == c.App.Annotate.Index) }

func (c *AnnotateCorpus) rowClass(i int) string {
	if i == c.App.Annotate.Index {
		return "on"
	}
	return ""
}

// words is the beginning of a sentence.
func (c *AnnotateCorpus) words(s *annotate.Sentence) string {
	w := s.Tree().Words()
	if len(w) > 12 {
		return strings.Join(w[:12], " ") + " …"
	}
	return strings.Join(w, " ")
}

// open shows a search hit's sentence.
func (c *AnnotateCorpus) open(event vugu.DOMEvent, i int) {
	event.PreventDefault()
	c.App.AnnGo(i)
}

// queryKey searches on Enter.
func (c *AnnotateCorpus) queryKey(event vugu.DOMEvent) {
	if event.PropString("key") == "Enter" {
		c.App.AnnSetQuery(event.PropString("target", "value"))
		c.App.AnnSearch()
	}
}

// diffScore is the diff's F1 with precision and recall.
func (c *AnnotateCorpus) diffScore() string {
	d := c.App.Annotate.Diff
	return fmt.Sprintf("F1 %.1f (P %.1f, R %.1f): %d matching, %d only in %s, %d only in %s",
		d.F1, d.Precision, d.Recall, d.Matched, d.OnlyA, d.A.Title, d.OnlyB, d.B.Title)
}
