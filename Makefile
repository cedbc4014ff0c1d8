# discspan: exact discontinuous constituency parsing in the browser.
# `make demo` builds and serves; `make test` runs every test.

GO      ?= go
# go.mod asks for go1.27.3 or newer: with GOTOOLCHAIN=auto an older go
# command fetches go1.27.3 from the module proxy once (about 76 MB), a newer
# one runs as it is. Set here whatever the environment says (these
# machines set local, which would refuse to build). go1.27.3 mends
# standard-library vulnerabilities of go1.26.8 that the server reaches
# (net/http, crypto/tls, crypto/x509; govulncheck, docs/server.md).
# Override with make GOTOOLCHAIN=...
export GOTOOLCHAIN := auto
BIN     := bin
DATA    ?= ../shared/data
# The browser app (make wasm) is assembled in WEB and served by make demo
# on ADDR with the shipped weights.
WEB     ?= build/web
ADDR    ?= 127.0.0.1:8080
WEIGHTS ?= weights/default.safetensors weights/fast.safetensors
comma   := ,
empty   :=
space   := $(empty) $(empty)

.PHONY: test-nocgo all build test vet bench bench-table demo wasm test-wasm bench-wasm bench-ort test-browser chromium vulkan fuzz clean worker test-worker bench-serve fuzz-upload

all: build

build:
	@echo "build: $(BIN)/discspan (the first build compiles every dependency and takes a few minutes; later ones take seconds)"
	$(GO) build -o $(BIN)/discspan ./cmd/discspan

vet:
	@gofmt="$$($(GO) env GOROOT)/bin/gofmt"; test -z "$$($$gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || (echo "gofmt needed:"; $$gofmt -l .; exit 1)
	$(GO) vet ./...

# Every step runs even when an earlier one fails (each is timed); the
# target fails at the end, naming the steps that failed.
TEST_STEPS := \
	"vet|$(MAKE) --no-print-directory vet" \
	"chromium|$(MAKE) --no-print-directory chromium" \
	"vulkan|$(MAKE) --no-print-directory vulkan" \
	"worker|$(MAKE) --no-print-directory test-worker" \
	"wasm kernels|$(MAKE) --no-print-directory test-wasm" \
	"go test|$(GO) test -count=1 -timeout 30m ./..." \
	"purego decode|$(GO) test -count=1 -tags purego ./chart/decode" \
	"no cgo|$(MAKE) --no-print-directory test-nocgo"

test:
	@failed=""; summary=""; \
	for step in $(TEST_STEPS); do \
		name="$${step%%|*}"; cmd="$${step#*|}"; \
		echo "== make test: $$name: $$cmd"; start=$$(date +%s); \
		if sh -c "$$cmd"; then res=ok; else res=FAILED; failed="$$failed, $$name"; fi; \
		summary="$$summary\n  $$name: $$res in $$(( $$(date +%s) - start )) s"; \
	done; \
	printf "== make test:$$summary\n"; \
	if [ -n "$$failed" ]; then echo "make test: failed: $${failed#, }"; exit 1; fi

# Builds without wgpu-native (cgo off, or a platform it has no library
# for): everything builds, and parse without a native WebGPU scores on the
# CPU and says why.
test-nocgo:
	CGO_ENABLED=0 $(GO) vet ./...
	CGO_ENABLED=0 $(GO) test -count=1 -run 'TestNoNativeWebGPU|TestWhyNotBuilt|TestParseBackend$$' ./webgpu ./cmd/discspan
	GOOS=linux GOARCH=arm64 $(GO) build -o /dev/null ./cmd/discspan

# Go benchmarks of the decoders (see also bench-table).
bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./chart/decode

# The decoder table of docs/decoders.md: every variant side by side with the C++ figures.
bench-table: build
	GOMAXPROCS=1 $(BIN)/discspan bench decode --table --runs 5

# The browser app: builds the wasm and the server, then serves the app at
# http://$(ADDR) with the shipped weights ($(WEIGHTS); the app says so when
# they are missing).
demo:
	@echo "demo: building the server ($(BIN)/discspan) and the browser app ($(WEB)), then serving it at http://$(ADDR)"
	@$(MAKE) --no-print-directory build wasm
	@for w in $(WEIGHTS); do test -e $$w || echo "demo: $$w is missing: the app will not offer it (train a model with 'discspan train', or run make demo WEIGHTS=DIR)"; done
	$(BIN)/discspan serve --addr $(ADDR) --app $(WEB) --weights $(subst $(space),$(comma),$(strip $(WEIGHTS)))

# The app's files in $(WEB): the wasm binary (page and parsing worker),
# Go's wasm_exec.js (also put in front of worker.js), the page, the service
# worker (the last two naming the build: wasm/stamp), and gzip (and, where
# the brotli tool is installed, brotli) variants that the server prefers.
# The build is made whole in $(WEB)/.next (hidden: never served), then
# moved into place file by file, the page last, so that a server serving
# $(WEB) meanwhile hands out files of two builds for milliseconds, not for
# the seconds of the build. Files that did not change are kept as they
# were, with their compressed variants, so that later runs are quick; a
# variant gets its file's time (touch -r: the server does not serve a
# variant older than its file, and some gzip and brotli versions keep the
# time to the second only).
APP_FILES := main.wasm wasm_exec.js worker.js boot.js vugu.js app.css sw.js index.html
wasm:
	@$(GO) version >/dev/null
	@echo "wasm: building the browser app in $(WEB) (the first build takes a few minutes; later ones take seconds)"
	cd ui/components && $(GO) generate .
	$(GO) generate ./network/internal/wasmsimd
	@rm -rf $(WEB)/.next && mkdir -p $(WEB)/.next
	GOOS=js GOARCH=wasm $(GO) build -trimpath -o $(WEB)/.next/main.wasm ./wasm
	cp -p "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(WEB)/.next/
	cp -p $(addprefix wasm/web/,$(filter-out main.wasm wasm_exec.js worker.js,$(APP_FILES))) $(WEB)/.next/
	@# The parsing worker's script holds wasm_exec.js: the worker fetches nothing.
	@cat "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" wasm/web/worker.js > $(WEB)/.next/worker.js
	@# The build's name (a hash of its files) in index.html and sw.js: pages
	@# ask for their files with ?b=<build>, and the service worker keeps
	@# each build's files apart.
	@build=$$($(GO) run ./wasm/stamp $(WEB)/.next) && echo "wasm: build $$build"
	@echo "wasm: compressing the changed files (gzip, and brotli where installed)"
	@cd $(WEB)/.next && for f in $(filter-out vugu.js,$(APP_FILES)); do \
		if cmp -s $$f ../$$f; then cp -p ../$$f $$f; fi; \
		if cmp -s $$f ../$$f && [ -f ../$$f.gz ] && [ ! ../$$f -nt ../$$f.gz ]; then cp -p ../$$f.gz .; else gzip -9 -k -f $$f || exit 1; fi; \
		if ! command -v brotli >/dev/null 2>&1; then :; \
		elif cmp -s $$f ../$$f && [ -f ../$$f.br ] && [ ! ../$$f -nt ../$$f.br ]; then cp -p ../$$f.br .; else brotli -f -q 11 $$f || exit 1; fi; \
		touch -r $$f $$f.gz; if [ -f $$f.br ]; then touch -r $$f $$f.br; fi; \
	done
	@cd $(WEB) && for f in $(APP_FILES); do \
		for v in $$f.gz $$f.br; do if [ -f .next/$$v ]; then mv -f .next/$$v $$v; else rm -f $$v; fi; done; \
		mv -f .next/$$f $$f || exit 1; \
	done && rm -rf .next
	@echo "wasm: $$(wc -c <$(WEB)/main.wasm) bytes, $$(wc -c <$(WEB)/main.wasm.gz) gzipped (budget 4 MB)"

# The network's wasm SIMD kernels under Node (part of make test): the
# network's tests compiled to js/wasm, run once as Go runs them (plain
# SIMD: results bit-identical to the Go code) and once with relaxed SIMD
# enabled (fused multiply-adds, as Chromium runs them; within 1e-5).
WASM_EXEC = $$($(GO) env GOROOT)/lib/wasm
test-wasm:
	@command -v node >/dev/null 2>&1 || { echo "test-wasm: node is missing: the wasm kernels are not tested"; exit 0; }; \
	set -e; \
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec "$(WASM_EXEC)/go_js_wasm_exec" -run 'Wasm|FastForward|FastBatchInvariance|FastTrainInfer|FastPrepared' ./network; \
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec "node --stack-size=8192 --experimental-wasm-relaxed-simd $(WASM_EXEC)/wasm_exec_node.js" -run 'Wasm' ./network

# The browser's scoring speed without a browser: one Tiny model, one
# 20-word sentence, with the wasm kernels and with the portable Go code,
# alternating, under Node.
bench-wasm:
	for i in 1 2 3; do GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench 'BenchmarkForwardOne_Tiny20(Portable)?$$' -benchtime 100x -exec "$(WASM_EXEC)/go_js_wasm_exec" ./network | grep ^Benchmark; done

# In-tab scoring against ONNX Runtime Web (docs/browser-app.md): installs
# the pinned onnxruntime-web in ORT_DIR (outside the repository) when it is
# missing, checks the exported ONNX model's scores against the CPU forward
# pass (under node), then runs BenchmarkBrowserORT in headless Chromium.
ORT_VERSION := 1.30.0
ORT_DIR     ?= $(HOME)/.cache/discspan/ort

bench-ort: chromium
	@grep -qs '"version": "$(ORT_VERSION)"' $(ORT_DIR)/node_modules/onnxruntime-web/package.json || { \
		command -v npm >/dev/null 2>&1 || { echo "bench-ort: npm is needed to install onnxruntime-web@$(ORT_VERSION)"; exit 1; }; \
		echo "bench-ort: installing onnxruntime-web@$(ORT_VERSION) in $(ORT_DIR)"; \
		mkdir -p $(ORT_DIR) && cd $(ORT_DIR) && npm install --no-audit --no-fund --save-exact onnxruntime-web@$(ORT_VERSION); }
	DISCSPAN_ORT_DIR=$(ORT_DIR) $(GO) test -count=1 -v -run TestORTMatchesForward ./bench/onnxexport
	DISCSPAN_ORT_DIR=$(ORT_DIR) $(GO) test -run '^$$' -bench BrowserORT -benchtime 1x ./bench/onnxexport

# The headless Chromium tests of the app alone (they are part of make test).
test-browser: chromium wasm
	DISCSPAN_WEB=$(CURDIR)/$(WEB) $(GO) test -count=1 -v -run Browser ./wasm

# Debian's Chromium for the browser tests, installed when missing.
chromium:
	@command -v chromium >/dev/null 2>&1 || (echo "installing chromium for the browser tests"; apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium) || echo "chromium: not installed; the browser tests will be skipped"

# Mesa's software Vulkan driver (lavapipe) for the WebGPU tests, installed
# when missing. Without it the webgpu package's tests skip, saying so, where
# the only adapter is Mesa's OpenGL rasteriser (which Chromium's packages
# bring): on it they take more than half an hour.
vulkan:
	@dpkg -s mesa-vulkan-drivers >/dev/null 2>&1 && dpkg -s libvulkan1 >/dev/null 2>&1 || (echo "installing mesa-vulkan-drivers for the WebGPU tests"; apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y mesa-vulkan-drivers libvulkan1) || echo "vulkan: mesa-vulkan-drivers not installed; the WebGPU tests will run only where a Vulkan driver is"

# The Cloudflare Worker (server/worker, a Go module of its own): the Go
# handler as wasm with its JavaScript glue in server/worker/build, and
# $(WEIGHTS) published as static assets in server/worker/build/assets (the
# weights stay out of the worker script: the free plan allows 3 MB
# gzipped). Run it locally with
# `cd server/worker && npx wrangler@4.80.0 dev --local` (see main.go there).
worker:
	cd server/worker && $(GO) run github.com/syumai/workers/cmd/workers-assets-gen -mode=go
	cd server/worker && GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags=-s -o build/app.wasm .
	cd server/worker && $(GO) run ./publish -o build/assets $(abspath $(WEIGHTS))
	@cd server/worker/build && echo "worker: app.wasm $$(wc -c <app.wasm) bytes, $$(gzip -c app.wasm | wc -c) gzipped (+ $$(cat worker.mjs runtime.mjs wasm_exec.js | gzip -c | wc -c) of JavaScript); limit 3 MB gzipped"

# The worker's checks (part of make test): vet for both platforms, its unit
# tests, and the test that builds it, runs it under wrangler dev --local
# (wrangler pinned in worker_test.go, installed from npm into
# ~/.cache/discspan) and checks its answers and its size. Without node and
# npm that test is skipped, saying so. The js/wasm tests (the body's
# backpressure) run under Node with what workerd would give them
# (testdata/workerd.cjs).
test-worker:
	cd server/worker && $(GO) vet ./... && GOOS=js GOARCH=wasm $(GO) vet .
	cd server/worker && $(GO) test -count=1 -v ./...
	@command -v node >/dev/null 2>&1 || { echo "test-worker: node is missing: the worker's js/wasm tests are not run"; exit 0; }; \
	echo "test-worker: the js/wasm tests under node"; \
	cd server/worker && GOOS=js GOARCH=wasm $(GO) test -count=1 -timeout 5m -v -exec "node --require $$PWD/testdata/workerd.cjs $(WASM_EXEC)/wasm_exec_node.js" .

# The load test of the server's weight downloads (200 clients, 30 s).
bench-serve: build
	$(BIN)/discspan bench serve

# Fuzzes the parsing of training uploads (POST /api/train).
fuzz-upload:
	$(GO) test -run '^$$' -fuzz '^FuzzUploadErrors$$' -fuzztime 60s ./server

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzReadExport -fuzztime 30s ./chart/treebank
	$(GO) test -run '^$$' -fuzz FuzzReadDiscbracket -fuzztime 30s ./chart/treebank
	$(GO) test -run '^$$' -fuzz FuzzReadPTB -fuzztime 30s ./chart/treebank

clean:
	rm -rf $(BIN) server/worker/build server/worker/.wrangler
