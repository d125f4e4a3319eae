package taubench

import (
	"sort"
	"sync"
)

// table is one top-level JSON file (users, orders, ...): an object of rows.
// Rows loaded from disk are shared by every episode and never written; an
// episode copies a row on its first write (copy-on-write), so starting an
// episode costs nothing and comparing two states only looks at rows either
// side touched.
type table struct {
	// text caches the hashable text of loaded rows; shared by every
	// state of the same data (rows in base never change).
	text  *sync.Map
	base  *Object            // loaded rows, read-only
	rows  map[string]*Object // rows this state copied or created
	added []string           // keys of created rows, in insertion order
}

// DB is one state of a domain's database.
type DB struct {
	tables map[string]*table
}

// newDB wraps loaded tables (each an object of row objects).
func newDB(base map[string]*Object) *DB {
	db := &DB{tables: map[string]*table{}}
	for name, o := range base {
		db.tables[name] = &table{base: o, rows: map[string]*Object{}, text: &sync.Map{}}
	}
	return db
}

// Fresh returns a new state equal to the loaded data.
func (db *DB) Fresh() *DB {
	f := &DB{tables: make(map[string]*table, len(db.tables))}
	for name, t := range db.tables {
		f.tables[name] = &table{base: t.base, rows: map[string]*Object{}, text: t.text}
	}
	return f
}

func (db *DB) table(name string) *table {
	t, ok := db.tables[name]
	if !ok {
		keyErr(name)
	}
	return t
}

// Row returns a read-only view of a row.
func (db *DB) Row(tbl, id string) (*Object, bool) {
	t := db.table(tbl)
	if r, ok := t.rows[id]; ok {
		return r, true
	}
	v, ok := t.base.Get(id)
	if !ok {
		return nil, false
	}
	o, ok := v.(*Object)
	return o, ok
}

// Has reports whether the row exists.
func (db *DB) Has(tbl, id string) bool {
	_, ok := db.Row(tbl, id)
	return ok
}

// Mut returns a writable row, copying it on first use. The row must exist.
func (db *DB) Mut(tbl, id string) *Object {
	t := db.table(tbl)
	if r, ok := t.rows[id]; ok {
		return r
	}
	v, ok := t.base.Get(id)
	o, isObj := v.(*Object)
	if !ok || !isObj {
		keyErr(id)
	}
	c := Clone(o).(*Object)
	t.rows[id] = c
	return c
}

// Put stores a new or replacement row.
func (db *DB) Put(tbl, id string, row *Object) {
	t := db.table(tbl)
	_, inRows := t.rows[id]
	if !inRows && !t.base.Has(id) {
		t.added = append(t.added, id)
	}
	t.rows[id] = row
}

// Each visits rows in Python dict order (loaded order, then added rows)
// until fn returns false.
func (db *DB) Each(tbl string, fn func(id string, row *Object) bool) {
	t := db.table(tbl)
	for _, id := range t.base.Keys() {
		r, _ := db.Row(tbl, id)
		if r != nil && !fn(id, r) {
			return
		}
	}
	for _, id := range t.added {
		if !fn(id, t.rows[id]) {
			return
		}
	}
}

// SameState reports whether two states of the same loaded data have the
// same official data hash (see hash.go), and names the first differing
// table/row when not. Rows neither state touched are shared and skipped;
// comparing the touched rows' hashable text is exact because that text
// parses back unambiguously.
func SameState(a, b *DB) (bool, string) {
	names := make([]string, 0, len(a.tables))
	for n := range a.tables {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ta, tb := a.tables[n], b.tables[n]
		if tb == nil || ta.base != tb.base {
			return false, n
		}
		ids := map[string]bool{}
		for id := range ta.rows {
			ids[id] = true
		}
		for id := range tb.rows {
			ids[id] = true
		}
		sorted := make([]string, 0, len(ids))
		for id := range ids {
			sorted = append(sorted, id)
		}
		sort.Strings(sorted)
		for _, id := range sorted {
			ra, oka := a.Row(n, id)
			rb, okb := b.Row(n, id)
			if oka != okb || (oka && hashableText(ra) != hashableText(rb)) {
				return false, n + "/" + id
			}
		}
	}
	return true, ""
}
