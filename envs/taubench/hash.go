package taubench

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sort"
	"strings"

	"github.com/memharness/memharness/internal/pyfmt"
)

// The official reward compares sha256(str(to_hashable(data))) of the
// agent's final database with that of the gold replay. to_hashable turns
// every dict into a tuple of (key, value) pairs sorted by key and every
// list into a tuple, so the comparison is on Python's text of the values:
// 150 and 150.0 differ, True and 1 differ, key order does not matter, and
// a dict and a list of [key, value] pairs print alike.

// writeHashable writes str(to_hashable(v)).
func writeHashable(b *strings.Builder, v Value) {
	switch x := v.(type) {
	case *Object:
		keys := append([]string(nil), x.keys...)
		sort.Strings(keys)
		b.WriteByte('(')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			b.WriteString(pyfmt.Str(k))
			b.WriteString(", ")
			writeHashable(b, x.vals[k])
			b.WriteByte(')')
		}
		if len(keys) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case []Value:
		b.WriteByte('(')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeHashable(b, e)
		}
		if len(x) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	default:
		pyfmt.WriteRepr(b, v)
	}
}

// hashable text of one value.
func hashableText(v Value) string {
	var b strings.Builder
	writeHashable(&b, v)
	return b.String()
}

// DataHash is the official get_data_hash() of a database state. The text
// streams into the hash; untouched rows reuse their cached text.
func DataHash(db *DB) string {
	names := make([]string, 0, len(db.tables))
	for n := range db.tables {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	w := func(s string) { _, _ = io.WriteString(h, s) }
	w("(")
	for i, n := range names {
		if i > 0 {
			w(", ")
		}
		w("(" + pyfmt.Str(n) + ", (")
		var ids []string
		db.Each(n, func(id string, _ *Object) bool {
			ids = append(ids, id)
			return true
		})
		sort.Strings(ids)
		for j, id := range ids {
			if j > 0 {
				w(", ")
			}
			w("(")
			w(pyfmt.Str(id))
			w(", ")
			w(db.rowText(n, id))
			w(")")
		}
		if len(ids) == 1 {
			w(",")
		}
		w("))")
	}
	if len(names) == 1 {
		w(",")
	}
	w(")")
	return hex.EncodeToString(h.Sum(nil))
}

// rowText is the hashable text of one row, cached for untouched rows.
func (db *DB) rowText(tbl, id string) string {
	t := db.table(tbl)
	if r, ok := t.rows[id]; ok {
		return hashableText(r)
	}
	if s, ok := t.text.Load(id); ok {
		return s.(string)
	}
	r, _ := db.Row(tbl, id)
	s := hashableText(r)
	t.text.Store(id, s)
	return s
}
