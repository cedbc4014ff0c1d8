package app

// Example is a sentence offered in the example menu.
type Example struct {
	Name, Text string
}

// Examples are Dutch sentences (the default model is trained on the Alpino
// treebank) with discontinuous constituents: verb clusters, separable
// verbs, extraposition, topicalisation, and a long one to test drawing.
var Examples = []Example{
	{"verb cluster", "Hij heeft het boek gisteren aan zijn zus gegeven ."},
	{"topicalisation", "Dat had ik van hem eerlijk gezegd nooit verwacht ."},
	{"question", "Wie denk je dat er morgen naar het feest komt ?"},
	{"separable verb", "De trein komt vanavond pas om negen uur in Amsterdam aan ."},
	{"extraposition", "Het is niet duidelijk of de regering het plan volgende week zal steunen ."},
	{"20 words", "Volgens de minister moeten de gemeenten de komende jaren meer woningen bouwen dan zij tot nu toe hebben gedaan ."},
	{"long", "Nadat de commissie in het voorjaar had vastgesteld dat de kosten van het project veel hoger zouden uitvallen dan eerder was aangenomen , besloot de gemeenteraad na een lang en soms fel debat dat de bouw van de nieuwe brug over de rivier voorlopig moest worden uitgesteld totdat er meer duidelijkheid zou zijn over de financiering door het rijk ."},
}
