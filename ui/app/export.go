package app

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// Export formats.
const (
	FormatDiscbracket = "discbracket"
	FormatExport      = "export"
	FormatSVG         = "svg"
	FormatPNG         = "png"
)

// pngScale is the resolution of PNG exports relative to the screen.
const pngScale = 2

// treesBytes writes trees as a discbracket or export (version 4) file.
func treesBytes(trees []*tree.Tree, format string) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	switch format {
	case FormatDiscbracket:
		err = treebank.WriteDiscbracket(&buf, trees)
	case FormatExport:
		err = treebank.WriteExport(&buf, trees, 4)
	default:
		return nil, fmt.Errorf("cannot write trees as %q", format)
	}
	return buf.Bytes(), err
}

// ExportView offers the tree of a view as a file: discbracket, export,
// SVG or PNG.
func (a *App) ExportView(id, format string) {
	v := a.view(id)
	if v == nil || v.Tree == nil {
		a.noteErr("nothing to export")
		return
	}
	base := "discspan-" + id
	if v.Parse != nil {
		base += "-" + v.Parse.Variant
	}
	if a.Tab == TabTreebank && a.Bank != nil {
		base = fmt.Sprintf("%s-%d-%s", stem(a.Bank.Name), a.Bank.Index+1, id)
	}
	switch format {
	case FormatSVG:
		a.save(base+".svg", "image/svg+xml", []byte(v.SVG), nil)
	case FormatPNG:
		svg, w, h := v.SVG, v.Width, v.Height
		a.note("drawing the PNG…")
		go func() {
			b, err := a.plat.PNG(svg, w, h, pngScale)
			a.update(func() { a.save(base+".png", "image/png", b, err) })
		}()
	default:
		b, err := treesBytes([]*tree.Tree{v.Tree}, format)
		a.save(base+"."+format, "text/plain", b, err)
	}
}

// ExportAll offers every parse of the treebank (in sentence order) as a
// discbracket or export file, as discspan parse writes one for the same
// file, so that discspan eval scores it against the file: a sentence that
// could not be parsed (too long) gets a flat tree (tree.NoParse), and in
// discbracket a sentence that could not be read, or whose parse the format
// cannot hold, a blank line. Sentences not parsed yet are left out; the
// notice counts what was left out or written flat.
func (a *App) ExportAll(format string) {
	b := a.Bank
	if b == nil {
		return
	}
	var f treebank.Format
	switch format {
	case FormatDiscbracket:
		f = treebank.Discbracket
	case FormatExport:
		f = treebank.Export
	default:
		a.noteErr(fmt.Sprintf("cannot write trees as %q", format))
		return
	}
	if b.Parsed == 0 && b.Refused() == 0 {
		a.noteErr("no parses yet: parse the sentences first")
		return
	}
	var buf bytes.Buffer
	w := treebank.NewWriter(&buf, f)
	defer w.Discard()
	var notParsed, flat, unwritable int
	var firstUnwritable string
	skipped := b.skipped
	blanks := func(upTo int) error { // the unreadable trees before sentence upTo
		for len(skipped) > 0 && skipped[0] <= upTo {
			skipped = skipped[1:]
			if err := w.Blank(); err != nil {
				return err
			}
		}
		return nil
	}
	err := func() error {
		for i, gold := range b.Gold {
			if err := blanks(i); err != nil {
				return err
			}
			t := (*tree.Tree)(nil)
			switch p := b.Pred[i]; {
			case p != nil:
				t = p.Tree
			case b.tooLong[i]:
				t = tree.NoParse(gold.Words())
				t.ID = gold.ID
				flat++
			default:
				notParsed++
				continue
			}
			err := w.Write(t)
			var we *treebank.WriteError
			if errors.As(err, &we) {
				unwritable++
				if firstUnwritable == "" {
					firstUnwritable = fmt.Sprintf("sentence %d: %v", i+1, we.Err)
				}
				err = w.Blank()
			}
			if err != nil {
				return err
			}
		}
		if err := blanks(len(b.Gold)); err != nil {
			return err
		}
		return w.Flush()
	}()
	a.save(fmt.Sprintf("%s.%s.%s", stem(b.Name), b.Variant, format), "text/plain", buf.Bytes(), err)
	if err != nil {
		return
	}
	var notes []string
	if notParsed > 0 {
		notes = append(notes, fmt.Sprintf("%d of %s not parsed yet, left out", notParsed, Count(b.Len(), "sentence")))
	}
	if flat > 0 {
		notes = append(notes, fmt.Sprintf("%s that could not be parsed written flat (NOPARSE)", Count(flat, "sentence")))
	}
	if unwritable > 0 {
		notes = append(notes, fmt.Sprintf("%s left out that %s cannot hold (%s)", Count(unwritable, "parse"), format, firstUnwritable))
	}
	if len(notes) > 0 {
		a.Notice += " (" + strings.Join(notes, "; ") + ")"
	}
}

// save offers data as a file, or reports err; the caller holds the lock.
func (a *App) save(name, mime string, data []byte, err error) {
	if err == nil {
		err = a.plat.Save(name, mime, data)
	}
	if err != nil {
		a.noteErr("export failed: " + err.Error())
		return
	}
	a.note(fmt.Sprintf("saved %s (%s)", name, Bytes(int64(len(data)))))
}

// stem is a file name without directory and extension.
func stem(name string) string {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	return strings.TrimSuffix(base, path.Ext(base))
}
