package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/parser"
)

// ms formats a duration in milliseconds, with one decimal below 10 ms.
func ms(d time.Duration) string {
	f := float64(d) / float64(time.Millisecond)
	if f < 10 {
		return fmt.Sprintf("%.1f ms", f)
	}
	return fmt.Sprintf("%.0f ms", f)
}

// MS formats nanoseconds as milliseconds (for the components).
func MS(ns int64) string { return ms(time.Duration(ns)) }

// Bytes formats a byte count in KB or MB (powers of 1000).
func Bytes(n int64) string {
	switch {
	case n < 0:
		return "?"
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.0f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// BlocksString writes blocks as "[i,j)" or "[i,k)+[l,j)" (interstice
// indices, as tree.Labelled writes them).
func BlocksString(blocks []tree.Span) string {
	parts := make([]string, len(blocks))
	for i, b := range blocks {
		parts[i] = fmt.Sprintf("[%d,%d)", b.Start, b.End)
	}
	return strings.Join(parts, "+")
}

// Count writes n and the noun, in the plural (noun + "s") unless n is 1:
// "1 constituent", "3 constituents", "0 words".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// MemoryText says how much memory the page and the threads holding the
// model take (page, then parser.Info.Memory and MemberMemory; for an
// ensemble, how many of its models the parsing worker holds), "" when the
// workers' is not known (natively, or parsing in the page, whose memory
// then holds the model).
func MemoryText(info *parser.Info, page int64) string {
	if info == nil || info.Memory <= 0 {
		return ""
	}
	var parts []string
	var total int64
	if page > 0 {
		parts = append(parts, "page "+Bytes(page))
		total += page
	}
	worker := "parsing worker " + Bytes(info.Memory)
	if info.Models > 1 && info.LocalModels > 0 {
		worker += fmt.Sprintf(" (holds %d of the %d models)", info.LocalModels, info.Models)
	}
	parts = append(parts, worker)
	total += info.Memory
	for k, m := range info.MemberMemory {
		parts = append(parts, fmt.Sprintf("model %d's worker %s", k+2, Bytes(m)))
		total += m
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return fmt.Sprintf("%s in all: %s", Bytes(total), strings.Join(parts, ", "))
}

// PageMemory is the page's own memory (Platform.Memory), 0 when unknown.
func (a *App) PageMemory() int64 { return a.plat.Memory() }
