package tokenize

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readCoNLLUSentences returns the words of each sentence of a CoNLL-U file
// of ../shared/data as the text has them (second field): a multi-word
// token ("1-2 am", German "an dem") as one word, without its parts, and
// no empty nodes ("1.1").
func readCoNLLUSentences(t testing.TB, name string) [][]string {
	t.Helper()
	path := filepath.Join(dataDir, "..", name)
	f := openData(t, path)
	defer f.Close()
	var sents [][]string
	var cur []string
	partsTo := 0 // the last word of the multi-word token read
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if cur != nil {
				sents = append(sents, cur)
			}
			cur, partsTo = nil, 0
			continue
		}
		id, rest, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(line, "#") || strings.Contains(id, ".") {
			continue
		}
		word, _, _ := strings.Cut(rest, "\t")
		if from, to, multi := strings.Cut(id, "-"); multi {
			if _, err := strconv.Atoi(from); err != nil {
				t.Fatalf("%s: token id %q", path, id)
			}
			n, err := strconv.Atoi(to)
			if err != nil {
				t.Fatalf("%s: token id %q", path, id)
			}
			partsTo = n
			cur = append(cur, word)
			continue
		}
		if n, err := strconv.Atoi(id); err != nil {
			t.Fatalf("%s: token id %q", path, id)
		} else if n <= partsTo {
			continue // a part of the multi-word token
		}
		cur = append(cur, word)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		sents = append(sents, cur)
	}
	return sents
}

// readLines returns the words of each line of a file of testdata.
func readLines(t testing.TB, name string) [][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var sents [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		sents = append(sents, strings.Fields(line))
	}
	return sents
}

// TestCommonWordsRare checks the word lists Foreign relies on against real
// text: in a language's treebanks, each common word of another language
// that is not one of its own occurs at most once in 2,000 words (Dutch
// quotes English now and then: "the" is one in 4,400 words of Alpino).
func TestCommonWordsRare(t *testing.T) {
	corpora := map[string][][]string{"Dutch": readExportSentences(t, "train.export")}
	suites, err := filepath.Glob(filepath.Join(dataDir, "..", "alpino-suites", "*.export"))
	if err != nil || len(suites) == 0 {
		t.Skipf("no Alpino suites beside %s (they live in ../shared/data): %v", dataDir, err)
	}
	for _, path := range suites {
		corpora["Dutch"] = append(corpora["Dutch"], readExportSentences(t, filepath.Join("..", "alpino-suites", filepath.Base(path)))...)
	}
	for _, name := range []string{"ud-german-gsd/de_gsd-ud-dev.conllu", "ud-german-gsd/de_gsd-ud-test.conllu"} {
		corpora["German"] = append(corpora["German"], readCoNLLUSentences(t, name)...)
	}
	for lang, sents := range corpora {
		own := languageNamed(lang)
		count, total := map[string]int{}, 0
		for _, s := range sents {
			for _, w := range s {
				count[strings.ToLower(w)]++
				total++
			}
		}
		if total < 20000 {
			t.Fatalf("%s: only %d words read", lang, total)
		}
		for _, other := range languages {
			if other.name == lang {
				continue
			}
			for w := range other.common {
				if !own.common[w] && count[w]*2000 > total {
					t.Errorf("%s's common word %q is one in %d words of %s text: add it to %s's list", other.name, w, total/count[w], lang, lang)
				}
			}
		}
		t.Logf("%s: %d sentences, %d words", lang, len(sents), total)
	}
}
