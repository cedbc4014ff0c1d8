package tokenize

// Token is one token of the input: its text and where it lies, as byte
// offsets into the string that was tokenized, so that Text equals
// input[Start:End].
type Token struct {
	Text       string
	Start, End int
}

// Language selects the conventions for apostrophes and clitics.
type Language int

const (
	// Dutch follows the Alpino treebank: apostrophes inside a word stay in
	// it ("auto's", "Smit's", "z'n", "d'r"), and only the English
	// contractions that cannot be Dutch are split ("don't", "I'm", "it's").
	Dutch Language = iota
	// English follows the Penn Treebank: clitics and the possessive are
	// split off ("John" "'s", "do" "n't", "students" "'"), and so are
	// currency signs and percent signs ("$" "5", "20" "%").
	English
)

// String returns the language's name.
func (l Language) String() string {
	switch l {
	case Dutch:
		return "Dutch"
	case English:
		return "English"
	}
	return "Language(?)"
}

// Tokenizer tokenizes text by the conventions of one language. The zero
// value tokenizes Dutch. A Tokenizer holds no state between calls and may be
// used from several goroutines at once.
type Tokenizer struct {
	Lang Language
}

// Tokenize splits text into tokens. Token texts are slices of text: nothing
// is normalised, white space only separates.
func (t Tokenizer) Tokenize(text string) []Token {
	s := scanner{lang: t.Lang, text: text, toks: make([]Token, 0, len(text)/5+1)}
	s.run()
	return s.toks
}

// Sentences tokenizes text and groups the tokens into sentences (see the
// package documentation for where sentences end).
func (t Tokenizer) Sentences(text string) [][]Token {
	return splitSentences(t.Lang, text, t.Tokenize(text))
}

// Words returns the token texts of line.
func (t Tokenizer) Words(line string) []string {
	toks := t.Tokenize(line)
	words := make([]string, len(toks))
	for i, tok := range toks {
		words[i] = tok.Text
	}
	return words
}

// Tokenize splits text into tokens by the Dutch (Alpino) conventions.
func Tokenize(text string) []Token { return Tokenizer{}.Tokenize(text) }

// Sentences splits text into sentences of tokens by the Dutch conventions.
func Sentences(text string) [][]Token { return Tokenizer{}.Sentences(text) }

// Words returns the token texts of line by the Dutch conventions.
func Words(line string) []string { return Tokenizer{}.Words(line) }
