package weights

import "errors"

// Kinds of loading error. Every error returned by Read, ReadFile and
// ReadMeta is an *Error that matches (errors.Is) exactly one of these.
var (
	ErrTruncated = errors.New("truncated")               // file shorter than its header says
	ErrHeader    = errors.New("bad header")              // header length, JSON or structure
	ErrDType     = errors.New("bad dtype")               // unknown or unsupported dtype
	ErrLayout    = errors.New("bad tensor layout")       // offsets overlap, leave gaps, run backwards; size does not match shape
	ErrTensors   = errors.New("tensors do not match")    // missing, unexpected or mis-shaped tensors vs the config
	ErrMeta      = errors.New("bad metadata")            // missing or malformed metadata
	ErrNewer     = errors.New("newer format version")    // written by a newer discspan
	ErrChecksum  = errors.New("checksum mismatch")       // tensors_sha256 or metadata_sha256
	ErrValue     = errors.New("non-finite value")        // NaN or Inf in a tensor or a scale
	ErrVocab     = errors.New("vocabulary inconsistent") // vocab sizes differ from the config
)

// Error is a loading error: what is wrong with which file.
type Error struct {
	Name   string // the file name given to Read, or the path
	Kind   error  // one of the Err* kinds
	Detail string // what is wrong, exactly
	Err    error  // underlying error (I/O, JSON), or nil
}

func (e *Error) Error() string { return "weights: " + e.Name + ": " + e.Detail }

// Unwrap returns the kind and the underlying error.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}
