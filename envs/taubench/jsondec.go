package taubench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
)

// maxDepth bounds nesting so hostile input cannot exhaust memory.
const maxDepth = 200

// Decode parses one JSON document into ordered values, keeping Python's
// int/float distinction. Trailing data is an error, as in json.loads.
// Errors carry the line and column.
func Decode(data []byte) (Value, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	v, err := decodeValue(d, 0)
	if err == nil {
		if _, terr := d.Token(); terr != io.EOF {
			err = errors.New("extra data after the JSON value")
		}
	}
	if err != nil {
		line, col := lineCol(data, d.InputOffset())
		return nil, fmt.Errorf("line %d col %d: %w", line, col, err)
	}
	return v, nil
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	prefix := data[:off]
	line := bytes.Count(prefix, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(prefix, '\n')
	return line, col
}

func decodeValue(d *json.Decoder, depth int) (Value, error) {
	if depth > maxDepth {
		return nil, errors.New("nesting too deep")
	}
	tok, err := d.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("unexpected end of input")
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := NewObject()
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is %v, want a string", kt)
				}
				v, err := decodeValue(d, depth+1)
				if err != nil {
					return nil, err
				}
				o.Set(k, v)
			}
			if _, err := d.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			arr := []Value{}
			for d.More() {
				v, err := decodeValue(d, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := d.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		default:
			return nil, fmt.Errorf("unexpected %q", rune(t))
		}
	case json.Number:
		return parseNumber(string(t))
	case string, bool, nil:
		return t, nil
	default:
		return nil, fmt.Errorf("unexpected token %v", tok)
	}
}

// parseNumber follows json.loads: no '.', 'e' or 'E' means int.
func parseNumber(s string) (Num, error) {
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return Int(i), nil
		}
		if b, ok := new(big.Int).SetString(s, 10); ok {
			return fromBig(b), nil // Python keeps big ints exactly
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return Num{}, fmt.Errorf("bad number %q", s)
	}
	return Float(f), nil
}
