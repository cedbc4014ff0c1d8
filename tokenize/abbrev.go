package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// abbrKind says how an abbreviation behaves at the end of a sentence.
type abbrKind uint8

const (
	// abbrMid abbreviations do not end a sentence: titles, initials,
	// "o.a.", "bijv.".
	abbrMid abbrKind = iota
	// abbrFinal abbreviations may end one: "etc.", "jl.", "Inc.".
	abbrFinal
	// abbrNumber abbreviations are abbreviations only before a number:
	// "No. 5", "fig. 3".
	abbrNumber
	// abbrAmount abbreviations follow an amount ("4,75 pct.", "3 mln."):
	// like abbrMid they end no sentence, but their period is the full stop
	// at the end of the text or before a capitalized function word ("4,75
	// pct. Op de beurs"), which starts a sentence and no name.
	abbrAmount
)

// abbrevTable holds the abbreviations of one language, without their final
// period. fold is keyed by the lower-cased form and matches any case ("dr",
// "Dr", "DR"); exact matches only the form given ("jan" but not the name
// "Jan", "Kon" but not the verb "kon").
type abbrevTable struct {
	fold, exact map[string]abbrKind
	// starters are the lower-cased function words that, capitalized, begin
	// a sentence after an amount abbreviation.
	starters map[string]bool
}

// The tables are built once and only read afterwards.
var (
	dutchAbbrevs   = newAbbrevTable(dutchAbbrevList)
	englishAbbrevs = newAbbrevTable(englishAbbrevList)
)

// An abbrevList gives abbreviations as space-separated words per kind; a
// word starting with "=" is matched exactly, the others in any case.
type abbrevList struct {
	mid, final, number, amount string
	// starters: function words that are capitalized only at the start of a
	// sentence (see abbrAmount).
	starters string
}

// Shared by both languages: titles, company forms, Latin.
const (
	commonMid   = "dr drs prof ir ing mr mrs ms st sr jr =Ph =Th =Ch =Chr =Joh =Jac =Jacq =Nic =Alb =Hub =Wm vs cf ca approx e.g i.e viz resp"
	commonFinal = "etc inc co corp ltd bros a.m p.m u.s u.k"
)

var dutchAbbrevList = abbrevList{
	mid: commonMid + " dhr mevr mej mw ds mgr jhr jkvr kard pres burg" +
		" =Kon =Ver =Mij =Gebr =Ned =Int =Zn" +
		" a.h.w aanv afd afz alg art bijv bijl blz b.v ca dgl d.i d.m.v d.w.z" +
		" evt excl fa fig gem gld gr herv geref kath prot lib soc chr nom" +
		" i.c i.e.g i.h.b i.o i.p.v i.s.m i.t.t i.v.m incl m.a.w m.b.t m.i m.n" +
		" =max min nl nr nrs o.a o.b.v o.i o.l.v o.m p.a plm" +
		" red sec t.a.v t.b.v t.g.v t.n.v t.o.v t.w tel vgl vlg vnl zg zgn z.g z.i z.o.z v.j" +
		" =jan =feb =mrt =apr =jun =jul =aug =sep =sept =okt =nov =dec" +
		" bv ong fl hfl pag hfdst vlgs wnd afb =Prov =Stb",
	final:  commonFinal + " enz jl a.s e.a e.d e.v o.i.d v.chr n.chr",
	number: "",
	amount: "pct mln mld mrd pnt ptn",
	starters: "aan al als bij daar daarbij daarmee daarna daarnaast daarom dan dat de deze die dit door" +
		" een en er hier hij hoewel ik in je maar met na naar niet nog nu of ook op over" +
		" sinds tegen toch toen tot u uit van volgens voor vooral want wat we wij ze zij zo",
}

var englishAbbrevList = abbrevList{
	mid: commonMid + " messrs =Rev =Gen =Gov =Sen =Rep =Capt =Col =Lt =Sgt =Cpl =Maj =Adm =Hon =Mt =Ft" +
		" dept est =Jan =Feb =Mar =Apr =Jun =Jul =Aug =Sep =Sept =Oct =Nov =Dec",
	final:  commonFinal + " al",
	number: "no nos vol vols pp fig figs ch art",
}

// newAbbrevTable builds the maps of a list.
func newAbbrevTable(l abbrevList) abbrevTable {
	t := abbrevTable{fold: map[string]abbrKind{}, exact: map[string]abbrKind{}, starters: map[string]bool{}}
	add := func(words string, kind abbrKind) {
		for _, w := range strings.Fields(words) {
			if exact, ok := strings.CutPrefix(w, "="); ok {
				t.exact[exact] = kind
			} else {
				t.fold[strings.ToLower(w)] = kind
			}
		}
	}
	add(l.mid, abbrMid)
	add(l.final, abbrFinal)
	add(l.number, abbrNumber)
	add(l.amount, abbrAmount)
	for _, w := range strings.Fields(l.starters) {
		t.starters[w] = true
	}
	return t
}

// maxAbbrevLen bounds the words that are looked up in the tables.
const maxAbbrevLen = 12

// lookupAbbrev reports whether w, a word without its final period, is an
// abbreviation in lang and of which kind: a single letter (an initial), a
// word of the table, or letters joined by periods ("o.a", "A.R.P", "v.Chr",
// "N.-Br").
func lookupAbbrev(lang Language, w string) (abbrKind, bool) {
	if w == "" {
		return 0, false
	}
	if r, n := utf8.DecodeRuneInString(w); n == len(w) {
		return abbrMid, isLetter(r)
	}
	t := &dutchAbbrevs
	if lang == English {
		t = &englishAbbrevs
	}
	if len(w) <= maxAbbrevLen {
		if k, ok := t.exact[w]; ok {
			return k, true
		}
		if k, ok := t.fold[strings.ToLower(w)]; ok && !acronym(w) {
			return k, true
		}
	}
	if dotted(w) {
		return abbrMid, true
	}
	return 0, false
}

// acronym reports whether w is upper-case letters only ("VS", "ING",
// "SEC"): such a word is an acronym, not the abbreviation its letters spell
// in lower case ("vs", "ing", "sec"), so its period ends a sentence.
func acronym(w string) bool {
	for _, r := range w {
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// dotted reports whether w is short groups of letters joined by periods,
// each group possibly after a hyphen: "o.a", "d.w.z", "A.R.P", "v.Chr",
// "N.-Br", "Ph.D".
func dotted(w string) bool {
	if strings.IndexByte(w, '.') < 0 {
		return false
	}
	for w != "" {
		seg, rest, _ := strings.Cut(w, ".")
		seg = strings.TrimPrefix(seg, "-")
		if n := utf8.RuneCountInString(seg); n == 0 || n > 4 || !allLetters(seg) {
			return false
		}
		w = rest
	}
	return true
}

// startsWithStarter reports whether text begins with a capitalized function
// word of lang that only starts a sentence ("Op de beurs", "De koers"), as
// a whole word: the first letter upper case, the others lower case.
func startsWithStarter(lang Language, text string) bool {
	end := 0
	for end < len(text) && end <= maxAbbrevLen {
		r, n := utf8.DecodeRuneInString(text[end:])
		if !unicode.IsLetter(r) {
			break
		}
		end += n
	}
	w := text[:end]
	if w == "" || end < len(text) && isWord(firstRune(text[end:])) {
		return false
	}
	first, n := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(first) || strings.ToLower(w[n:]) != w[n:] {
		return false
	}
	t := &dutchAbbrevs
	if lang == English {
		t = &englishAbbrevs
	}
	return t.starters[strings.ToLower(w)]
}
