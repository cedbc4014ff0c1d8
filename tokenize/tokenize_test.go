package tokenize

import (
	"reflect"
	"strings"
	"testing"
)

// tokenCase is one input and its expected tokens, written as the token
// texts joined by " | ".
type tokenCase struct {
	name, in, want string
}

func runCases(t *testing.T, tok Tokenizer, cases []tokenCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := tok.Words(c.in)
			var want []string
			if c.want != "" {
				want = strings.Split(c.want, " | ")
			}
			if len(got) == 0 && len(want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Words(%q)\n got: %s\nwant: %s", c.in, strings.Join(got, " | "), strings.Join(want, " | "))
			}
			checkInvariants(t, c.in, tok.Tokenize(c.in))
		})
	}
}

func TestPunctuation(t *testing.T) {
	runCases(t, Tokenizer{Lang: Dutch}, []tokenCase{
		{"comma and period", "Hij komt, maar later.", "Hij | komt | , | maar | later | ."},
		{"semicolon colon", "Eén ding; twee: drie", "Eén | ding | ; | twee | : | drie"},
		{"exclamation question", "Echt? Ja!", "Echt | ? | Ja | !"},
		{"repeated marks split one by one", "Wat?!", "Wat | ? | !"},
		{"angle brackets of a tag", "<script>alert(1)", "< | script | > | alert(1)"},
		{"angle brackets around and inside words", "<b>vet</b> a<b x>=y", "< | b | > | vet | < | / | b | > | a | < | b | x | > | = | y"},
		{"url in angle brackets", "zie <https://example.com/a>.", "zie | < | https://example.com/a | > | ."},
		{"brackets", "de PvdA (Partij van de Arbeid) won", "de | PvdA | ( | Partij | van | de | Arbeid | ) | won"},
		{"number in brackets", "T. Boering (56) uit Eelde", "T. | Boering | ( | 56 | ) | uit | Eelde"},
		{"square and curly brackets", "[zie {hier}]", "[ | zie | { | hier | } | ]"},
		{"straight double quotes", `Hij zei: "Ja."`, `Hij | zei | : | " | Ja | . | "`},
		{"spaced double quotes", `van " Door Vrijheid Ontstaan " in`, `van | " | Door | Vrijheid | Ontstaan | " | in`},
		{"guillemets", "«Bonjour», zei hij", "« | Bonjour | » | , | zei | hij"},
		{"low-high quotes", "„Goedemorgen”, zei ze", "„ | Goedemorgen | ” | , | zei | ze"},
		{"curly double quotes", "“Hallo” zei ze", "“ | Hallo | ” | zei | ze"},
		{"direction marks separate tokens", "Hij\u200e kwam\u202b hier\u202c\u2067.\u2069", "Hij | kwam | hier | ."},
		{"em dash between words", "Hij zei—en dat klopt—dat", "Hij | zei | — | en | dat | klopt | — | dat"},
		{"horizontal bar between words", "ja―nee", "ja | ― | nee"},
		{"en dash of a range stays", "1990–2000 en tv–radio", "1990–2000 | en | tv–radio"},
		{"curly single quotes", "het woord ‘fiets’ is", "het | woord | ‘ | fiets | ’ | is"},
		{"straight single quotes", "de term 'huis' is", "de | term | ' | huis | ' | is"},
		{"single quotes over several words", "een 'heel mooi' huis", "een | ' | heel | mooi | ' | huis"},
		{"ellipsis at end", "Meer geld...", "Meer | geld | ..."},
		{"spaced ellipsis", "het was ... niets", "het | was | ... | niets"},
		{"four dots", "kan worden....", "kan | worden | ...."},
		{"unicode ellipsis", "Nou…", "Nou | …"},
		{"ellipsis inside a chunk", "wacht...ik kom", "wacht | ... | ik | kom"},
		{"quote glued after colon", `zei:"Ja"`, `zei | : | " | Ja | "`},
		{"comma glued before quote", `"Ja,"zei hij`, `" | Ja | , | " | zei | hij`},
		{"dash between spaces", "Het totaal - in grote lijnen - klopt", "Het | totaal | - | in | grote | lijnen | - | klopt"},
		{"double hyphen", "zo--dacht ik", "zo--dacht | ik"},
		{"double hyphen alone", "zo -- dacht ik", "zo | -- | dacht | ik"},
		{"en dash", "Ajax – Feyenoord", "Ajax | – | Feyenoord"},
		{"slash alone", "en / of", "en | / | of"},
		{"slash inside a word", "en/of zijn/haar", "en/of | zijn/haar"},
		{"ampersand alone", "B & W", "B | & | W"},
		{"ampersand inside a word", "AT&T", "AT&T"},
		{"trailing comma after closing bracket", "(zie boven),", "( | zie | boven | ) | ,"},
		{"inverted marks", "¿Qué? ¡Sí!", "¿ | Qué | ? | ¡ | Sí | !"},
		{"asterisk", "*belangrijk*", "* | belangrijk | *"},
		{"full-width marks between words", "你好，世界。我很好！", "你好 | ， | 世界 | 。 | 我很好 | ！"},
		{"full-width brackets", "Hallo（test）daar；nee、これ「です」", "Hallo | （ | test | ） | daar | ； | nee | 、 | これ | 「 | です | 」"},
		{"full-width colon and full stop between digits stay", "１２：３０ en ３．１４", "１２：３０ | en | ３．１４"},
		{"a space left out after a full stop is not put back", "Het is mooi.De zon en Console.WriteLine en Booking.Com", "Het | is | mooi.De | zon | en | Console.WriteLine | en | Booking.Com"},
	})
}

func TestNumbers(t *testing.T) {
	runCases(t, Tokenizer{Lang: Dutch}, []tokenCase{
		{"decimal comma", "4,75 gulden", "4,75 | gulden"},
		{"thousands points", "1.000.000 inwoners", "1.000.000 | inwoners"},
		{"decimal point", "3.5 meter", "3.5 | meter"},
		{"number then full stop", "in 1969.", "in | 1969 | ."},
		{"decimal then full stop", "kost 4,75.", "kost | 4,75 | ."},
		{"number then comma", "in 1969, toen", "in | 1969 | , | toen"},
		{"percent stays attached (Alpino)", "20% meer", "20% | meer"},
		{"percent then full stop", "steeg 4,5%.", "steeg | 4,5% | ."},
		{"percent alone", "20 % meer", "20 | % | meer"},
		{"time", "om 23.20 uur", "om | 23.20 | uur"},
		{"invisible characters alone are no tokens", "zei \u200d hallo \u00ad daar \ufe0f of \u2063 dan \u180e ok \u200d.", "zei | hallo | daar | of | dan | ok | ."},
		{"invisible characters inside words stay", "een 👨\u200d👩\u200d👧 en hyper\u00adlang", "een | 👨\u200d👩\u200d👧 | en | hyper\u00adlang"},
		{"time with colon", "om 12:30 uur", "om | 12:30 | uur"},
		{"score", "won met 2-1", "won | met | 2-1"},
		{"fraction", "98 1/2 pct", "98 | 1/2 | pct"},
		{"guilders with dash", "flo 130.000,- per jaar", "flo | 130.000,- | per | jaar"},
		{"guilders with dash before full stop", "kost 5,-.", "kost | 5,- | ."},
		{"ordinals", "de 21ste en 19e keer", "de | 21ste | en | 19e | keer"},
		{"age compound", "de 23-jarige", "de | 23-jarige"},
		{"year with apostrophe", "in '69 en '67-'68", "in | '69 | en | '67-'68"},
		{"negative number", "nog -3 graden", "nog | -3 | graden"},
		{"leading decimal point", "een kans van .5", "een | kans | van | .5"},
		{"euro sign kept (Alpino)", "kost €20 of $5", "kost | €20 | of | $5"},
		{"plus sign", "bel +31 50", "bel | +31 | 50"},
		{"age plus", "65+ kaart", "65+ | kaart"},
		{"enumeration at start", "1. de Stichting is eigenaar", "1. | de | Stichting | is | eigenaar"},
		{"enumeration after full stop", "Eerst dit. 2. op grond daarvan", "Eerst | dit | . | 2. | op | grond | daarvan"},
		{"enumeration after colon", "de volgende: 1. de Stichting", "de | volgende | : | 1. | de | Stichting"},
		{"enumeration on a new line", "punten\n2. verder", "punten | 2. | verder"},
		{"enumeration after a lone CR", "punten\r2. verder", "punten | 2. | verder"},
		{"number at end of text is not an enumeration", "1.", "1 | ."},
	})
}

func TestAbbreviations(t *testing.T) {
	runCases(t, Tokenizer{Lang: Dutch}, []tokenCase{
		{"Dutch abbreviations", "bijv. o.a. d.w.z. enz. mr. dr. blz. nr. nrs. jl. a.s. m.b.t. t.a.v. e.d. i.p.v. resp. ca. incl. excl. pct. mln. mld. min. max. ir. ing. prof. drs. mevr. dhr. St. v.Chr. n.Chr. zo",
			"bijv. | o.a. | d.w.z. | enz. | mr. | dr. | blz. | nr. | nrs. | jl. | a.s. | m.b.t. | t.a.v. | e.d. | i.p.v. | resp. | ca. | incl. | excl. | pct. | mln. | mld. | min. | max. | ir. | ing. | prof. | drs. | mevr. | dhr. | St. | v.Chr. | n.Chr. | zo"},
		{"capitalised at sentence start", "Bijv. dit", "Bijv. | dit"},
		{"initials", "J. F. Kennedy en A.R. Smit", "J. | F. | Kennedy | en | A.R. | Smit"},
		{"lower-case initial", "v. Dijk", "v. | Dijk"},
		{"letters with periods", "de A.R.P. en de N.V. en H.-G. Müller", "de | A.R.P. | en | de | N.V. | en | H.-G. | Müller"},
		{"abbreviation inside a compound", "6 pct.-loonsverhoging", "6 | pct.-loonsverhoging"},
		{"abbreviation as last part of a compound", "een bouw-c.a.o. voor", "een | bouw-c.a.o. | voor"},
		{"abbreviation then comma", "enz., maar", "enz. | , | maar"},
		{"abbreviation in brackets", "(o.a. hij)", "( | o.a. | hij | )"},
		{"abbreviation before closing bracket", "(10 pct.) dus", "( | 10 | pct. | ) | dus"},
		{"abbreviation that may end a sentence keeps its period", "vanaf 15 september jl.", "vanaf | 15 | september | jl."},
		{"etc. at the end", "scholen etc.", "scholen | etc."},
		{"other abbreviation at the end gives a full stop", "steeg 4,6 pct.", "steeg | 4,6 | pct | ."},
		{"initial at the end gives a full stop", "de letter E.", "de | letter | E | ."},
		{"abbreviation at the end before a quote", `met 5 pct."`, `met | 5 | pct | . | "`},
		{"abbreviation then full stop", "werktuigen enz..", "werktuigen | enz. | ."},
		{"initial then full stop", "minister M. A.. Klompe", "minister | M. | A. | . | Klompe"},
		{"ordinary word at the end", "Hij kwam.", "Hij | kwam | ."},
		{"ordinary word before capital", "Hij kwam. Zij", "Hij | kwam | . | Zij"},
		{"month only lower-case", "3 jan. en Jan.", "3 | jan. | en | Jan | ."},
		{"exact-case abbreviation", "Kon. Olie en ik kon.", "Kon. | Olie | en | ik | kon | ."},
		{"Dutch has no English months", "in Oct. 1969", "in | Oct | . | 1969"},
		{"modern abbreviations", "bv. ong. fl. hfl. pag. hfdst. vlgs. wnd. afb. Prov. Stb. zo",
			"bv. | ong. | fl. | hfl. | pag. | hfdst. | vlgs. | wnd. | afb. | Prov. | Stb. | zo"},
	})
}

func TestEnglishAbbreviations(t *testing.T) {
	runCases(t, Tokenizer{Lang: English}, []tokenCase{
		{"titles", "Mr. and Mrs. Smith met Dr. Jones and Prof. Brown", "Mr. | and | Mrs. | Smith | met | Dr. | Jones | and | Prof. | Brown"},
		{"latin", "e.g. this, i.e. that, etc. and so on", "e.g. | this | , | i.e. | that | , | etc. | and | so | on"},
		{"versus", "Ajax vs. PSV", "Ajax | vs. | PSV"},
		{"U.S.", "the U.S. economy", "the | U.S. | economy"},
		{"months", "on Jan. 5 and Sept. 3", "on | Jan. | 5 | and | Sept. | 3"},
		{"number abbreviation before a number", "see No. 5 and fig. 3", "see | No. | 5 | and | fig. | 3"},
		{"number abbreviation without a number", "I said no. Then", "I | said | no | . | Then"},
		{"single capital letter", "John F. Kennedy", "John | F. | Kennedy"},
		{"company", "Apple Inc. said", "Apple | Inc. | said"},
		{"a.m.", "at 5 a.m. today", "at | 5 | a.m. | today"},
	})
}

func TestDutchApostrophes(t *testing.T) {
	runCases(t, Tokenizer{Lang: Dutch}, []tokenCase{
		{"elided article", "'s morgens", "'s | morgens"},
		{"elided het", "Het zal 't zijn", "Het | zal | 't | zijn"},
		{"elided een", "'n zorg", "'n | zorg"},
		{"elided hem", "geef 'm", "geef | 'm"},
		{"elided eens", "kom 'ns", "kom | 'ns"},
		{"place name", "in 's-Gravenhage", "in | 's-Gravenhage"},
		{"elision before comma", "'t, zei", "'t | , | zei"},
		{"sentence start", "'t Is waar", "'t | Is | waar"},
		{"curly apostrophe elision", "’s avonds", "’s | avonds"},
		{"possessive pronouns", "z'n en m'n en d'r", "z'n | en | m'n | en | d'r"},
		{"zo'n", "zo'n huis, Zo'n", "zo'n | huis | , | Zo'n"},
		{"plural 's", "auto's en foto's", "auto's | en | foto's"},
		{"genitive 's stays", "Smit's zaak", "Smit's | zaak"},
		{"plural 's before full stop", "twee auto's.", "twee | auto's | ."},
		{"apostrophe after s", "Jenkins' boek", "Jenkins' | boek"},
		{"apostrophe inside name", "D'66 en l'Avenir en PSP'er", "D'66 | en | l'Avenir | en | PSP'er"},
		{"quote then elision", "'t is 'mooi'", "'t | is | ' | mooi | '"},
		{"quote closed after s", "het 'huis' van Jenkins'", "het | ' | huis | ' | van | Jenkins'"},
		{"quote opened earlier", "'Sgt Pepper's' album", "' | Sgt | Pepper's | ' | album"},
		{"English contractions in Dutch text", "don't it's I'm we'll they're I've I'd", "do | n't | it | 's | I | 'm | we | 'll | they | 're | I | 've | I | 'd"},
		{"Dutch keeps John's", "John's", "John's"},
		{"attached het", "Ik kan't niet, ben't zat. Is't waar? Heb je't?", "Ik | kan | 't | niet | , | ben | 't | zat | . | Is | 't | waar | ? | Heb | je | 't | ?"},
		{"English n't in Dutch text", "can't isn't won't", "ca | n't | is | n't | wo | n't"},
	})
}

func TestEnglishClitics(t *testing.T) {
	runCases(t, Tokenizer{Lang: English}, []tokenCase{
		{"n't", "I don't know", "I | do | n't | know"},
		{"can't", "can't won't", "ca | n't | wo | n't"},
		{"curly apostrophe", "isn’t it’s", "is | n’t | it | ’s"},
		{"it's", "it's here", "it | 's | here"},
		{"possessive", "John's book", "John | 's | book"},
		{"I'm", "I'm here", "I | 'm | here"},
		{"we'll", "we'll see", "we | 'll | see"},
		{"they're", "they're gone", "they | 're | gone"},
		{"I've", "I've been", "I | 've | been"},
		{"I'd", "I'd go", "I | 'd | go"},
		{"plural possessive", "the students' rooms", "the | students | ' | rooms"},
		{"clitic before punctuation", "It's John's.", "It | 's | John | 's | ."},
		{"cannot", "I cannot", "I | can | not"},
		{"elisions", "rock 'n' roll, 'cause", "rock | 'n' | roll | , | 'cause"},
		{"quotes", "he said 'no' twice", "he | said | ' | no | ' | twice"},
		{"percent split", "20% more", "20 | % | more"},
		{"currency split", "costs $5.", "costs | $ | 5 | ."},
		{"hyphenated", "a well-known e-mail", "a | well-known | e-mail"},
	})
}

func TestWords(t *testing.T) {
	runCases(t, Tokenizer{Lang: Dutch}, []tokenCase{
		{"hyphenated names", "Noord-Holland en West-Duitsland", "Noord-Holland | en | West-Duitsland"},
		{"hyphenated nouns", "e-mail en tv-programma's", "e-mail | en | tv-programma's"},
		{"truncated compound", "radio- en tv-omroepen", "radio- | en | tv-omroepen"},
		{"leading hyphen part", "directie, -bestuur en -personeel", "directie | , | -bestuur | en | -personeel"},
		{"quoted compound part", `"quasienquete"-voorstel en "proef"- en`, `"quasienquete"-voorstel | en | "proef"- | en`},
		{"bracketed first part", "de (werk)dag en (sub)faculteiten", "de | (werk)dag | en | (sub)faculteiten"},
		{"bracketed last part", "de zuurstoftent(je) en dam(men)plan", "de | zuurstoftent(je) | en | dam(men)plan"},
		{"accented letters", "café, één, België, naïef, ça, Straße", "café | , | één | , | België | , | naïef | , | ça | , | Straße"},
		{"combining accent", "cafe\u0301.", "cafe\u0301 | ."},
		{"emoji with a variation selector", "Ik ❤️ je", "Ik | ❤️ | je"},
		{"emoji with a skin tone, glued", "Top👍🏽!", "Top | 👍🏽 | !"},
		{"emoji ZWJ sequence", "Gezin 👨\u200d👩\u200d👧 thuis.", "Gezin | 👨\u200d👩\u200d👧 | thuis | ."},
		{"flags, one token each", "Oranje 🇳🇱🇧🇪 wint", "Oranje | 🇳🇱 | 🇧🇪 | wint"},
		{"tag-sequence flag", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f vlag", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f | vlag"},
		{"emoji after a word", "mooi❤️ en 👍🏽👍", "mooi | ❤️ | en | 👍🏽 | 👍"},
		{"punctuation with a combining mark", "ja ,\u0301 nee", "ja | ,\u0301 | nee"},
		{"keycap stays whole", "1️⃣ eerst", "1️⃣ | eerst"},
		{"white space collapsed", "  een\t\ttwee\n\n drie\r\n", "een | twee | drie"},
		{"non-breaking and zero-width spaces", "een\u00a0twee\u200bdrie", "een | twee | drie"},
		{"empty", "", ""},
		{"only space", " \n\t ", ""},
		{"hash tag and mention", "#verkiezingen met @jan", "#verkiezingen | met | @jan"},
	})
}

func TestURLs(t *testing.T) {
	runCases(t, Tokenizer{Lang: Dutch}, []tokenCase{
		{"http", "zie http://www.rug.nl/let/alpino?x=1&y=2.", "zie | http://www.rug.nl/let/alpino?x=1&y=2 | ."},
		{"https in brackets", "(https://example.com/a_b)", "( | https://example.com/a_b | )"},
		{"url with brackets", "zie https://en.wikipedia.org/wiki/Alpino_(parser), ja", "zie | https://en.wikipedia.org/wiki/Alpino_(parser) | , | ja"},
		{"www", "op www.nos.nl!", "op | www.nos.nl | !"},
		{"e-mail", "mail jan.de-vries@rug.nl, of", "mail | jan.de-vries@rug.nl | , | of"},
		{"e-mail in quotes", `"info@nos.nl".`, `" | info@nos.nl | " | .`},
		{"not an e-mail", "a@b en @", "a@b | en | @"},
	})
}

func TestOffsets(t *testing.T) {
	in := "  Hij zei: \"'t Is 4,75 pct.\"\n\nDon't"
	toks := Tokenize(in)
	checkInvariants(t, in, toks)
	want := []Token{
		{"Hij", 2, 5}, {"zei", 6, 9}, {":", 9, 10}, {"\"", 11, 12}, {"'t", 12, 14},
		// The period before a blank line is the full stop, as at the end
		// of the text.
		{"Is", 15, 17}, {"4,75", 18, 22}, {"pct", 23, 26}, {".", 26, 27}, {"\"", 27, 28},
		{"Do", 30, 32}, {"n't", 32, 35},
	}
	if !reflect.DeepEqual(toks, want) {
		t.Errorf("Tokenize(%q)\n got %v\nwant %v", in, toks, want)
	}
}

func TestInvalidUTF8(t *testing.T) {
	in := "a\xffb \xe2\x80 \xc3.\xa9 ok."
	toks := Tokenize(in)
	checkInvariants(t, in, toks)
	if got := toks[len(toks)-1].Text; got != "." {
		t.Errorf("last token %q, want \".\"", got)
	}
}

func TestLanguageString(t *testing.T) {
	for l, want := range map[Language]string{Dutch: "Dutch", English: "English", Language(7): "Language(?)"} {
		if got := l.String(); got != want {
			t.Errorf("Language(%d).String() = %q, want %q", l, got, want)
		}
	}
}
