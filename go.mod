module github.com/discspan/discspan

go 1.27.3

require (
	github.com/chromedp/cdproto v0.0.0-20250724212937-08a3db8b4327
	github.com/chromedp/chromedp v0.14.2
	github.com/cogentcore/webgpu v0.23.0
	github.com/ebitengine/purego v0.11.3
	github.com/rivo/uniseg v0.4.7
	github.com/schollz/progressbar/v3 v3.18.0
	github.com/vugu/vjson v0.0.0-20200505061711-f9cbed27d3d9
	github.com/vugu/vugu v0.4.0
	github.com/x448/float16 v0.8.4
	golang.org/x/term v0.28.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/chromedp/sysutil v1.1.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20250725192818-e39067aee2d2 // indirect
	github.com/gobwas/httphead v0.1.0 // indirect
	github.com/gobwas/pool v0.2.1 // indirect
	github.com/gobwas/ws v1.4.0 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/vugu/html v0.0.0-20190914200101-c62dc20b8289 // indirect
	github.com/vugu/xxhash v0.0.0-20191111030615-ed24d0179019 // indirect
	golang.org/x/sys v0.44.0 // indirect
)

tool github.com/vugu/vugu/cmd/vugugen
