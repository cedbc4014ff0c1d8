//go:build js

package browser

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/discspan/discspan/ui/app"
)

// The annotation project is kept in IndexedDB: database idbName, object
// store idbStore, values as strings under their keys.
const (
	idbName    = "discspan"
	idbVersion = 1
	idbStore   = "kv"
)

var _ app.Store = (*Platform)(nil)

// idbWait waits for an IndexedDB request (or transaction, with the events
// named ok and fail, and more failure events in moreFail) and returns its
// result. It blocks: call it from a goroutine, never from a JavaScript
// callback.
func idbWait(target js.Value, ok, fail string, moreFail ...string) (js.Value, error) {
	type outcome struct {
		v   js.Value
		err error
	}
	done := make(chan outcome, 2+len(moreFail))
	onOK := js.FuncOf(func(js.Value, []js.Value) any {
		var v js.Value
		if r := target.Get("result"); !r.IsUndefined() {
			v = r
		}
		done <- outcome{v: v}
		return nil
	})
	onFail := js.FuncOf(func(js.Value, []js.Value) any {
		msg := "IndexedDB request failed"
		if e := target.Get("error"); e.Truthy() {
			msg = jsError(e)
			if e.Get("name").String() == "QuotaExceededError" {
				msg = "the browser's storage for this site is full (" + msg + ")"
			}
		}
		done <- outcome{err: errors.New(msg)}
		return nil
	})
	defer onOK.Release()
	defer onFail.Release()
	events := append([]string{ok, fail}, moreFail...)
	for i, ev := range events {
		if i == 0 {
			target.Set("on"+ev, onOK)
		} else {
			target.Set("on"+ev, onFail)
		}
	}
	// A later event (abort after error) must not call a released function.
	defer func() {
		for _, ev := range events {
			target.Set("on"+ev, js.Null())
		}
	}()
	o := <-done
	return o.v, o.err
}

// idbOpen opens the database, creating its object store the first time.
func idbOpen() (js.Value, error) {
	idb := js.Global().Get("indexedDB")
	if !idb.Truthy() {
		return js.Value{}, errors.New("this browser has no IndexedDB")
	}
	req := idb.Call("open", idbName, idbVersion)
	upgrade := js.FuncOf(func(js.Value, []js.Value) any {
		db := req.Get("result")
		if !db.Get("objectStoreNames").Call("contains", idbStore).Bool() {
			db.Call("createObjectStore", idbStore)
		}
		return nil
	})
	defer upgrade.Release()
	req.Set("onupgradeneeded", upgrade)
	db, err := idbWait(req, "success", "error")
	if err != nil {
		return js.Value{}, fmt.Errorf("opening IndexedDB: %w", err)
	}
	return db, nil
}

// StoreLoad implements app.Store with IndexedDB.
func (p *Platform) StoreLoad(key string) ([]byte, bool, error) {
	db, err := idbOpen()
	if err != nil {
		return nil, false, err
	}
	defer db.Call("close")
	req := db.Call("transaction", idbStore, "readonly").Call("objectStore", idbStore).Call("get", key)
	v, err := idbWait(req, "success", "error")
	if err != nil {
		return nil, false, fmt.Errorf("reading %s from IndexedDB: %w", key, err)
	}
	if v.Type() != js.TypeString {
		return nil, false, nil
	}
	return []byte(v.String()), true, nil
}

// StoreSave implements app.Store with IndexedDB; it returns once the
// transaction has committed.
func (p *Platform) StoreSave(key string, data []byte) error {
	db, err := idbOpen()
	if err != nil {
		return err
	}
	defer db.Call("close")
	tx := db.Call("transaction", idbStore, "readwrite")
	tx.Call("objectStore", idbStore).Call("put", string(data), key)
	// A full quota aborts the transaction without an error event: wait for
	// abort too, or the save would never end.
	if _, err := idbWait(tx, "complete", "error", "abort"); err != nil {
		return fmt.Errorf("saving %s to IndexedDB: %w", key, err)
	}
	return nil
}
