package taubench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// maxDepth bounds nesting so hostile input cannot exhaust memory.
const maxDepth = 200

// Decode parses one JSON document into ordered values, keeping Python's
// int/float distinction. Trailing data is an error, as in json.loads.
// Errors carry the line and column. Like json.loads (parse_constant), a
// bare NaN, Infinity or -Infinity where a value may stand is a float.
func Decode(data []byte) (Value, error) {
	data, consts := replaceConstants(data)
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	v, err := decodeValue(d, 0, consts)
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

// replaceConstants swaps each NaN, Infinity and -Infinity outside strings
// for " 0 " (encoding/json knows no such tokens) and returns, by the offset
// just after each stand-in's digit, the float it stands for. The spaces
// keep a stand-in from joining a neighbouring token: where Python's
// scanner rejects the constant (after a digit, say), the decoder rejects
// the stand-in too.
func replaceConstants(data []byte) ([]byte, map[int64]float64) {
	if !bytes.Contains(data, []byte("NaN")) && !bytes.Contains(data, []byte("Infinity")) {
		return data, nil
	}
	out := make([]byte, 0, len(data)+8)
	consts := map[int64]float64{}
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			out = append(out, c)
			switch c {
			case '\\':
				if i+1 < len(data) {
					i++
					out = append(out, data[i])
				}
			case '"':
				inString = false
			}
			continue
		}
		var f float64
		n := 0
		switch {
		case c == '"':
			inString = true
		case bytes.HasPrefix(data[i:], []byte("NaN")):
			f, n = math.NaN(), 3
		case bytes.HasPrefix(data[i:], []byte("Infinity")):
			f, n = math.Inf(1), 8
		case bytes.HasPrefix(data[i:], []byte("-Infinity")):
			f, n = math.Inf(-1), 9
		}
		if n == 0 {
			out = append(out, c)
			continue
		}
		out = append(out, ' ', '0')
		consts[int64(len(out))] = f
		out = append(out, ' ')
		i += n - 1
	}
	return out, consts
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

func decodeValue(d *json.Decoder, depth int, consts map[int64]float64) (Value, error) {
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
				v, err := decodeValue(d, depth+1, consts)
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
				v, err := decodeValue(d, depth+1, consts)
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
		if f, ok := consts[d.InputOffset()]; ok && t == "0" {
			return Float(f), nil
		}
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
