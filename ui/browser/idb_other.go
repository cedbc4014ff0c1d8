//go:build !js

package browser

import "github.com/discspan/discspan/ui/app"

var _ app.Store = (*Platform)(nil)

// StoreRead finds nothing: not in a browser.
func (*Platform) StoreRead(string, string) (map[string][]byte, error) {
	return map[string][]byte{}, nil
}

// StoreUpdate fails: not in a browser.
func (*Platform) StoreUpdate(string, app.StoreDecision) error {
	return errNotBrowser
}
