package weights

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// field is one member of a JSON object, in document order.
type field struct {
	key string
	raw json.RawMessage
}

// objectFields splits a JSON object into its members, in order, rejecting
// anything but an object and duplicate keys (JSON decoders disagree on which
// duplicate wins, so the safetensors specification forbids them). Keys are
// compared exactly, unlike encoding/json's case-insensitive field matching.
// Surrounding JSON whitespace is allowed.
func objectFields(data []byte) ([]field, error) {
	if err := validJSON(data); err != nil {
		return nil, err
	}
	return splitObject(data)
}

// splitObject is objectFields for data known to be valid JSON (a whole
// checked header, or a value inside one): the scan only has to find where
// each member starts and ends.
func splitObject(data []byte) ([]field, error) {
	i := skipSpace(data, 0)
	if data[i] != '{' {
		return nil, fmt.Errorf("want a JSON object, got %s", clip(bytes.TrimSpace(data)))
	}
	var out []field
	seen := map[string]bool{}
	i = skipSpace(data, i+1)
	for data[i] != '}' {
		end := valueEnd(data, i)
		key, err := jsonStringValue(data[i:end])
		if err != nil {
			return nil, err // cannot happen in valid JSON
		}
		if seen[key] {
			return nil, fmt.Errorf("duplicate key %q", key)
		}
		seen[key] = true
		i = skipSpace(data, skipSpace(data, end)+1) // past ':'
		end = valueEnd(data, i)
		out = append(out, field{key, json.RawMessage(data[i:end])})
		i = skipSpace(data, end)
		if data[i] == ',' {
			i = skipSpace(data, i+1)
		}
	}
	return out, nil
}

// jsonStringValue decodes a valid JSON string (the common case of no escape
// without encoding/json).
func jsonStringValue(raw []byte) (string, error) {
	if len(raw) >= 2 && raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// skipSpace returns the index of the first non-whitespace byte at or after
// i (len(data) if none).
func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the end of the JSON value starting at data[i], which is
// valid JSON.
func valueEnd(data []byte, i int) int {
	depth, inString := 0, false
	for j := i; j < len(data); j++ {
		c := data[j]
		switch {
		case inString:
			if c == '\\' {
				j++
			} else if c == '"' {
				inString = false
				if depth == 0 {
					return j + 1
				}
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return j // end of a literal at the end of its container
			}
			depth--
			if depth == 0 {
				return j + 1
			}
		case depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return j // end of a literal
		}
	}
	return len(data)
}

// jsonString returns the JSON encoding of s, without encoding/json's HTML
// escaping (so "<unk>" stays readable in the header).
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err) // a string always encodes
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// jsonCompact returns the JSON encoding of v without HTML escaping.
func jsonCompact(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
