package teach

import (
	"encoding/xml"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/discspan/discspan/chart/decode"
)

func TestRules(t *testing.T) {
	rules := Rules()
	if len(rules) != 12 {
		t.Fatalf("%d rules, want 12", len(rules))
	}
	cubic := CubicRules()
	if len(cubic) != 2 || cubic[0].Rule != decode.CreatePartial || cubic[1].Rule != decode.CompleteDisc {
		t.Fatalf("cubic rules %v", cubic)
	}
	for x, r := range append(rules, cubic...) {
		if r.Rule != decode.Rule(x+1) {
			t.Errorf("rule %d is %v: not decoder.md's order, then the cubic algorithm's", x, r.Rule)
		}
		pos := map[string]int{}
		for p, name := range r.Order {
			if _, dup := pos[name]; dup {
				t.Errorf("%s: %s twice in the order", r.Name, name)
			}
			pos[name] = p
		}
		// Each item's indices increase along the order, and the order
		// holds no variable that no item uses.
		used := map[string]bool{}
		for _, s := range []Shape{r.Left, r.Right, r.Consequent} {
			for k, name := range s {
				used[name] = true
				if _, ok := pos[name]; !ok {
					t.Fatalf("%s: %s not in the order", r.Name, name)
				}
				if k > 0 && pos[s[k-1]] >= pos[name] {
					t.Errorf("%s: item %v is not increasing in the order %v", r.Name, s, r.Order)
				}
			}
		}
		if len(used) != len(r.Order) {
			t.Errorf("%s: order %v has unused variables", r.Name, r.Order)
		}
		// The side condition's chains follow the order.
		for _, chain := range strings.Split(r.Condition, ",") {
			names := strings.Split(strings.TrimSpace(chain), "<")
			for k := 1; k < len(names); k++ {
				if pos[names[k-1]] >= pos[names[k]] {
					t.Errorf("%s: condition %q contradicts the order %v", r.Name, r.Condition, r.Order)
				}
			}
		}
		// The consequent's ends are the order's ends.
		if r.Consequent[0] != r.Order[0] || r.Consequent[len(r.Consequent)-1] != r.Order[len(r.Order)-1] {
			t.Errorf("%s: consequent %v does not span the order %v", r.Name, r.Consequent, r.Order)
		}
		if !slices.Contains(StepperRules(r.Smallest), r.Rule) || (r.Smallest > 0 && slices.Contains(StepperRules(r.Smallest-1), r.Rule)) {
			t.Errorf("%s: smallest variant %v", r.Name, r.Smallest)
		}
		got, ok := RuleByID(r.Rule)
		if !ok || got.Form() != r.Form() {
			t.Errorf("RuleByID(%v) = %v, %v", r.Rule, got.Form(), ok)
		}
	}
	if _, ok := RuleByID(decode.Axiom); ok {
		t.Error("axioms are not drawn as rules")
	}
}

// Each diagram is well-formed SVG with one bar per block of its three items
// and one tick per variable.
func TestDiagrams(t *testing.T) {
	for _, r := range append(Rules(), CubicRules()...) {
		svg := r.Diagram(r.Rule == decode.Wrapped)
		counts := map[string]int{}
		d := xml.NewDecoder(strings.NewReader(svg))
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v\n%s", r.Name, err, svg)
			}
			if se, ok := tok.(xml.StartElement); ok {
				counts[se.Name.Local]++
				for _, a := range se.Attr {
					if a.Name.Local == "class" {
						counts["class "+a.Value]++
					}
				}
			}
		}
		blocks := func(s Shape) int { return len(s) / 2 }
		if got, want := counts["rect"], blocks(r.Left)+blocks(r.Right)+blocks(r.Consequent); got != want {
			t.Errorf("%s: %d bars, want %d", r.Name, got, want)
		}
		if counts["class tick"] != len(r.Order) || counts["text"] != len(r.Order) {
			t.Errorf("%s: %d ticks for %d variables", r.Name, counts["class tick"], len(r.Order))
		}
		gaps := 0
		for _, s := range []Shape{r.Left, r.Right, r.Consequent} {
			if !s.Continuous() {
				gaps++
			}
		}
		if counts["class gap"] != gaps {
			t.Errorf("%s: %d gap lines, want %d", r.Name, counts["class gap"], gaps)
		}
		if active := counts["class rule-diagram active"] == 1; active != (r.Rule == decode.Wrapped) {
			t.Errorf("%s: highlight %v", r.Name, active)
		}
	}
}
