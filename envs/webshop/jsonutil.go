package webshop

import (
	"bytes"
	"encoding/json"
	"fmt"
)

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// optString decodes a string that may be absent or null.
func optString(raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", err
	}
	return s, nil
}

// stringOrList decodes a string or a list of strings (small_description
// is either); a lone string becomes a one-element list.
func stringOrList(raw json.RawMessage) ([]string, error) {
	if isNull(raw) {
		return []string{""}, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("want a string or a list of strings")
	}
	return []string{s}, nil
}

// orderedObject splits a JSON object into its keys and raw values in file
// order (Go maps forget it).
func orderedObject(raw json.RawMessage) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("want an object")
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, ok := tok.(string)
		if !ok {
			return nil, nil, fmt.Errorf("want an object key")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, fmt.Errorf("key %q: %w", k, err)
		}
		keys = append(keys, k)
		vals = append(vals, v)
	}
	return keys, vals, nil
}

// arrayElems splits a JSON array into raw elements with the line each
// starts on, so errors can name the line.
func arrayElems(data []byte) ([]json.RawMessage, []int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, fmt.Errorf("line %d: %w", lineAt(data, dec.InputOffset()), err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, nil, fmt.Errorf("line 1: want a JSON array")
	}
	var elems []json.RawMessage
	var lines []int
	for dec.More() {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, fmt.Errorf("line %d: element %d: %w", lineAt(data, dec.InputOffset()), len(elems), err)
		}
		end := int(dec.InputOffset())
		start := end - len(v)
		elems = append(elems, v)
		lines = append(lines, lineAt(data, int64(start)))
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, fmt.Errorf("line %d: %w", lineAt(data, dec.InputOffset()), err)
	}
	return elems, lines, nil
}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}
