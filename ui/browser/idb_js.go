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

// keyRange returns the IndexedDB key range of the keys that begin with
// prefix (keys are strings, compared by UTF-16 code units).
func keyRange(prefix string) js.Value {
	return js.Global().Get("IDBKeyRange").Call("bound", prefix, prefix+"\uffff")
}

// StoreRead implements app.Store with one read-only IndexedDB
// transaction, so that what it returns is one consistent state.
func (p *Platform) StoreRead(key, prefix string) (map[string][]byte, error) {
	db, err := idbOpen()
	if err != nil {
		return nil, err
	}
	defer db.Call("close")
	tx := db.Call("transaction", idbStore, "readonly")
	objects := tx.Call("objectStore", idbStore)
	one := objects.Call("get", key)
	keys := objects.Call("getAllKeys", keyRange(prefix))
	values := objects.Call("getAll", keyRange(prefix))
	if _, err := idbWait(tx, "complete", "error", "abort"); err != nil {
		return nil, fmt.Errorf("reading %s from IndexedDB: %w", key, err)
	}
	out := map[string][]byte{}
	if v := one.Get("result"); v.Type() == js.TypeString {
		out[key] = []byte(v.String())
	}
	ks, vs := keys.Get("result"), values.Get("result")
	for i := range ks.Length() {
		if v := vs.Index(i); v.Type() == js.TypeString {
			out[ks.Index(i).String()] = []byte(v.String())
		}
	}
	return out, nil
}

// StoreUpdate implements app.Store with one read-write IndexedDB
// transaction: decide is called from the listing's success event, while
// the transaction is active, and its writes join the transaction. It
// returns once the transaction has committed.
func (p *Platform) StoreUpdate(prefix string, decide app.StoreDecision) (err error) {
	db, err := idbOpen()
	if err != nil {
		return err
	}
	defer db.Call("close")
	tx := db.Call("transaction", idbStore, "readwrite")
	objects := tx.Call("objectStore", idbStore)
	list := objects.Call("getAllKeys", keyRange(prefix))
	var decideErr error
	onList := js.FuncOf(func(js.Value, []js.Value) any {
		defer func() {
			if r := recover(); r != nil {
				decideErr = fmt.Errorf("saving to IndexedDB: %v", r)
				tx.Call("abort")
			}
		}()
		res := list.Get("result")
		keys := make([]string, res.Length())
		for i := range keys {
			keys[i] = res.Index(i).String()
		}
		puts, deletes, err := decide(keys)
		if err != nil {
			decideErr = err
			tx.Call("abort")
			return nil
		}
		for _, k := range deletes {
			objects.Call("delete", k)
		}
		for k, v := range puts {
			objects.Call("put", string(v), k)
		}
		return nil
	})
	defer onList.Release()
	list.Set("onsuccess", onList)
	// A full quota aborts the transaction without an error event: wait for
	// abort too, or the save would never end.
	_, err = idbWait(tx, "complete", "error", "abort")
	if decideErr != nil {
		return decideErr // the transaction was aborted for it
	}
	if err != nil {
		return fmt.Errorf("saving to IndexedDB: %w", err)
	}
	return nil
}

var _ app.PersistentStore = (*Platform)(nil)

// StorePersist implements app.PersistentStore with the Storage API:
// navigator.storage.persisted, else navigator.storage.persist (which a
// browser may grant, refuse, or ask the user about).
func (p *Platform) StorePersist() (bool, error) {
	st := js.Global().Get("navigator").Get("storage")
	if !st.Truthy() || st.Get("persist").Type() != js.TypeFunction {
		return false, errors.New("it cannot be asked to keep it")
	}
	if v, err := await(st.Call("persisted")); err == nil && v.Type() == js.TypeBoolean && v.Bool() {
		return true, nil
	}
	v, err := await(st.Call("persist"))
	if err != nil {
		return false, fmt.Errorf("asking it to keep it: %w", err)
	}
	return v.Type() == js.TypeBoolean && v.Bool(), nil
}
