package components

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/teach"
	"github.com/discspan/discspan/ui/app"
	"github.com/vugu/vugu"
)

// TeachRules lists the twelve deduction rules and the cubic algorithm's two
// (n3's), each with its diagram, form,
// side condition and explanation; clicking one lists (and marks in the
// parse's tree) the items it built in the current parse and in the
// stepper's best derivation.
type TeachRules struct {
	App *app.App
}

// cards are the rules.
func (c *TeachRules) cards() []app.TeachRuleCard { return c.App.TeachRuleCards() }

// cardID is the element id of a rule's card.
func (c *TeachRules) cardID(r app.TeachRuleCard) string { return "rule-" + strconv.Itoa(r.ID) }

// cardPressed says whether a rule's card is the chosen one.
func (c *TeachRules) cardPressed(r app.TeachRuleCard) string { return pressedIf(r.Chosen) }

// cardKey chooses a rule's card with Enter or Space, as a click does (the
// card is a button for the keyboard).
func (c *TeachRules) cardKey(event vugu.DOMEvent, id int) {
	switch event.PropString("key") {
	case "Enter", " ":
		event.PreventDefault()
		c.App.TeachChooseRule(id)
	}
}

// cardClass marks the chosen rule's card.
func (c *TeachRules) cardClass(r app.TeachRuleCard) string {
	if r.Chosen {
		return "rule-card on"
	}
	return "rule-card"
}

// meta says from which variant on the rule exists and how often it was
// used.
func (c *TeachRules) meta(r app.TeachRuleCard) string {
	s := "from " + r.Smallest.String()
	if c.App.Parse.Main != nil {
		s += fmt.Sprintf(" · used %d× in your parse", r.InParse)
	}
	if c.App.Teach.Stepper.Trace != nil {
		s += fmt.Sprintf(" · %d× in the stepper's best derivation", r.InStepper)
	}
	return s
}

// chosen reports whether a rule is chosen.
func (c *TeachRules) chosen() bool { return c.App.Teach.Rule != decode.Axiom }

// usesTitle heads the chosen rule's uses.
func (c *TeachRules) usesTitle() string {
	return "Where “" + c.App.Teach.Rule.String() + "” was used"
}

// noParseUse says that the parse does not use the rule.
func (c *TeachRules) noParseUse() string {
	if p := c.App.Parse.Main.Parse; p != nil {
		if v, err := decode.ParseVariant(p.Variant); err == nil && !slices.Contains(teach.StepperRules(v), c.App.Teach.Rule) {
			return fmt.Sprintf("Your parse (%s) does not use this rule: %s does not have it.", p.Variant, p.Variant)
		}
		return fmt.Sprintf("Your parse (%s) does not use this rule.", p.Variant)
	}
	return "Your parse does not use this rule."
}

// stepperTitle heads the stepper's uses.
func (c *TeachRules) stepperTitle() string {
	s := c.App.Teach.Stepper
	if s.Trace == nil {
		return "In the stepper"
	}
	return fmt.Sprintf("In the stepper's best derivation (%s, %s)", s.Title, s.Variant)
}

// stepperUses are the stepper's best-derivation items the rule built.
func (c *TeachRules) stepperUses() []app.StepItem {
	return c.App.Teach.Stepper.RuleUses(c.App.Teach.Rule)
}

// noStepperUse says why no item is listed.
func (c *TeachRules) noStepperUse() string {
	s := c.App.Teach.Stepper
	if s.Trace == nil {
		return "The stepper has nothing loaded."
	}
	if !slices.Contains(teach.StepperRules(s.Variant), c.App.Teach.Rule) {
		return fmt.Sprintf("%s does not have this rule.", s.Variant)
	}
	return "The best derivation does not use this rule."
}

// parseNote says, for the cubic algorithm's rules and an n3 parse, how
// their uses are listed: the decoder gives n3's derivation in n4's items.
func (c *TeachRules) parseNote() string {
	p := c.App.Parse.Main
	if p == nil || p.Parse == nil || p.Parse.Variant != decode.N3.String() || len(c.App.Teach.ParseUses) == 0 {
		return ""
	}
	switch c.App.Teach.Rule {
	case decode.CreatePartial:
		return "The parse keeps n3's derivation in n4's items: each use is listed as the discontinuous constituent [i,k,l,j] its bottom item bottom(i,l) became, with that constituent's inside score (its right block and disc weight included)."
	case decode.CompleteDisc:
		return "The parse keeps n3's derivation in n4's items: each use is listed as the continuous item it built."
	}
	return ""
}

// unused reports whether there is a parse that does not use the rule.
func (c *TeachRules) unused() bool {
	return c.App.Parse.Main != nil && len(c.App.Teach.ParseUses) == 0
}
