//go:build js

package webgpu

import "testing"

// skipSlowAdapter skips nothing in the browser, whose adapter the page
// chooses (see adapter_native_test.go).
func skipSlowAdapter(testing.TB) {}
