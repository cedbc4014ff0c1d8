package tokenize

// The treebank readers of the package's tests, for its external tests.
var (
	ReadExportSentences = readExportSentences
	ReadCoNLLUSentences = readCoNLLUSentences
	ReadLines           = readLines
)
