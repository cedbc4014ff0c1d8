package treedraw

// Options control Layout. The zero value draws words and phrases but no
// tags; DefaultOptions also draws the tags.
type Options struct {
	// ShowTags puts the part-of-speech tags on a row just above the words.
	ShowTags bool
	// Compact uses narrower gaps between labels and lower rows.
	Compact bool
	// RootLabel labels the node drawn for the virtual root when several
	// nodes or words hang from it; "" means "ROOT".
	RootLabel string
	// Measure returns the width of a label in abstract units (UnitEm em,
	// about one lower-case letter); nil means EstimateWidth. Phrase and
	// root labels are made BoldScale times wider, for the bold face
	// DefaultCSS gives them.
	Measure func(string) float64
}

// DefaultOptions returns the options used by the command-line tools: tags
// shown, normal spacing.
func DefaultOptions() Options { return Options{ShowTags: true} }

// spacing holds the least distances, in abstract units, between the items
// that share a line of the drawing.
type spacing struct {
	label float64 // between two labels
	line  float64 // between a label or vertical edge and a vertical edge
	bar   float64 // between two bars, or a bar and a vertical edge, on a bar line
}

// BoldScale is how much wider than Measure says phrase and root labels are
// taken to be, for their bold face.
const BoldScale = 1.12

// The geometry of rows, in abstract units: a label is one unit high and
// rows are pitch units apart; a bar lies barDrop of the way down the gap
// between a label and the row below.
const (
	labelHeight    = 1.0
	pitchNormal    = 2.2
	pitchCompact   = 1.7
	barDropNormal  = 0.35
	barDropCompact = 0.4
)

func (o Options) spacing() spacing {
	if o.Compact {
		return spacing{label: 0.8, line: 0.6, bar: 0.8}
	}
	return spacing{label: 1.4, line: 0.9, bar: 1.2}
}

func (o Options) pitch() float64 {
	if o.Compact {
		return pitchCompact
	}
	return pitchNormal
}

func (o Options) barDrop() float64 {
	if o.Compact {
		return barDropCompact
	}
	return barDropNormal
}

func (o Options) rootLabel() string {
	if o.RootLabel == "" {
		return "ROOT"
	}
	return o.RootLabel
}

func (o Options) measure() func(string) float64 {
	if o.Measure == nil {
		return EstimateWidth
	}
	return o.Measure
}
