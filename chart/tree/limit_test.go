package tree

import (
	"errors"
	"testing"
)

func TestCheckLength(t *testing.T) {
	for _, c := range []struct {
		name   string
		n, max int
		tooBig bool
	}{
		{"default, at the limit", DefaultMaxWords, 0, false},
		{"default, one over", DefaultMaxWords + 1, 0, true},
		{"own limit", 11, 10, true},
		{"own limit, under", 10, 10, false},
		{"no limit", 1 << 20, -1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckLength(c.n, c.max)
			var le *LengthError
			if got := errors.As(err, &le); got != c.tooBig {
				t.Fatalf("CheckLength(%d, %d) = %v", c.n, c.max, err)
			}
			if c.tooBig && le.Words != c.n {
				t.Errorf("error %v: words %d, want %d", err, le.Words, c.n)
			}
		})
	}
}
