package parquetw

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"
)

// row is what the tests write, column by column, and read back with an
// independent reader (parquet-go, a test-only dependency).
type row struct {
	S string  `parquet:"s"`
	I int64   `parquet:"i"`
	F float64 `parquet:"f"`
	B bool    `parquet:"b"`
	T string  `parquet:"t"`
}

func columns(rows []row) []Column {
	s, t := make([]string, len(rows)), make([]string, len(rows))
	i, f, b := make([]int64, len(rows)), make([]float64, len(rows)), make([]bool, len(rows))
	for k, r := range rows {
		s[k], i[k], f[k], b[k], t[k] = r.S, r.I, r.F, r.B, r.T
	}
	return []Column{Strings("s", s), Int64s("i", i), Float64s("f", f), Bools("b", b), Strings("t", t)}
}

func readBack(t *testing.T, data []byte) []row {
	t.Helper()
	r := parquet.NewGenericReader[row](bytes.NewReader(data))
	defer r.Close()
	out := make([]row, r.NumRows())
	if len(out) == 0 {
		return nil
	}
	n, err := r.Read(out)
	if n != len(out) {
		t.Fatalf("read %d of %d rows: %v", n, len(out), err)
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	many := make([]row, 1000)
	for k := range many {
		many[k] = row{S: strings.Repeat("x", k%37), I: int64(k*k) - 5000, F: float64(k) / 7, B: k%3 == 0, T: "é ✓ " + string(rune('a'+k%26))}
	}
	tests := []struct {
		name string
		rows []row
	}{
		{"no rows", nil},
		{"one row", []row{{S: "a", I: 1, F: 1.5, B: true, T: ""}}},
		{"extremes", []row{
			{S: "", I: math.MinInt64, F: math.Inf(-1), B: false, T: "\x00"},
			{S: strings.Repeat("long ", 1000), I: math.MaxInt64, F: math.MaxFloat64, B: true, T: "日本語"},
			{S: "-", I: -1, F: -0.0, B: true, T: "\n"},
		}},
		{"nine booleans cross a byte", []row{{B: true}, {}, {B: true}, {}, {}, {}, {}, {B: true}, {B: true}}},
		{"a thousand rows", many},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, "memharness", columns(tt.rows)); err != nil {
				t.Fatal(err)
			}
			if got := readBack(t, buf.Bytes()); !cmp.Equal(got, tt.rows) {
				t.Fatalf("read back differs:\n%s", cmp.Diff(tt.rows, got))
			}
			var again bytes.Buffer
			if err := Write(&again, "memharness", columns(tt.rows)); err != nil || !bytes.Equal(again.Bytes(), buf.Bytes()) {
				t.Fatalf("a second write gave other bytes (%v)", err)
			}
		})
	}
}

// NaN survives (cmp.Equal above treats NaN as unequal to itself).
func TestNaN(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "x", columns([]row{{F: math.NaN()}})); err != nil {
		t.Fatal(err)
	}
	if got := readBack(t, buf.Bytes()); len(got) != 1 || !math.IsNaN(got[0].F) {
		t.Fatalf("got %+v", got)
	}
}

// The footer says what a reader needs: required columns of the right
// physical and logical types, Snappy pages, the row count, the writer.
func TestFooter(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "memharness", columns([]row{{S: "a"}, {S: "b"}})); err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	md := f.Metadata()
	if md.NumRows != 2 || md.CreatedBy != "memharness" || len(md.RowGroups) != 1 {
		t.Fatalf("rows %d, created by %q, %d row groups", md.NumRows, md.CreatedBy, len(md.RowGroups))
	}
	want := map[string]string{"s": "STRING", "i": "INT(64,true)", "f": "DOUBLE", "b": "BOOLEAN", "t": "STRING"}
	for _, field := range f.Schema().Fields() {
		got := field.Type().String()
		if field.Type().LogicalType() != nil {
			got = field.Type().LogicalType().String()
		}
		if want[field.Name()] != got || !field.Required() {
			t.Errorf("column %s: type %s (required %v), want %s, required", field.Name(), got, field.Required(), want[field.Name()])
		}
	}
	for _, cc := range md.RowGroups[0].Columns {
		if cc.MetaData.Codec.String() != "SNAPPY" || cc.MetaData.NumValues != 2 {
			t.Errorf("column %v: codec %v, %d values", cc.MetaData.PathInSchema, cc.MetaData.Codec, cc.MetaData.NumValues)
		}
	}
}

func TestErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "x", nil); err == nil {
		t.Error("no columns: no error")
	}
	err := Write(&buf, "x", []Column{Strings("a", []string{"1", "2"}), Int64s("b", []int64{1})})
	if err == nil || !strings.Contains(err.Error(), `"b" has 1 values`) {
		t.Errorf("ragged columns: err = %v", err)
	}
}

// TestOptionalDoubles: nulls and values survive in any arrangement (runs of
// each, alternation, all null, none null), read back by parquet-go as nil
// pointers, next to a required column.
func TestOptionalDoubles(t *testing.T) {
	type opt struct {
		K string   `parquet:"k"`
		C *float64 `parquet:"c,optional"`
	}
	f := func(x float64) *float64 { return &x }
	alternating := make([]opt, 301)
	for i := range alternating {
		alternating[i].K = strconv.Itoa(i)
		if i%2 == 0 {
			alternating[i].C = f(float64(i) / 3)
		}
	}
	tests := []struct {
		name string
		rows []opt
	}{
		{"all null", []opt{{K: "a"}, {K: "b"}, {K: "c"}}},
		{"none null", []opt{{K: "a", C: f(0)}, {K: "b", C: f(-2.5)}}},
		{"runs", []opt{{K: "a"}, {K: "b"}, {K: "c", C: f(1)}, {K: "d", C: f(2)}, {K: "e", C: f(3)}, {K: "f"}}},
		{"alternating, 301 rows", alternating},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := make([]string, len(tt.rows))
			v, present := make([]float64, len(tt.rows)), make([]bool, len(tt.rows))
			for i, r := range tt.rows {
				k[i] = r.K
				if r.C != nil {
					v[i], present[i] = *r.C, true
				}
			}
			var buf bytes.Buffer
			if err := Write(&buf, "memharness", []Column{Strings("k", k), OptionalFloat64s("c", v, present)}); err != nil {
				t.Fatal(err)
			}
			r := parquet.NewGenericReader[opt](bytes.NewReader(buf.Bytes()))
			defer r.Close()
			got := make([]opt, r.NumRows())
			if n, err := r.Read(got); n != len(got) {
				t.Fatalf("read %d of %d rows: %v", n, len(got), err)
			}
			if !cmp.Equal(got, tt.rows) {
				t.Fatalf("read back differs:\n%s", cmp.Diff(tt.rows, got))
			}
		})
	}
	if err := Write(&bytes.Buffer{}, "x", []Column{OptionalFloat64s("c", []float64{1, 2}, []bool{true})}); err == nil {
		t.Error("presence flags of another length: no error")
	}
}
