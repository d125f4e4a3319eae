package omnibehavior

import (
	"bytes"
	"fmt"

	"github.com/memharness/memharness/internal/safefile"
)

// DefaultMaxRecordBytes is the largest record a file may hold unless
// LoadOptions says otherwise: one element of a JSON array (an action
// record, a user of experiment_data.json) or one string, in bytes of the
// file. Real records are a few kilobytes and a whole real user a few
// megabytes; a record past the limit is a broken or hostile file, and
// decoding it would cost about three times its size in memory.
const DefaultMaxRecordBytes int64 = 64 << 20

// LoadOptions tune Load.
type LoadOptions struct {
	// MaxRecordBytes bounds one record (see DefaultMaxRecordBytes);
	// 0 means the default.
	MaxRecordBytes int64
}

func (o LoadOptions) maxRecord() int64 {
	if o.MaxRecordBytes > 0 {
		return o.MaxRecordBytes
	}
	return DefaultMaxRecordBytes
}

// RecordTooLargeError is a file holding a record over the limit.
type RecordTooLargeError struct {
	Line, Size, Limit int64
	What              string // "string" or "array element"
}

func (e *RecordTooLargeError) Error() string {
	return fmt.Sprintf("line %d: a %s of %d bytes, over the limit of %d bytes for one record (dataset.max_record_mb raises it); file skipped",
		e.Line, e.What, e.Size, e.Limit)
}

// checkRecordSizes scans a file's bytes, before anything is decoded, for a
// string or an array element longer than max. The scan allocates nothing
// but its stack of open arrays, and gives up past safefile.MaxDepth levels
// (the parser refuses such a file by itself).
func checkRecordSizes(src []byte, max int64) error {
	type frame struct {
		array bool
		start int // offset of the array's current element; -1 between elements
	}
	var stack []frame
	tooLarge := func(at, size int, what string) error {
		return &RecordTooLargeError{Line: int64(bytes.Count(src[:at], []byte{'\n'})) + 1, Size: int64(size), Limit: max, What: what}
	}
	// begin marks a value starting at i as its array's current element.
	begin := func(i int) {
		if n := len(stack); n > 0 && stack[n-1].array && stack[n-1].start < 0 {
			stack[n-1].start = i
		}
	}
	// end closes the current element of the innermost array at i.
	end := func(i int) error {
		n := len(stack)
		if n == 0 || !stack[n-1].array || stack[n-1].start < 0 {
			return nil
		}
		start := stack[n-1].start
		stack[n-1].start = -1
		if int64(i-start) > max {
			return tooLarge(start, i-start, "array element")
		}
		return nil
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case ' ', '\t', '\n', '\r', ':':
		case '"':
			begin(i)
			j := closingQuote(src, i+1)
			if int64(j-i) > max {
				return tooLarge(i, j-i, "string")
			}
			i = j
		case '[', '{':
			begin(i)
			if len(stack) >= safefile.MaxDepth {
				return nil
			}
			stack = append(stack, frame{array: c == '[', start: -1})
		case ']', '}':
			if err := end(i); err != nil {
				return err
			}
			if len(stack) == 0 {
				return nil // malformed: the parser says where
			}
			// A container that was an element is measured at its
			// array's next , or ].
			stack = stack[:len(stack)-1]
		case ',':
			if err := end(i); err != nil {
				return err
			}
		default:
			begin(i) // a number or literal
		}
	}
	return nil
}

// closingQuote returns the offset of the quote that ends the string whose
// contents start at from (len(src) when none does): the next quote not
// escaped by an odd run of backslashes.
func closingQuote(src []byte, from int) int {
	for j := from; ; {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src)
		}
		q := j + k
		n := 0
		for q-1-n >= from && src[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q
		}
		j = q + 1
	}
}
