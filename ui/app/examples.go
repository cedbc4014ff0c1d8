package app

import (
	"slices"
	"strings"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
)

// Example is a sentence offered in the example menu. Gold, when set, is
// its tree in the treebank (one discbracket line), from Source; the
// Sentence tab draws it beside the parse.
type Example struct {
	Name, Text   string
	Gold, Source string
}

// Examples are Dutch sentences (the default model is trained on the Alpino
// treebank). All but the last are sentences of the Alpino dev set
// (dev.punctmoved.discbracket) whose gold trees have discontinuous
// constituents that the shipped model, with the default decoder n3, gets
// right, each of them (go run ./internal/findexamples lists such
// sentences); the last is a long made-up sentence to test drawing. The
// first is the text the app starts with.
var Examples = []Example{
	{
		Name: "er … over and a verb cluster", Text: "Joe Valachi zou er een kookboek over kunnen schrijven .", Source: "Alpino dev, sentence 128",
		Gold: `(ROOT (SMAIN (MWU (spec 0=Joe) (spec 1=Valachi)) (ww 2=zou) (INF (INF (PP (vnw 3=er) (vz 6=over)) (NP (lid 4=een) (n 5=kookboek)) (ww 8=schrijven)) (ww 7=kunnen))) (let 9=.))`,
	},
	{
		Name: "topicalisation", Text: "Verder dan een clubkampioenschap van Ulysses heeft Krott het nooit gebracht .", Source: "Alpino dev, sentence 62",
		Gold: `(ROOT (SMAIN (PPART (AP (adj 0=Verder) (CP (vg 1=dan) (NP (lid 2=een) (n 3=clubkampioenschap) (PP (vz 4=van) (n 5=Ulysses))))) (vnw 8=het) (bw 9=nooit) (ww 10=gebracht)) (ww 6=heeft) (n 7=Krott)) (let 11=.))`,
	},
	{
		Name: "er … op", Text: "Men vond er iets op .", Source: "Alpino dev, sentence 294",
		Gold: `(ROOT (SMAIN (vnw 0=Men) (ww 1=vond) (PP (vnw 2=er) (vz 4=op)) (vnw 3=iets)) (let 5=.))`,
	},
	{
		Name: "fronted PP", Text: "Voor Auwera hebben deze zaken extra dimensie gekregen door persoonlijke omstandigheden .", Source: "Alpino dev, sentence 126",
		Gold: `(ROOT (SMAIN (PPART (PP (vz 0=Voor) (n 1=Auwera)) (NP (adj 5=extra) (n 6=dimensie)) (ww 7=gekregen) (PP (vz 8=door) (NP (adj 9=persoonlijke) (n 10=omstandigheden)))) (ww 2=hebben) (NP (vnw 3=deze) (n 4=zaken))) (let 11=.))`,
	},
	{
		Name: "crossing verb cluster", Text: "De afsluiting van het zeemeer zal volgens prof. Frassetto snel gerealiseerd moeten worden .", Source: "Alpino dev, sentence 499",
		Gold: `(ROOT (SMAIN (NP (lid 0=De) (n 1=afsluiting) (PP (vz 2=van) (NP (lid 3=het) (n 4=zeemeer)))) (ww 5=zal) (INF (INF (PPART (PP (vz 6=volgens) (MWU (spec 7=prof.) (spec 8=Frassetto))) (adj 9=snel) (ww 10=gerealiseerd)) (ww 12=worden)) (ww 11=moeten))) (let 13=.))`,
	},
	{
		Name: "er … aan in a subordinate clause", Text: "Doordat wij vertraagden krijg je misschien de indruk dat we er niet alles aan doen .", Source: "Alpino dev, sentence 437",
		Gold: `(ROOT (SMAIN (CP (vg 0=Doordat) (SSUB (vnw 1=wij) (ww 2=vertraagden))) (ww 3=krijg) (vnw 4=je) (bw 5=misschien) (NP (lid 6=de) (n 7=indruk) (CP (vg 8=dat) (SSUB (vnw 9=we) (PP (vnw 10=er) (vz 13=aan)) (bw 11=niet) (vnw 12=alles) (ww 14=doen))))) (let 15=.))`,
	},
	{Name: "long (made up, for drawing)", Text: "Nadat de commissie in het voorjaar had vastgesteld dat de kosten van het project veel hoger zouden uitvallen dan eerder was aangenomen , besloot de gemeenteraad na een lang en soms fel debat dat de bouw van de nieuwe brug over de rivier voorlopig moest worden uitgesteld totdat er meer duidelijkheid zou zijn over de financiering door het rijk ."},
}

// GoldTree returns the example's gold tree (nil without one, or when it
// cannot be read).
func (e Example) GoldTree() *tree.Tree {
	if e.Gold == "" {
		return nil
	}
	trees, err := treebank.ReadAll(strings.NewReader(e.Gold+"\n"), e.Source, treebank.Discbracket)
	if err != nil || len(trees) != 1 {
		return nil
	}
	return trees[0]
}

// exampleGold returns the gold tree of the example whose words are words,
// and where it comes from; nil when there is none.
func exampleGold(words []string) (*tree.Tree, string) {
	for _, e := range Examples {
		if e.Gold == "" || !slices.Equal(strings.Fields(e.Text), words) {
			continue
		}
		if t := e.GoldTree(); t != nil {
			return t, e.Source
		}
	}
	return nil, ""
}
