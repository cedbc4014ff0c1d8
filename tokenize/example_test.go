package tokenize_test

import (
	"fmt"
	"strings"

	"github.com/discspan/discspan/tokenize"
)

func ExampleWords() {
	words := tokenize.Words(`Volgens dr. J. de Vries steeg de prijs 's morgens met 4,75 pct. (o.a. door z'n auto's).`)
	fmt.Println(strings.Join(words, " | "))
	// Output:
	// Volgens | dr. | J. | de | Vries | steeg | de | prijs | 's | morgens | met | 4,75 | pct. | ( | o.a. | door | z'n | auto's | ) | .
}

func ExampleTokenize() {
	for _, tok := range tokenize.Tokenize(`Hij zei: "Kom!"`) {
		fmt.Printf("%q %d-%d\n", tok.Text, tok.Start, tok.End)
	}
	// Output:
	// "Hij" 0-3
	// "zei" 4-7
	// ":" 7-8
	// "\"" 9-10
	// "Kom" 10-13
	// "!" 13-14
	// "\"" 14-15
}

func ExampleSentences() {
	for _, s := range tokenize.Sentences(`Het kost ca. 20 euro, zei mr. Jansen. "Dat is veel." 't Is waar.`) {
		var words []string
		for _, tok := range s {
			words = append(words, tok.Text)
		}
		fmt.Println(strings.Join(words, " "))
	}
	// Output:
	// Het kost ca. 20 euro , zei mr. Jansen .
	// " Dat is veel . "
	// 't Is waar .
}

func ExampleTokenizer_english() {
	en := tokenize.Tokenizer{Lang: tokenize.English}
	fmt.Println(strings.Join(en.Words("Mr. Smith's dog doesn't bark; it's 20% quieter."), " | "))
	// Output:
	// Mr. | Smith | 's | dog | does | n't | bark | ; | it | 's | 20 | % | quieter | .
}
