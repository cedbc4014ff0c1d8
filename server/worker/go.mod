module github.com/discspan/discspan/server/worker

go 1.27.3

require (
	github.com/discspan/discspan v0.0.0-00010101000000-000000000000
	github.com/syumai/workers v0.32.0
)

require (
	github.com/ebitengine/purego v0.11.3 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/schollz/progressbar/v3 v3.18.0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/sys v0.44.0 // indirect
	golang.org/x/term v0.28.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)

// The worker builds against the discspan module of this checkout.
replace github.com/discspan/discspan => ../..
