package app

import (
	"bytes"
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
// discbracket or export file; sentences not parsed yet are left out and
// counted in the notice.
func (a *App) ExportAll(format string) {
	b := a.Bank
	if b == nil {
		return
	}
	var trees []*tree.Tree
	for _, p := range b.Pred {
		if p != nil {
			trees = append(trees, p.Tree)
		}
	}
	if len(trees) == 0 {
		a.noteErr("no parses yet: parse the sentences first")
		return
	}
	data, err := treesBytes(trees, format)
	a.save(fmt.Sprintf("%s.%s.%s", stem(b.Name), b.Variant, format), "text/plain", data, err)
	if err == nil && len(trees) < b.Len() {
		a.Notice += fmt.Sprintf(" (%d of %s: the others are not parsed yet)", len(trees), Count(b.Len(), "sentence"))
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
