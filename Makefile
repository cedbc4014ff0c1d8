# discspan: exact discontinuous constituency parsing in the browser.
# `make demo` builds and serves; `make test` runs every test.

GO      ?= go
BIN     := bin
DATA    ?= ../shared/data

.PHONY: all build test vet bench bench-table demo fuzz clean

all: build

build:
	$(GO) build -o $(BIN)/discspan ./cmd/discspan

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || (echo "gofmt needed:"; gofmt -l .; exit 1)
	$(GO) vet ./...

test: vet
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -tags purego ./chart/decode

# Go benchmarks of the decoders (see also bench-table).
bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./chart/decode

# The README's decoder table: every variant side by side with the C++ figures.
bench-table: build
	GOMAXPROCS=1 $(BIN)/discspan bench decode --table --runs 5

# Until the browser app lands (issue 5), the demo runs the command-line tool
# on the Alpino dev set: coverage of two decoder variants and an evaluation.
demo: build
	$(BIN)/discspan coverage --variant n3,n5 $(DATA)/alpino-cdb/dev.punctmoved.discbracket
	$(BIN)/discspan eval $(DATA)/alpino-cdb/dev.export $(DATA)/alpino-cdb/dev.punctmoved.discbracket

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzReadExport -fuzztime 30s ./chart/treebank
	$(GO) test -run '^$$' -fuzz FuzzReadDiscbracket -fuzztime 30s ./chart/treebank
	$(GO) test -run '^$$' -fuzz FuzzReadPTB -fuzztime 30s ./chart/treebank

clean:
	rm -rf $(BIN)
