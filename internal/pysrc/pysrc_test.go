package pysrc

import (
	"strings"
	"testing"
)

func mustParse(t *testing.T, src string) *File {
	t.Helper()
	f, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f
}

func TestStringLiterals(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
		fstr, byts      bool
	}{
		{"single", `x = 'a"b'`, `a"b`, false, false},
		{"double", `x = "a'b"`, `a'b`, false, false},
		{"escapes", `x = "l1\nl2\t\\ \x41\u4e2d\U0001F600 \101"`, "l1\nl2\t\\ A中😀 A", false, false},
		{"unknown escape kept", `x = "a\db"`, `a\db`, false, false},
		{"raw", `x = r"a\nb\'"`, `a\nb\'`, false, false},
		{"raw upper prefix", `x = R'\d+'`, `\d+`, false, false},
		{"bytes", `x = b"\x41\u0041"`, `A\u0041`, false, true},
		{"raw bytes", `x = rb"\x41"`, `\x41`, false, true},
		{"unicode prefix", `x = u"中文"`, "中文", false, false},
		{"triple double", "x = \"\"\"one\n\"two\"\n\"\"\"", "one\n\"two\"\n", false, false},
		{"triple single", "x = '''a\\\nb'''", "ab", false, false},
		{"implicit concat", "x = (\"a\" 'b'\n     \"c\")", "abc", false, false},
		{"backslash continuation", "x = \"a\" \\\n    \"b\"", "ab", false, false},
		{"fstring placeholders kept", `x = f"{i}. {exp}\n"`, "{i}. {exp}\n", true, false},
		{"fstring doubled braces kept", `x = f"{{lit}} {v}"`, "{{lit}} {v}", true, false},
		{"fstring with plain part", `x = f"{a}" "{b}"`, "{a}{{b}}", true, false},
		{"fr prefix", `x = fr"\d{n}"`, `\d{n}`, true, false},
		{"format template", `x = "Hello {name}, {{x}}".format`, "", false, false},
		{"crlf in triple", "x = \"\"\"a\r\nb\"\"\"", "a\nb", false, false},
		{"annotated", `x: str = "v"`, "v", false, false},
		{"comment after", `x = "v"  # "not this"`, "v", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := mustParse(t, tc.src)
			v, ok := f.Lookup("", "x")
			if !ok {
				t.Fatalf("x not found; assigns %+v", f.Assigns)
			}
			if tc.name == "format template" {
				if v.Kind != Other || v.Expr != `"Hello {name}, {{x}}".format` {
					t.Fatalf("got %v %q", v.Kind, v.Expr)
				}
				if l := f.LiteralsIn(""); len(l) != 1 || l[0].Str != "Hello {name}, {{x}}" {
					t.Fatalf("literals %+v", l)
				}
				return
			}
			if v.Kind != Str || v.Str != tc.want || v.FString != tc.fstr || v.Bytes != tc.byts {
				t.Fatalf("got %v %q f=%v b=%v, want %q f=%v b=%v", v.Kind, v.Str, v.FString, v.Bytes, tc.want, tc.fstr, tc.byts)
			}
		})
	}
}

func TestContainersAndScopes(t *testing.T) {
	src := `
import os
TOP = ["a", "b" "c", name, 3, -1.5, ("t1", "t2"), call(x, "arg")]

class SelfPractice:
    LIMIT = 128
    def format_exp_memory(self, memory, with_proposal=0):
        lines = []
        lines.append("## Header")
        if memory["user_exp"]:
            for i, exp in enumerate(memory["user_exp"], 1):
                lines.append(f"{i}. {exp}")
        else:
            lines.append("(none)")
        return "\n".join(lines)

def build(field: str) -> str:
    table = {
        # comment inside
        "k1": "v1",
        "k2": ("v2a"
               "v2b"),
    }
    parts = [
        "role",
        user_profile_short,
        "end",
    ]
    return "\n".join(parts)

AFTER = "module again"
EMPTY = {}
SQUARES = [i * i for i in range(3)]
PAIR = "p", "q"
`
	f := mustParse(t, src)
	top, _ := f.Lookup("", "TOP")
	if top.Kind != List || len(top.Items) != 7 {
		t.Fatalf("TOP: %v with %d items", top.Kind, len(top.Items))
	}
	kinds := []Kind{Str, Str, Name, Number, Number, Tuple, Other}
	for i, k := range kinds {
		if top.Items[i].Kind != k {
			t.Errorf("TOP[%d] kind %v, want %v", i, top.Items[i].Kind, k)
		}
	}
	if top.Items[1].Str != "bc" || top.Items[2].Expr != "name" || top.Items[4].Expr != "-1.5" || top.Items[6].Expr != `call(x, "arg")` {
		t.Errorf("TOP items: %+v", top.Items)
	}
	if v, ok := f.Lookup("SelfPractice", "LIMIT"); !ok || v.Expr != "128" {
		t.Errorf("LIMIT: %+v %v", v, ok)
	}
	lits := f.LiteralsIn("SelfPractice.format_exp_memory")
	var got []string
	for _, l := range lits {
		got = append(got, l.Str)
	}
	want := []string{"## Header", "user_exp", "user_exp", "{i}. {exp}", "(none)", "\n"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("literals in method: %q, want %q", got, want)
	}
	table, ok := f.Lookup("build", "table")
	if !ok || table.Kind != Dict {
		t.Fatalf("table: %+v", table)
	}
	if v, _ := table.Get("k2"); v.Str != "v2av2b" {
		t.Errorf("table[k2] = %q", v.Str)
	}
	parts, _ := f.Lookup("build", "parts")
	if parts.Kind != List || len(parts.Items) != 3 || parts.Items[1].Kind != Name || parts.Items[1].Expr != "user_profile_short" {
		t.Errorf("parts: %+v", parts)
	}
	if _, ok := f.Lookup("", "parts"); ok {
		t.Error("parts leaked to module scope")
	}
	if v, ok := f.Lookup("", "AFTER"); !ok || v.Str != "module again" {
		t.Errorf("AFTER after dedent: %+v %v", v, ok)
	}
	if v, _ := f.Lookup("", "EMPTY"); v.Kind != Dict || len(v.Items) != 0 {
		t.Errorf("EMPTY: %+v", v)
	}
	if v, _ := f.Lookup("", "SQUARES"); v.Kind != Other || v.Expr != "[i * i for i in range(3)]" {
		t.Errorf("SQUARES: %+v", v)
	}
	if v, _ := f.Lookup("", "PAIR"); v.Kind != Tuple || len(v.Items) != 2 {
		t.Errorf("PAIR: %+v", v)
	}
	if !f.HasScope("SelfPractice.format_exp_memory") || f.HasScope("nothere") {
		t.Error("HasScope")
	}
	// Each literal is recorded once even when a display is read twice.
	n := 0
	for _, l := range f.Literals {
		if l.Value.Str == "arg" {
			n++
		}
	}
	if n != 1 {
		t.Errorf(`"arg" recorded %d times`, n)
	}
}

func TestLexErrors(t *testing.T) {
	for _, src := range []string{
		`x = "open`,
		"x = 'a\nb'",
		`x = "\N{BULLET}"`,
		`x = "\x4"`,
		"x = \"\"\"never closed",
	} {
		if _, err := Parse([]byte(src)); err == nil || !strings.Contains(err.Error(), "line ") {
			t.Errorf("Parse(%q) = %v, want an error naming the line", src, err)
		}
	}
}

func TestSplitFormat(t *testing.T) {
	ps, err := SplitFormat("a {x} {{b}} {y!r:>{w}} {obj[0]}")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range ps {
		if p.IsField {
			b.WriteString("<" + p.Field + "|" + p.Conv + "|" + p.Spec + ">")
		} else {
			b.WriteString(p.Literal)
		}
	}
	if got, want := b.String(), "a <x||> {b} <y|r|>{w}> <obj[0]||>"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, bad := range []string{"a } b", "a {b", "{"} {
		if _, err := SplitFormat(bad); err == nil {
			t.Errorf("SplitFormat(%q): no error", bad)
		}
	}
	got, err := Format("{a}-{{}}-{b}{a}", map[string]string{"a": "1", "b": "{x}"})
	if err != nil || got != "1-{}-{x}1" {
		t.Errorf("Format = %q, %v", got, err)
	}
	if _, err := Format("{missing}", nil); err == nil {
		t.Error("Format with a missing field: no error")
	}
	if fs, _ := Fields("{b} {a} {b}"); strings.Join(fs, ",") != "b,a" {
		t.Errorf("Fields = %v", fs)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`x = "a" 'b'`, "def f():\n    y = [f\"{a}\", r'\\d', b'\\x00']\n", `d = {"k": ("v" "w"), 1: [2, {3}]}`,
		"class C:\n  def m(self): return '''t\n'''\n", `x = "\u4e2d" + y`, "x = (", "x = [*a, 'b']",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse([]byte(src))
		if err != nil {
			return
		}
		for _, a := range file.Assigns {
			if a.Name == "" || a.Line < 1 {
				t.Fatalf("bad assign %+v", a)
			}
			check(t, a.Value)
		}
	})
}

// check asserts structural invariants of a value.
func check(t *testing.T, v Value) {
	if v.Kind == Dict && len(v.Keys) != len(v.Items) {
		t.Fatalf("dict with %d keys and %d values", len(v.Keys), len(v.Items))
	}
	for _, it := range v.Items {
		check(t, it)
	}
}

func FuzzSplitFormat(f *testing.F) {
	for _, s := range []string{"a {x} {{b}}", "{y!r:>{w}}", "}", "{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := SplitFormat(s)
		if err != nil {
			return
		}
		// Re-escaping the pieces gives back a template that splits the same.
		var b strings.Builder
		for _, p := range ps {
			if !p.IsField {
				b.WriteString(strings.NewReplacer("{", "{{", "}", "}}").Replace(p.Literal))
				continue
			}
			b.WriteString("{" + p.Field)
			if p.Conv != "" {
				b.WriteString("!" + p.Conv)
			}
			if p.Spec != "" {
				b.WriteString(":" + p.Spec)
			}
			b.WriteString("}")
		}
		ps2, err := SplitFormat(b.String())
		if err != nil || len(ps2) != len(ps) {
			t.Fatalf("round trip of %q via %q: %v (%d vs %d pieces)", s, b.String(), err, len(ps2), len(ps))
		}
	})
}

// TestReturns: a function's returned dict is read whole (nested, with
// trailing commas and a multi-line header), scoped to its class and
// method; a bare return records nothing.
func TestReturns(t *testing.T) {
	src := "class Tool:\n    @staticmethod\n    def get_info() -> Dict[str, Any]:\n        return {\n            \"type\": \"function\",\n            \"function\": {\"name\": \"calc\", \"required\": [\"a\", \"b\",],},\n        }\n\n    def invoke(x):\n        if x:\n            return\n        return x + 1\n"
	f, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	rs := f.ReturnsIn("Tool.get_info")
	if len(rs) != 1 || rs[0].Kind != Dict || rs[0].Line != 4 {
		t.Fatalf("get_info returns %+v", rs)
	}
	fn, _ := rs[0].Get("function")
	name, _ := fn.Get("name")
	req, _ := fn.Get("required")
	if got, _ := req.Strings(); name.Str != "calc" || len(got) != 2 {
		t.Errorf("function = %+v", fn)
	}
	if inv := f.ReturnsIn("Tool.invoke"); len(inv) != 1 || inv[0].Kind != Other || inv[0].Expr != "x + 1" {
		t.Errorf("invoke returns %+v", inv)
	}
}
