package tokenize

import (
	"strings"
	"unicode"
)

// language is what the package knows of one language: the frequent
// function words GuessLanguage looks for in a model's vocabulary, and the
// common words (function words, pronouns, auxiliaries, question words)
// that tell a sentence in it from a sentence in another of these
// languages. Common holds every word of the other languages' lists that is
// also an ordinary word of this one ("was" and "had" are Dutch too), so
// that the words of one language's list missing from another's are rare
// in that other language; TestCommonWordsRare checks it on treebanks.
type language struct {
	name   string
	guess  []string
	common map[string]bool
}

// languages are the languages the package tells apart.
var languages = []language{
	{
		name:  "Dutch",
		guess: strings.Fields("de het een van en in is dat op te niet met voor zijn er die aan ook als bij naar door worden wordt heeft hij ze"),
		common: wordSet(`de het een van en in is dat op te niet met voor zijn er die aan ook als bij naar door
			worden wordt werd werden heeft hebben heb hebt had hadden ben bent was waren geweest kan kunnen
			zal zullen moet moeten mag wil zou zouden hij ze zij ik je jij u we wij hem haar ons onze mijn
			jouw uw hun wat wie waar wanneer waarom hoe welke welk dit deze dan of maar om uit tot over nog
			al geen meer veel zo nu hier daar alleen men man me mij toen omdat want wel even ten der des
			den noch been he`),
	},
	{
		name:  "English",
		guess: strings.Fields("the of and to a in is that for it with as was on be by at from this are have has not but which"),
		common: wordSet(`the a an of and to in is that for it with as was on be by at from this are have has
			not but which i you he she we they me him us them my your his her its our their what where
			when why how who whom whose did does do should would could will can shall may might must
			there been were had am these those or if than then no yes all some any very too also just
			only about into out up down over after before because while`),
	},
	{
		name:  "German",
		guess: strings.Fields("der die und in den von zu das mit sich des auf für ist im nicht ein eine als auch es an dem wird"),
		common: wordSet(`der die das und ist nicht ein eine einen einem einer ich du er sie wir ihr es mit
			auf für von zu den dem des im in sich auch als an wird werden wurde hat haben sind war bei
			nach aus wie noch nur aber oder wenn dass daß schon sehr kann können muss soll will um über
			durch man mir mich dir dich uns euch seine ihre ihren unser kein keine nichts was wer wo
			warum wann welche dieser diese dieses hier dort jetzt immer waren worden also mag je
			am bin zum zur vom ins beim`),
	},
	{
		name:  "French",
		guess: strings.Fields("de la le et les des en un une du est que il dans qui pour pas au sur par ne plus avec ce se sont"),
		common: wordSet(`le la les un une des du de au aux et est sont il elle ils elles nous vous je tu on
			ce cette ces son sa ses leur leurs mon ma mes ton ta tes notre nos votre vos que qui quoi
			où quand comment pourquoi combien ne pas plus avec pour dans sur par mais ou donc car très
			aussi tout tous toute être avoir ai as avons avez ont été était fait faire peut veux sais
			suis es sommes êtes lui y en se me te moi toi qu' c' j' l' d' n' s' t' m' à chez depuis
			avant après aujourd'hui ici là trop peu beaucoup rien jamais toujours encore déjà sans
			sous vers comme oui non quel quelle vais va allez fais dit peux veut faut`),
	},
	{
		name:  "Spanish",
		guess: strings.Fields("de la que el en y los se del las un por con no una su para es al lo como más pero sus le ha"),
		common: wordSet(`el la los las un una unos unas de del al y es son está están estoy soy eres somos
			fue era ser estar hay tiene tengo tienes ha he has hemos han que qué quién quien dónde donde
			cuándo cuando cómo como por porque para con sin en sobre pero o muy más también ya no sí yo
			tú él ella nosotros ellos ellas usted ustedes me te se le lo les mi mis tu tus su sus
			nuestro nuestra este esta estos estas ese esa eso esto todo todos toda hace hacer mucho
			mucha muchos desde antes después sea algo alguna alguno cuánto nada bien aquí allí hoy
			mañana ahora siempre nunca hasta puede puedo quiero tenemos tienen vamos voy va`),
	},
}

// wordSet returns the set of the white-space separated words of s.
func wordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(s) {
		set[w] = true
	}
	return set
}

// languageNamed returns the language called name (in any case), or nil.
func languageNamed(name string) *language {
	for k := range languages {
		if strings.EqualFold(languages[k].name, name) {
			return &languages[k]
		}
	}
	return nil
}

// Foreignness is what Foreign finds in a sentence.
type Foreignness struct {
	// Counted is the number of words looked at: words with a letter,
	// less capitalised words after the first (names are unknown to a
	// model in any language) unless they are another language's common
	// words ("I").
	Counted int
	// Foreign is the number of the counted words that the model's
	// vocabulary does not know or that are common words of another
	// language and not of the model's ("in" is English and Dutch: known
	// to a Dutch model).
	Foreign int
	// Language is the other language with the most common words in the
	// sentence, at least two; "" when none has two.
	Language string
}

// Mostly reports whether most of the counted words, and at least two,
// are foreign: text in another language than the model's.
func (f Foreignness) Mostly() bool { return f.Foreign >= 2 && 2*f.Foreign > f.Counted }

// Foreign looks at how foreign a sentence's words are to a model: known
// reports whether the model's vocabulary knows a word, and lang is the
// language of its training data ("Dutch"; see GuessLanguage). A
// vocabulary alone misses English typed to a Dutch model, whose treebank
// quotes English now and then ("the", "on", "you" are known); so, when
// lang is one of the languages the package knows, the common words of the
// others count as foreign whatever the vocabulary says, and its own as
// known. With another lang or "", only the vocabulary counts. Of "What
// should I do ?" for a Dutch model it counts all four words ("I" is no
// name). Cost O(total length of words).
func Foreign(words []string, known func(string) bool, lang string) Foreignness {
	own := languageNamed(lang)
	var f Foreignness
	seen := make([]int, len(languages))
	for i, w := range words {
		if !strings.ContainsFunc(w, unicode.IsLetter) {
			continue
		}
		lower := strings.ToLower(w)
		ownWord := own != nil && own.common[lower]
		otherWord := false // a common word of another language, not of own
		for k := range languages {
			if own != nil && !ownWord && &languages[k] != own && languages[k].common[lower] {
				otherWord = true
				seen[k]++
			}
		}
		if i > 0 && !otherWord && strings.ContainsFunc(w, unicode.IsUpper) {
			continue // a name
		}
		f.Counted++
		if otherWord || !ownWord && !known(w) {
			f.Foreign++
		}
	}
	best := 1
	for k, n := range seen {
		if n > best {
			f.Language, best = languages[k].name, n
		}
	}
	return f
}

// GuessLanguage returns the language ("Dutch", "English", "German",
// "French" or "Spanish") whose frequent function words a vocabulary knows
// best, when it knows at least three quarters of them and more than of
// any other's; "" otherwise.
func GuessLanguage(known func(string) bool) string {
	best, bestN, second := -1, 0, 0
	for k, l := range languages {
		n := 0
		for _, w := range l.guess {
			if known(w) {
				n++
			}
		}
		if n > bestN {
			best, bestN, second = k, n, bestN
		} else if n > second {
			second = n
		}
	}
	if best < 0 || 4*bestN < 3*len(languages[best].guess) || bestN == second {
		return ""
	}
	return languages[best].name
}
