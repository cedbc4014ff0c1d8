package weights

import (
	"fmt"
	"slices"
	"strings"

	"github.com/discspan/discspan/network"
)

// maxProblems is the number of tensor problems an error lists.
const maxProblems = 4

// want is one tensor the configuration requires.
type want struct {
	name  string
	dtype string
	shape []int
}

// wanted lists the stored tensors of one member (names prefixed with
// prefix) the configuration requires for dt, in network.Params order (for
// Int8 and Int4 each parameter is followed by its scale; Int4 stores
// matrices as U8, two values a byte).
func wanted(shapes []network.TensorShape, prefix string, dt DType) []want {
	var out []want
	for _, t := range shapes {
		switch {
		case dt == Int4 && int4Matrix(t.Shape):
			out = append(out, want{prefix + t.Name, "U8", int4Shape(t.Shape)})
		case dt == Int4:
			out = append(out, want{prefix + t.Name, "I8", t.Shape})
		default:
			out = append(out, want{prefix + t.Name, dt.String(), t.Shape})
		}
		if dt == Int8 || dt == Int4 {
			r, _ := rows(t.Shape)
			out = append(out, want{prefix + t.Name + scaleSuffix, "F32", []int{r}})
		}
	}
	return out
}

// minDataBytes is the least data a file of dtype dt holds for params
// parameters: 4, 2 or 1 bytes each, or half a byte (Int4's matrices; its
// vectors and every scale add more).
func minDataBytes(params int64, dt DType) int64 {
	switch dt {
	case Float32:
		return 4 * params
	case Float16:
		return 2 * params
	case Int4:
		return params / 2
	}
	return params
}

// checkTensors compares the tensors of the header with those the
// configuration requires for each of the h.members members: every one
// present with its shape and dtype, and no other. It returns zero
// parameters of the configuration for each member that keep keeps, nil
// for the others (no memory is spent on a member that will not be read).
func checkTensors(h *header, dataLen int64, keep func(member int) bool) ([]*network.Params, *Error) {
	c := h.meta.Config
	if n := int64(c.NumParams()) * int64(h.members); minDataBytes(n, h.dtype) > dataLen+1<<24 {
		// Do not allocate parameters for a configuration that cannot fit.
		return nil, problem(ErrTensors, nil, "config wants %d parameters (%s), the data section holds only %d bytes", n, h.dtype, dataLen)
	}
	// The names and shapes every member's tensors must have (not
	// allocated: 20 MB of zeros for the shipped pair's header once).
	shapes, err := c.TensorShapes()
	if err != nil {
		return nil, problem(ErrMeta, err, "metadata config: %v", err)
	}
	members := make([]*network.Params, h.members)
	var want []want
	for k := range h.members {
		want = append(want, wanted(shapes, memberPrefix(k, h.members), h.dtype)...)
	}
	var problems []string
	known := map[string]bool{}
	for _, w := range want {
		known[w.name] = true
		t, ok := h.tensors[w.name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("missing tensor %q (config wants %s %v)", w.name, w.dtype, w.shape))
		case !slices.Equal(t.shape, w.shape):
			problems = append(problems, fmt.Sprintf("tensor %q has shape %v, config wants %v", w.name, t.shape, w.shape))
		case t.dtype != w.dtype:
			problems = append(problems, fmt.Sprintf("tensor %q has dtype %s, want %s (metadata dtype is %s)", w.name, t.dtype, w.dtype, h.dtype))
		}
	}
	var extra []string
	for name := range h.tensors {
		if !known[name] {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, name := range extra {
		problems = append(problems, fmt.Sprintf("unexpected tensor %q (not in the config)", name))
	}
	if len(problems) == 0 {
		for k := range members {
			if !keep(k) {
				continue
			}
			if members[k], err = network.NewParams(c); err != nil {
				return nil, problem(ErrMeta, err, "metadata config: %v", err)
			}
		}
		return members, nil
	}
	detail := strings.Join(problems[:min(len(problems), maxProblems)], "; ")
	if len(problems) > maxProblems {
		detail += fmt.Sprintf("; and %d more tensor problems", len(problems)-maxProblems)
	}
	return nil, problem(ErrTensors, nil, "%s", detail)
}
