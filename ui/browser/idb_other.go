//go:build !js

package browser

import "github.com/discspan/discspan/ui/app"

var _ app.Store = (*Platform)(nil)

// StoreLoad finds nothing: not in a browser.
func (*Platform) StoreLoad(string) ([]byte, bool, error) { return nil, false, nil }

// StoreSave fails: not in a browser.
func (*Platform) StoreSave(string, []byte) error { return errNotBrowser }
