// Package parquetw writes flat Parquet files: one row group of required
// columns of strings, 64-bit integers, doubles and booleans (and optional
// doubles, for values that may be unknown), each column one
// PLAIN-encoded, Snappy-compressed data page, with the footer in Thrift's
// compact protocol. That is all a run's samples.parquet needs, and it keeps
// a general Parquet library (some 300 interface tables and a dozen package
// initialisers) out of every bench process's start-up.
//
// The layout follows the Apache Parquet format specification (parquet.thrift:
// FileMetaData, SchemaElement, RowGroup, ColumnChunk, ColumnMetaData,
// PageHeader, DataPageHeader).
package parquetw

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/klauspost/compress/snappy"
)

// Physical types, repetition, encodings and codecs of parquet.thrift.
const (
	typeBoolean   = 0
	typeInt64     = 2
	typeDouble    = 5
	typeByteArray = 6

	required = 0
	optional = 1

	encodingPlain = 0
	encodingRLE   = 3

	codecSnappy = 1

	pageData = 0

	convertedUTF8  = 0
	convertedInt64 = 18
)

// Column is one named column of values, all of one type.
type Column struct {
	name   string
	typ    int32
	n      int
	encode func(*bytes.Buffer)
	// present marks the non-null rows of an optional column (nil: the
	// column is required).
	present []bool
}

// Strings is a column of UTF-8 strings (BYTE_ARRAY, logical type STRING).
func Strings(name string, v []string) Column {
	return Column{name: name, typ: typeByteArray, n: len(v), encode: func(b *bytes.Buffer) {
		for _, s := range v {
			b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(s))))
			b.WriteString(s)
		}
	}}
}

// Int64s is a column of signed 64-bit integers (INT64, INTEGER(64, signed)).
func Int64s(name string, v []int64) Column {
	return Column{name: name, typ: typeInt64, n: len(v), encode: func(b *bytes.Buffer) {
		for _, x := range v {
			b.Write(binary.LittleEndian.AppendUint64(nil, uint64(x)))
		}
	}}
}

// Float64s is a column of doubles.
func Float64s(name string, v []float64) Column {
	return Column{name: name, typ: typeDouble, n: len(v), encode: func(b *bytes.Buffer) {
		for _, x := range v {
			b.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(x)))
		}
	}}
}

// OptionalFloat64s is a column of doubles in which v[i] is null unless
// present[i]: a null says "unknown", which 0 would not.
func OptionalFloat64s(name string, v []float64, present []bool) Column {
	c := Column{name: name, typ: typeDouble, n: len(v), present: present}
	c.encode = func(b *bytes.Buffer) {
		for i, x := range v {
			if present[i] {
				b.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(x)))
			}
		}
	}
	return c
}

// definitionLevels encodes an optional column's levels (1 present, 0
// null) as the RLE/bit-packing hybrid with bit width 1, in RLE runs,
// preceded by its 4-byte length as data pages (v1) store them.
func definitionLevels(present []bool) []byte {
	var runs []byte
	for i := 0; i < len(present); {
		j := i
		for j < len(present) && present[j] == present[i] {
			j++
		}
		runs = binary.AppendUvarint(runs, uint64(j-i)<<1) // an RLE run's header
		if present[i] {
			runs = append(runs, 1)
		} else {
			runs = append(runs, 0)
		}
		i = j
	}
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(runs))), runs...)
}

// Bools is a column of booleans, bit-packed low bit first as PLAIN wants.
func Bools(name string, v []bool) Column {
	return Column{name: name, typ: typeBoolean, n: len(v), encode: func(b *bytes.Buffer) {
		packed := make([]byte, (len(v)+7)/8)
		for i, x := range v {
			if x {
				packed[i/8] |= 1 << (i % 8)
			}
		}
		b.Write(packed)
	}}
}

// Write writes cols, all of one length, as a Parquet file to w. The bytes
// depend only on the arguments.
func Write(w io.Writer, createdBy string, cols []Column) error {
	if len(cols) == 0 {
		return errors.New("parquet: no columns")
	}
	rows := cols[0].n
	for _, c := range cols {
		if c.present != nil && len(c.present) != c.n {
			return fmt.Errorf("parquet: column %q has %d values and %d presence flags", c.name, c.n, len(c.present))
		}
		if c.n != rows {
			return fmt.Errorf("parquet: column %q has %d values, column %q has %d", c.name, c.n, cols[0].name, rows)
		}
	}
	var file bytes.Buffer
	file.WriteString("PAR1")
	type chunk struct {
		offset, size, raw int64
	}
	var chunks []chunk // none without rows: the file then has no row group
	var page bytes.Buffer
	for _, c := range cols {
		if rows == 0 {
			break
		}
		page.Reset()
		if c.present != nil {
			page.Write(definitionLevels(c.present))
		}
		c.encode(&page)
		// Page sizes are 32-bit in the format; Snappy's worst case adds
		// about a sixth.
		if page.Len() > math.MaxInt32/8*6 {
			return fmt.Errorf("parquet: column %q: page of %d bytes is over the format's 2 GiB limit", c.name, page.Len())
		}
		body := snappy.Encode(nil, page.Bytes())
		var h compact
		h.i32(1, pageData)
		h.i32(2, int32(page.Len()))
		h.i32(3, int32(len(body)))
		h.beginStruct(5) // DataPageHeader
		h.i32(1, int32(rows))
		h.i32(2, encodingPlain)
		h.i32(3, encodingRLE)
		h.i32(4, encodingRLE)
		h.endStruct()
		h.stop()
		offset := int64(file.Len())
		file.Write(h.buf)
		file.Write(body)
		chunks = append(chunks, chunk{offset, int64(len(h.buf) + len(body)), int64(len(h.buf) + page.Len())})
	}

	var m compact
	m.i32(1, 1) // version
	m.listHeader(2, structType, len(cols)+1)
	m.field = 0
	m.str(4, "schema") // the root: a group of every column
	m.i32(5, int32(len(cols)))
	m.stop()
	for _, c := range cols {
		m.field = 0
		m.i32(1, c.typ)
		if c.present != nil {
			m.i32(3, optional)
		} else {
			m.i32(3, required)
		}
		m.str(4, c.name)
		switch c.typ {
		case typeByteArray:
			m.i32(6, convertedUTF8)
			m.beginStruct(10) // LogicalType
			m.beginStruct(1)  // STRING
			m.endStruct()
			m.endStruct()
		case typeInt64:
			m.i32(6, convertedInt64)
			m.beginStruct(10) // LogicalType
			m.beginStruct(10) // INTEGER
			m.byte8(1, 64)
			m.boolean(2, true)
			m.endStruct()
			m.endStruct()
		}
		m.stop()
	}
	m.field = 2
	m.i64(3, int64(rows))
	m.listHeader(4, structType, min(len(chunks), 1)) // one row group, or none
	if len(chunks) > 0 {
		var total, totalRaw int64
		for _, ch := range chunks {
			total += ch.size
			totalRaw += ch.raw
		}
		m.field = 0
		m.listHeader(1, structType, len(cols))
		for i, c := range cols {
			m.field = 0
			m.i64(2, chunks[i].offset)
			m.beginStruct(3) // ColumnMetaData
			m.i32(1, c.typ)
			m.listHeader(2, i32Type, 2)
			m.varint(zigzag(encodingPlain))
			m.varint(zigzag(encodingRLE))
			m.listHeader(3, binaryType, 1)
			m.bytes(c.name)
			m.i32(4, codecSnappy)
			m.i64(5, int64(rows))
			m.i64(6, chunks[i].raw)
			m.i64(7, chunks[i].size)
			m.i64(9, chunks[i].offset)
			m.endStruct()
			m.stop()
		}
		m.field = 1
		m.i64(2, totalRaw)
		m.i64(3, int64(rows))
		m.i64(5, chunks[0].offset)
		m.i64(6, total)
		m.stop()
	}
	m.field = 4
	m.str(6, createdBy)
	m.stop()

	file.Write(m.buf)
	file.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(m.buf))))
	file.WriteString("PAR1")
	_, err := w.Write(file.Bytes())
	return err
}
