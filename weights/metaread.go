package weights

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/discspan/discspan/network"
)

// metaProblem returns a metadata error of the given kind.
func metaProblem(kind error, err error, format string, args ...any) *Error {
	return &Error{Kind: kind, Detail: fmt.Sprintf(format, args...), Err: err}
}

// decodeMeta checks and decodes the metadata entries.
func decodeMeta(kv map[string]string) (Meta, DType, string, *Error) {
	var m Meta
	get := func(key string) (string, *Error) {
		v, ok := kv[key]
		if !ok {
			return "", metaProblem(ErrMeta, nil, "metadata has no %q entry", key)
		}
		return v, nil
	}
	format, e := get(keyFormat)
	if e != nil {
		e.Detail += " (not a discspan weights file)"
		return m, 0, "", e
	}
	if format != FormatName {
		return m, 0, "", metaProblem(ErrMeta, nil, "metadata format is %q, want %q (not a discspan weights file)", format, FormatName)
	}
	vs, e := get(keyFormatVersion)
	if e != nil {
		return m, 0, "", e
	}
	version, err := strconv.Atoi(vs)
	switch {
	case err != nil || version < 1:
		return m, 0, "", metaProblem(ErrMeta, nil, "metadata format_version is %q, want a positive integer", vs)
	case version > FormatVersion:
		return m, 0, "", metaProblem(ErrNewer, nil,
			"format_version %d: written by a newer discspan (this one reads version %d); upgrade discspan to load it", version, FormatVersion)
	}
	sum, e := get(keyMetadataSHA256)
	if e != nil {
		return m, 0, "", e
	}
	if want := metadataSHA256(kv); sum != want {
		return m, 0, "", metaProblem(ErrChecksum, nil, "corrupt: metadata checksum mismatch (metadata_sha256 is %q, the metadata hashes to %s)", sum, want)
	}
	ds, e := get(keyDType)
	if e != nil {
		return m, 0, "", e
	}
	dt, err := ParseDType(ds)
	if err != nil || ds != dt.String() {
		return m, 0, "", metaProblem(ErrDType, nil, "metadata dtype is %q, want F32, F16, I8 or I4", ds)
	}
	tensorsSHA, e := get(keyTensorsSHA256)
	if e != nil {
		return m, 0, "", e
	}
	if !isHexSHA256(tensorsSHA) {
		return m, 0, "", metaProblem(ErrMeta, nil, "metadata tensors_sha256 is %q, want 64 lower-case hex digits", tensorsSHA)
	}
	cs, e := get(keyConfig)
	if e != nil {
		return m, 0, "", e
	}
	if m.Config, e = decodeConfig(cs); e != nil {
		return m, 0, "", e
	}
	vocab, e := get(keyVocab)
	if e != nil {
		return m, 0, "", e
	}
	if m.Vocab, e = decodeVocab(vocab); e != nil {
		return m, 0, "", e
	}
	if err := checkVocab(m.Config, m.Vocab); err != nil {
		return m, 0, "", metaProblem(ErrVocab, nil, "%v", err)
	}
	if e := decodeOptional(kv, &m); e != nil {
		return m, 0, "", e
	}
	for k, v := range kv {
		if !reservedKey(k) {
			if m.Extra == nil {
				m.Extra = map[string]string{}
			}
			m.Extra[k] = v
		}
	}
	return m, dt, tensorsSHA, nil
}

// decodeMembers returns the number of models the file holds: the "members"
// entry of an ensemble (format_version 2), 1 when it is absent.
func decodeMembers(kv map[string]string) (int, *Error) {
	s, ok := kv[keyMembers]
	if !ok {
		return 1, nil
	}
	if v, _ := strconv.Atoi(kv[keyFormatVersion]); v < ensembleVersion {
		return 0, metaProblem(ErrMeta, nil, "metadata has a members entry but format_version %q (ensembles are version %d)", kv[keyFormatVersion], ensembleVersion)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 2 || n > MaxMembers {
		return 0, metaProblem(ErrMeta, err, "metadata members is %q, want an integer from 2 to %d", s, MaxMembers)
	}
	return n, nil
}

func isHexSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// decodeConfig decodes the config entry: a JSON object with exactly the
// fields of network.Config (a missing field would silently be 0).
func decodeConfig(s string) (network.Config, *Error) {
	var c network.Config
	fields, err := objectFields([]byte(s))
	if err != nil {
		return c, metaProblem(ErrMeta, err, "metadata config is not a JSON object: %v", err)
	}
	want, err := configKeys()
	if err != nil {
		return c, metaProblem(ErrMeta, err, "config keys: %v", err)
	}
	seen := map[string]bool{}
	for _, f := range fields {
		if !want[f.key] {
			return c, metaProblem(ErrMeta, nil, "metadata config has unknown field %q", f.key)
		}
		seen[f.key] = true
	}
	for k := range want {
		if !seen[k] {
			return c, metaProblem(ErrMeta, nil, "metadata config has no %q field", k)
		}
	}
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return c, metaProblem(ErrMeta, err, "metadata config: %v", err)
	}
	if err := c.Validate(); err != nil {
		return c, metaProblem(ErrMeta, err, "metadata config: %v", err)
	}
	if math.IsNaN(c.LeakySlope) || math.IsInf(c.LeakySlope, 0) {
		return c, metaProblem(ErrMeta, nil, "metadata config leaky_slope = %v, want a finite number", c.LeakySlope)
	}
	return c, nil
}

// configKeys returns the JSON field names of network.Config.
func configKeys() (map[string]bool, error) {
	b, err := json.Marshal(network.Config{})
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	keys := make(map[string]bool, len(m))
	for k := range m {
		keys[k] = true
	}
	return keys, nil
}

// decodeVocab decodes the vocab entry: a JSON object with exactly the
// fields words, chars, labels and tags (arrays of strings).
func decodeVocab(s string) (*network.Vocab, *Error) {
	fields, err := objectFields([]byte(s))
	if err != nil {
		return nil, metaProblem(ErrMeta, err, "metadata vocab is not a JSON object: %v", err)
	}
	want := map[string]bool{"words": true, "chars": true, "labels": true, "tags": true}
	for _, f := range fields {
		if !want[f.key] {
			return nil, metaProblem(ErrMeta, nil, "metadata vocab has unknown field %q", f.key)
		}
		delete(want, f.key)
	}
	for k := range want {
		return nil, metaProblem(ErrMeta, nil, "metadata vocab has no %q field", k)
	}
	v := new(network.Vocab)
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return nil, metaProblem(ErrVocab, err, "metadata vocab: %v", err)
	}
	return v, nil
}

// decodeOptional decodes the descriptive entries that are present.
func decodeOptional(kv map[string]string, m *Meta) *Error {
	m.TrainingData = kv[keyTrainingData]
	m.CreatedBy = kv[keyCreatedBy]
	floats := []struct {
		key string
		dst *float64
	}{{keyDevF1, &m.DevF1}, {keyDevDiscF1, &m.DevDiscF1}, {keyTestF1, nil}}
	for _, f := range floats {
		s, ok := kv[f.key]
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return metaProblem(ErrMeta, err, "metadata %s is %q, want a finite number", f.key, s)
		}
		if f.dst == nil {
			m.TestF1 = &v
		} else {
			*f.dst = v
		}
	}
	if s, ok := kv[keyEpochs]; ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return metaProblem(ErrMeta, err, "metadata epochs is %q, want a non-negative integer", s)
		}
		m.Epochs = n
	}
	if s, ok := kv[keyCreated]; ok {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return metaProblem(ErrMeta, err, "metadata created is %q, want an RFC 3339 time", s)
		}
		m.Created = t
	}
	return nil
}
