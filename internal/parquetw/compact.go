package parquetw

// Thrift compact-protocol type codes.
const (
	boolTrue   = 1
	boolFalse  = 2
	byteType   = 3
	i32Type    = 5
	i64Type    = 6
	binaryType = 8
	listType   = 9
	structType = 12
)

// compact writes Thrift's compact protocol: each field header carries the
// delta from the previous field ID of the same struct, so nested structs
// save and restore it.
type compact struct {
	buf   []byte
	field int16   // last field ID written in the current struct
	saved []int16 // enclosing structs' last field IDs
}

func (c *compact) header(id int16, typ byte) {
	if d := id - c.field; d > 0 && d <= 15 {
		c.buf = append(c.buf, byte(d)<<4|typ)
	} else {
		c.buf = append(c.buf, typ)
		c.varint(zigzag(int64(id)))
	}
	c.field = id
}

func (c *compact) varint(v uint64) {
	for v >= 0x80 {
		c.buf = append(c.buf, byte(v)|0x80)
		v >>= 7
	}
	c.buf = append(c.buf, byte(v))
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func (c *compact) i32(id int16, v int32) {
	c.header(id, i32Type)
	c.varint(zigzag(int64(v)))
}

func (c *compact) i64(id int16, v int64) {
	c.header(id, i64Type)
	c.varint(zigzag(v))
}

func (c *compact) byte8(id int16, v int8) {
	c.header(id, byteType)
	c.buf = append(c.buf, byte(v))
}

func (c *compact) boolean(id int16, v bool) {
	if v {
		c.header(id, boolTrue)
	} else {
		c.header(id, boolFalse)
	}
}

func (c *compact) bytes(s string) {
	c.varint(uint64(len(s)))
	c.buf = append(c.buf, s...)
}

func (c *compact) str(id int16, s string) {
	c.header(id, binaryType)
	c.bytes(s)
}

// listHeader starts a list field of n elements of type elem; struct
// elements follow, each ended by stop.
func (c *compact) listHeader(id int16, elem byte, n int) {
	c.header(id, listType)
	if n < 15 {
		c.buf = append(c.buf, byte(n)<<4|elem)
	} else {
		c.buf = append(c.buf, 0xf0|elem)
		c.varint(uint64(n))
	}
}

func (c *compact) beginStruct(id int16) {
	c.header(id, structType)
	c.saved = append(c.saved, c.field)
	c.field = 0
}

func (c *compact) endStruct() {
	c.stop()
	c.field = c.saved[len(c.saved)-1]
	c.saved = c.saved[:len(c.saved)-1]
}

// stop ends a struct (a list element or the top level).
func (c *compact) stop() { c.buf = append(c.buf, 0) }
