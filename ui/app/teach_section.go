package app

// The sections of the teaching tab (TeachState.Section). One is shown at a
// time, and what it shows is computed when it is first shown (the
// gallery's drawings, the comparison of the variants): the page then
// renders and lays out only that section, so that the tab opens at once
// and the stepper's steps re-render only the stepper
// (with every section shown, each step rebuilt some 1300 elements of the
// page, and the first opening looked up fonts for all of them).
const (
	TeachSectionStepper   = "stepper"
	TeachSectionRules     = "rules"
	TeachSectionVariants  = "variants"
	TeachSectionGallery   = "gallery"
	TeachSectionExercises = "exercises"
)

// TeachSection names a section of the teaching tab for its menu.
type TeachSection struct {
	ID, Name string
	On       bool
}

// TeachSections lists the sections of the teaching tab, the one shown On.
func (a *App) TeachSections() []TeachSection {
	out := []TeachSection{
		{ID: TeachSectionStepper, Name: "Chart stepper"},
		{ID: TeachSectionRules, Name: "Deduction rules"},
		{ID: TeachSectionVariants, Name: "What each variant builds"},
		{ID: TeachSectionGallery, Name: "Gallery"},
		{ID: TeachSectionExercises, Name: "Exercises"},
	}
	for i := range out {
		out[i].On = out[i].ID == a.TeachShown()
	}
	return out
}

// TeachShown is the section shown (the stepper before any choice).
func (a *App) TeachShown() string {
	if a.Teach.Section == "" {
		return TeachSectionStepper
	}
	return a.Teach.Section
}

// TeachSetSection shows a section of the teaching tab; leaving the
// stepper pauses it.
func (a *App) TeachSetSection(id string) {
	for _, s := range a.TeachSections() {
		if s.ID == id {
			if id != TeachSectionStepper {
				a.teachStopPlay()
			}
			a.Teach.Section = id
			// What a section shows is computed when it is first shown.
			switch {
			case id == TeachSectionGallery:
				a.teachDrawGallery()
			case id == TeachSectionVariants && a.Teach.Shown != nil && a.Teach.Shown.pending:
				a.teachShow(a.Teach.Shown)
			}
			return
		}
	}
}
