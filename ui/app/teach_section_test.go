package app_test

import (
	"testing"

	"github.com/discspan/discspan/ui/app"
)

// The teaching tab shows one section at a time: the stepper first; the
// stepper's keys work only while it is shown, and leaving it pauses it;
// links open the section they are for.
func TestTeachSections(t *testing.T) {
	a, env := teachApp(t)
	tests := []struct {
		name string
		do   func()
		want string
		keys bool // the stepper's keys are used
	}{
		{"opened", func() {}, app.TeachSectionStepper, true},
		{"rules", func() { a.TeachPlay(); a.TeachSetSection(app.TeachSectionRules) }, app.TeachSectionRules, false},
		{"unknown", func() { a.TeachSetSection("nonsense") }, app.TeachSectionRules, false},
		{"tree link", func() { a.OpenFragment("#tree=t1.AAAA") }, app.TeachSectionVariants, false},
		{"exercise link", func() { a.OpenFragment("#exercise=wh-question") }, app.TeachSectionExercises, false},
		{"back to the stepper", func() { a.TeachSetSection(app.TeachSectionStepper) }, app.TeachSectionStepper, true},
	}
	for _, tc := range tests {
		env.Do(func() {
			tc.do()
			pos := a.Teach.Stepper.Pos
			used := a.TeachKey("ArrowRight")
			if a.TeachShown() != tc.want || used != tc.keys || used != (a.Teach.Stepper.Pos == pos+1) {
				t.Errorf("%s: section %s, key used %v (position %d to %d); want %s, %v", tc.name, a.TeachShown(), used, pos, a.Teach.Stepper.Pos, tc.want, tc.keys)
			}
			if a.Teach.Stepper.Playing {
				t.Errorf("%s: the stepper plays", tc.name)
			}
			on := 0
			for _, s := range a.TeachSections() {
				if s.On {
					on++
				}
			}
			if on != 1 {
				t.Errorf("%s: %d sections on", tc.name, on)
			}
		})
	}
}

// What a section shows is computed when it is first shown: opening the tab
// replays the stepper's example, but draws no gallery and compares no
// variants until their sections are shown.
func TestTeachSectionsLazy(t *testing.T) {
	a, env := teachApp(t)
	drawn := func() int {
		n := 0
		for _, e := range a.Teach.Gallery {
			if e.View != nil {
				n++
			}
		}
		return n
	}
	env.Do(func() {
		if a.Teach.Stepper.Trace == nil || a.Teach.Shown == nil || a.Teach.Shown.Example != 0 {
			t.Fatalf("opened without the first example: stepper %v, shown %+v", a.Teach.Stepper.Trace != nil, a.Teach.Shown)
		}
		if drawn() != 0 || a.Teach.Shown.View != nil || a.Teach.Shown.Builds != nil {
			t.Errorf("opening drew %d gallery trees, the comparison %v", drawn(), a.Teach.Shown.View != nil)
		}
		a.TeachSetSection(app.TeachSectionGallery)
		if drawn() != len(a.Teach.Gallery) {
			t.Errorf("the gallery shows %d drawings of %d", drawn(), len(a.Teach.Gallery))
		}
		a.TeachLoadExample(1) // from the gallery: the stepper's example, compared later
		if a.Teach.Shown.Example != 1 || a.Teach.Shown.Builds != nil {
			t.Errorf("loading example 1: shown %d, compared %v", a.Teach.Shown.Example, a.Teach.Shown.Builds != nil)
		}
		a.TeachSetSection(app.TeachSectionVariants)
		if sh := a.Teach.Shown; sh.Example != 1 || sh.View == nil || len(sh.Builds) != len(app.ComparedVariants()) {
			t.Errorf("the comparison of example 1: %+v", sh)
		}
	})
}
