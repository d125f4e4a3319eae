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
	"unicode/utf8"
)

// maxDepth is how many arrays and objects json.loads nests before it
// raises RecursionError: CPython's scanner enters a recursive call per
// container, bounded by the interpreter's recursion limit (1,000) less the
// frames already on the stack — 984 in τ-bench's run.py worker thread
// under CPython 3.11 (measured). The exact figure moves a little with the
// Python version and call stack. It also bounds what hostile input costs.
const maxDepth = 984

// ErrTooDeep is wrapped where json.loads raises RecursionError (the
// nesting passes maxDepth): the source's agent does not catch it, so its
// task fails; it is not a text for the customer.
var ErrTooDeep = errors.New("nesting too deep for json.loads (RecursionError)")

// Decode parses one JSON document into ordered values, keeping Python's
// int/float distinction. Trailing data is an error, as in json.loads.
// Errors carry the line and column. Like json.loads (parse_constant), a
// bare NaN, Infinity or -Infinity where a value may stand is a float.
func Decode(data []byte) (Value, error) {
	data, consts := replaceConstants(data)
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	v, err := (&decoder{d: d, data: data, consts: consts}).value(0)
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

// decoder reads one document; data is what d reads, so a string token's
// raw text can be read again (see str).
type decoder struct {
	d      *json.Decoder
	data   []byte
	consts map[int64]float64
}

// value reads one value inside depth enclosing arrays and objects.
func (dec *decoder) value(depth int) (Value, error) {
	d, consts := dec.d, dec.consts
	start := d.InputOffset()
	tok, err := d.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("unexpected end of input")
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' || t == '[' {
			if depth >= maxDepth {
				return nil, ErrTooDeep
			}
		}
		switch t {
		case '{':
			o := NewObject()
			for d.More() {
				kstart := d.InputOffset()
				kt, err := d.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is %v, want a string", kt)
				}
				k = dec.str(kstart, k)
				v, err := dec.value(depth + 1)
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
				v, err := dec.value(depth + 1)
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
	case string:
		return dec.str(start, t), nil
	case bool, nil:
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

// str is the string token that ended at the decoder's offset, read from
// start on, as json.loads reads it: encoding/json turns an escaped lone
// surrogate (\ud800) into U+FFFD, where Python keeps the code point. The
// harness keeps it as its WTF-8 bytes, which pyfmt's JSON writer escapes
// back (\ud800), so a tool or a dump sees what the source's would.
func (dec *decoder) str(start int64, s string) string {
	raw := dec.data[start:dec.d.InputOffset()]
	if !bytes.Contains(raw, []byte(`\u`)) {
		return s
	}
	q := bytes.IndexByte(raw, '"')
	if q < 0 || len(raw)-q < 2 {
		return s
	}
	return pyUnquote(raw[q+1 : len(raw)-1])
}

// pyUnquote decodes the body of a JSON string the tokenizer has already
// checked, keeping unpaired surrogates as WTF-8 (what Python's str holds).
func pyUnquote(body []byte) string {
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		switch body[i] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(body[i+1 : i+5])
			i += 4
			if r >= 0xd800 && r < 0xdc00 && i+6 < len(body) && body[i+1] == '\\' && body[i+2] == 'u' {
				if lo := hex4(body[i+3 : i+7]); lo >= 0xdc00 && lo < 0xe000 {
					out = utf8.AppendRune(out, 0x10000+(r-0xd800)<<10+(lo-0xdc00))
					i += 6
					continue
				}
			}
			if r >= 0xd800 && r < 0xe000 {
				out = append(out, byte(0xe0|r>>12), byte(0x80|(r>>6)&0x3f), byte(0x80|r&0x3f))
				continue
			}
			out = utf8.AppendRune(out, r)
		default: // " \ /
			out = append(out, body[i])
		}
	}
	return string(out)
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		}
	}
	return r
}
