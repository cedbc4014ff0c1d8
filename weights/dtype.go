package weights

import "fmt"

// DType is the element type the weights are stored in. The zero value is
// not a valid DType.
type DType int

const (
	Float32 DType = iota + 1 // "F32": IEEE 754 binary32, exact
	Float16                  // "F16": IEEE 754 binary16, round to nearest even
	Int8                     // "I8": symmetric int8 with one float32 scale per row
	// Int4 ("I4", the file's dtype: no safetensors dtype has 4 bits) stores
	// every matrix (a tensor of rank 2 or more) as symmetric 4-bit values
	// with one float32 scale per row, two a byte in a U8 tensor (see
	// quant.go), and every vector (rank 0 or 1: biases) as Int8. It holds
	// about half the bytes of Int8, and loses more: dev F1 of the order
	// of 0.1 (docs/model-experiments.md).
	Int4
)

// DefaultDType is the type the product ships its models in: Float16 halves
// the file (the Tiny preset with a 6.7k-word vocabulary takes 4.04 MB; in
// Float32 8.01 MB, just over the 8 MB budget) and changes span scores by a
// few thousandths.
const DefaultDType = Float16

// String returns the safetensors name of the type ("F32", "F16", "I8").
func (d DType) String() string {
	switch d {
	case Float32:
		return "F32"
	case Float16:
		return "F16"
	case Int8:
		return "I8"
	case Int4:
		return "I4"
	}
	return fmt.Sprintf("DType(%d)", int(d))
}

// ParseDType returns the DType of a name ("F32", "F16", "I8", "I4"); the
// lower-case names "float32", "float16", "int8" and "int4" are accepted
// too.
func ParseDType(s string) (DType, error) {
	switch s {
	case "F32", "float32":
		return Float32, nil
	case "F16", "float16":
		return Float16, nil
	case "I8", "int8":
		return Int8, nil
	case "I4", "int4":
		return Int4, nil
	}
	return 0, fmt.Errorf("weights: unknown dtype %q (want F32, F16, I8 or I4)", s)
}

func (d DType) valid() bool { return d >= Float32 && d <= Int4 }

// tensorElemSize returns the bytes of one element of a tensor stored with
// safetensors dtype name (one the reader reads: F32, F16, I8, U8), or 0.
func tensorElemSize(name string) int {
	switch name {
	case "F32":
		return 4
	case "F16":
		return 2
	case "I8", "U8":
		return 1
	}
	return 0
}

// knownDType reports whether name is a dtype of the safetensors
// specification. Only F32, F16, I8 and U8 (Int4's packed values) are read;
// the others are "unsupported" rather than "unknown".
func knownDType(name string) bool {
	switch name {
	case "BOOL", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0", "F4", "F6_E2M3", "F6_E3M2",
		"I16", "U16", "F16", "BF16", "I32", "U32", "F32", "I64", "U64", "F64", "C64":
		return true
	}
	return false
}
