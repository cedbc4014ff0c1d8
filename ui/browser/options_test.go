package browser

import (
	"testing"

	"github.com/discspan/discspan/ui/app"
)

func TestParseQuery(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        PageOptions
	}{
		{"empty", "", PageOptions{Worker: true}},
		{"all", "backend=webgpu&model=big&variant=n5&s=De+kat+slaapt+.&worker=0",
			PageOptions{App: app.Options{Backend: "webgpu", Model: "big", Variant: "n5", Text: "De kat slaapt ."}}},
		{"cpu", "backend=cpu", PageOptions{App: app.Options{Backend: "cpu"}, Worker: true}},
		{"bad backend", "backend=cuda", PageOptions{Worker: true}},
		{"serial ensemble", "workers=1", PageOptions{App: app.Options{Workers: 1}, Worker: true}},
		{"a worker per model", "workers=2", PageOptions{App: app.Options{Workers: 2}, Worker: true}},
		{"bad workers", "workers=0&x=1", PageOptions{Worker: true}},
		{"workers not a number", "workers=all", PageOptions{Worker: true}},
		{"malformed", "%zz&backend=cpu", PageOptions{App: app.Options{Backend: "cpu"}, Worker: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ParseQuery(tc.query); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
