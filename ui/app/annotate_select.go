package app

import "slices"

// selBlock is one block of a word selection: the words between Anchor and
// Cursor, both included, in either order.
type selBlock struct{ Anchor, Cursor int }

func (b selBlock) lo() int { return min(b.Anchor, b.Cursor) }
func (b selBlock) hi() int { return max(b.Anchor, b.Cursor) }

// Selection is the annotator's word selection in a sentence of N words:
// one block, or two (a constituent with a gap), each between an anchor and
// a cursor; the last block is the active one, and its cursor is the word
// cursor. It is never empty while the sentence has words.
type Selection struct {
	N      int
	blocks []selBlock
}

// NewSelection returns the selection of the first word of an n-word
// sentence.
func NewSelection(n int) Selection {
	s := Selection{N: n}
	if n > 0 {
		s.blocks = []selBlock{{0, 0}}
	}
	return s
}

// Cursor returns the word cursor (-1 without words).
func (s *Selection) Cursor() int {
	if len(s.blocks) == 0 {
		return -1
	}
	return s.blocks[len(s.blocks)-1].Cursor
}

// Second reports whether the selection has a second block.
func (s *Selection) Second() bool { return len(s.blocks) == 2 }

func (s *Selection) clamp(i int) int { return min(max(i, 0), s.N-1) }

// Move moves the cursor by d words (clamped); with extend the active
// block grows or shrinks to the cursor, else it becomes the cursor's word.
func (s *Selection) Move(d int, extend bool) {
	s.MoveTo(s.Cursor()+d, extend)
}

// MoveTo puts the cursor on word i (clamped), extending the active block
// or not as Move does.
func (s *Selection) MoveTo(i int, extend bool) {
	if len(s.blocks) == 0 {
		return
	}
	b := &s.blocks[len(s.blocks)-1]
	b.Cursor = s.clamp(i)
	if !extend {
		b.Anchor = b.Cursor
	}
}

// Click selects word i alone (a plain click).
func (s *Selection) Click(i int) {
	if s.N == 0 {
		return
	}
	i = s.clamp(i)
	s.blocks = []selBlock{{i, i}}
}

// ShiftClick extends the active block to word i.
func (s *Selection) ShiftClick(i int) { s.MoveTo(i, true) }

// CtrlClick starts (or restarts) the second block at word i.
func (s *Selection) CtrlClick(i int) {
	if len(s.blocks) == 0 {
		return
	}
	i = s.clamp(i)
	s.blocks = append(s.blocks[:1], selBlock{i, i})
}

// ToggleSecond starts a second block, two words after the first (leaving
// a gap of one word) or at the cursor when there is no room; with a second
// block already, it drops it.
func (s *Selection) ToggleSecond() {
	switch len(s.blocks) {
	case 0:
		return
	case 2:
		s.blocks = s.blocks[:1]
		return
	}
	i := s.blocks[0].hi() + 2
	if i >= s.N {
		i = s.Cursor()
	}
	s.blocks = append(s.blocks, selBlock{i, i})
}

// Collapse keeps only the cursor's word.
func (s *Selection) Collapse() {
	if c := s.Cursor(); c >= 0 {
		s.blocks = []selBlock{{c, c}}
	}
}

// SetWords selects the given sorted positions (a node's words): the first
// block of them, and the last one as the second block when there are
// several; the cursor goes to the last word.
func (s *Selection) SetWords(pos []int) {
	if len(pos) == 0 || s.N == 0 {
		return
	}
	first, last := pos[0], pos[len(pos)-1]
	end := first
	for end+1 < len(pos)+first && slices.Contains(pos, end+1) {
		end++
	}
	s.blocks = []selBlock{{first, end}}
	if end != last {
		start := last
		for start-1 > end && slices.Contains(pos, start-1) {
			start--
		}
		s.blocks = append(s.blocks, selBlock{start, last})
	}
}

// Words returns the selected word positions, sorted and distinct.
func (s *Selection) Words() []int {
	var out []int
	for _, b := range s.blocks {
		for i := b.lo(); i <= b.hi(); i++ {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Has reports whether word i is selected.
func (s *Selection) Has(i int) bool {
	for _, b := range s.blocks {
		if i >= b.lo() && i <= b.hi() {
			return true
		}
	}
	return false
}
