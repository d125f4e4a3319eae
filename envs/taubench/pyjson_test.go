package taubench

import (
	"errors"
	"strings"
	"testing"
)

// TestDecodeAsJSONLoads: nesting up to json.loads's limit decodes, past it
// is ErrTooDeep (and ParseAction an error, not a reply to the customer);
// lone surrogates keep their code point and dump back as Python's escape.
func TestDecodeAsJSONLoads(t *testing.T) {
	nest := func(d int) string { return strings.Repeat("[", d) + strings.Repeat("]", d) }
	if _, err := Decode([]byte(nest(maxDepth))); err != nil {
		t.Errorf("%d nested arrays: %v", maxDepth, err)
	}
	if _, err := Decode([]byte(nest(maxDepth + 1))); !errors.Is(err, ErrTooDeep) {
		t.Errorf("%d nested arrays: %v, want ErrTooDeep", maxDepth+1, err)
	}
	if _, err := ParseAction("Action: " + nest(1200)); !errors.Is(err, ErrTooDeep) {
		t.Errorf("ParseAction on 1,200 nested arrays: %v, want ErrTooDeep", err)
	}
	if a, err := ParseAction("Action: " + strings.Repeat("[", 500)); err != nil || a.Name != Respond {
		t.Errorf("unterminated 500 arrays: %+v %v, want a reply (JSONDecodeError)", a, err)
	}
	for in, want := range map[string]string{
		`"\ud800"`:             `"\ud800"`,
		`"a\udfffb"`:           `"a\udfffb"`,
		`"\ud83d\ude00"`:       `"\ud83d\ude00"`,
		`"\udc00\ud800"`:       `"\udc00\ud800"`,
		`{"\ud800": "\u00e9"}`: `{"\ud800": "\u00e9"}`,
		`"\ud800\u0041\n"`:     `"\ud800A\n"`,
	} {
		v, err := Decode([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := Dumps(v); got != want {
			t.Errorf("Dumps(Decode(%s)) = %s, want %s", in, got, want)
		}
	}
}
