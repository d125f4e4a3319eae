package movielens

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// ParseError names the file, line and field at fault.
type ParseError struct {
	File  string
	Line  int
	Field int    // 1-based; 0 when the whole line is at fault
	Name  string // field name, e.g. "Rating"
	Err   error
}

func (e *ParseError) Error() string {
	if e.Field > 0 {
		return fmt.Sprintf("%s:%d: field %d (%s): %v", e.File, e.Line, e.Field, e.Name, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

var sep = []byte("::")

// lines walks data line by line without allocating, tolerating CRLF and a
// missing final newline. fn gets the 1-based line number; blank lines are
// skipped.
func lines(data []byte, fn func(n int, line []byte) error) error {
	n := 0
	for len(data) > 0 {
		n++
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
		}
		if len(line) == 0 {
			continue
		}
		if err := fn(n, line); err != nil {
			return err
		}
	}
	return nil
}

// splitFields cuts line at "::" into exactly len(dst) fields.
func splitFields(line []byte, dst [][]byte) error {
	for i := range dst {
		if i == len(dst)-1 {
			if bytes.Contains(line, sep) {
				return fmt.Errorf("more than %d fields", len(dst))
			}
			dst[i] = line
			return nil
		}
		j := bytes.Index(line, sep)
		if j < 0 {
			return fmt.Errorf("%d fields, want %d", i+1, len(dst))
		}
		dst[i], line = line[:j], line[j+2:]
	}
	return nil
}

var errNotInt = errors.New("not a non-negative integer")

// atoi parses a non-negative decimal integer by hand (no allocation).
func atoi(b []byte) (int64, error) {
	if len(b) == 0 || len(b) > 18 {
		return 0, errNotInt
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, errNotInt
		}
		v = v*10 + int64(c-'0')
	}
	return v, nil
}

func quoteField(b []byte) string {
	if len(b) > 40 {
		b = b[:40]
	}
	return strconv.Quote(latin1(b))
}

// ParseRatings parses the contents of ratings.dat
// (UserID::MovieID::Rating::Timestamp). name is used in errors. A large file
// is cut at line ends into one part per CPU, parsed in parallel and joined
// in order; a part with a bad line sends the whole file through the
// sequential parser, so errors name the right line.
func ParseRatings(data []byte, name string) ([]Rating, error) {
	parts := splitLines(data, runtime.GOMAXPROCS(0), 4<<20)
	if len(parts) == 1 {
		return parseRatings(data, name)
	}
	got := make([][]Rating, len(parts))
	errs := inParallel(parts, func(i int, part []byte) (err error) {
		got[i], err = parseRatings(part, name)
		return err
	})
	n := 0
	for i := range parts {
		if errs[i] != nil {
			return parseRatings(data, name)
		}
		n += len(got[i])
	}
	out := make([]Rating, 0, n)
	for _, g := range got {
		out = append(out, g...)
	}
	return out, nil
}

// inParallel runs f on every part at once and returns each part's error.
func inParallel(parts [][]byte, f func(i int, part []byte) error) []error {
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, part := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f(i, part)
		}()
	}
	wg.Wait()
	return errs
}

// splitLines cuts data into at most n parts of at least min bytes, each
// ending at a line end (the last at the end of data).
func splitLines(data []byte, n, min int) [][]byte {
	if n < 2 || len(data) < 2*min {
		return [][]byte{data}
	}
	size := max(min, len(data)/n)
	var parts [][]byte
	for len(data) > 0 {
		if len(parts) == n-1 || len(data) <= size {
			parts = append(parts, data)
			break
		}
		cut := bytes.IndexByte(data[size:], '\n')
		if cut < 0 {
			parts = append(parts, data)
			break
		}
		end := size + cut + 1
		parts = append(parts, data[:end])
		data = data[end:]
	}
	return parts
}

// parseRatings is the sequential parser of ParseRatings.
func parseRatings(data []byte, name string) ([]Rating, error) {
	out := make([]Rating, 0, bytes.Count(data, []byte{'\n'})+1)
	err := eachRating(data, name, func(r Rating) { out = append(out, r) })
	return out, err
}

// eachRating parses data sequentially, handing each rating to fn, and stops
// at the first bad line (the error names name and the line in data). A
// well-formed line is parsed straight from data, its end found by the parse
// itself; anything else is cut out as lines does and parsed carefully.
func eachRating(data []byte, name string, fn func(Rating)) error {
	for n := 1; len(data) > 0; n++ {
		if r, used, ok := fastLine(data); ok {
			fn(r)
			data = data[used:]
			continue
		}
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
		}
		if len(line) == 0 {
			continue
		}
		r, ok := fastRating(line)
		if !ok {
			var err error
			if r, err = slowRating(line, n, name); err != nil {
				return err
			}
		}
		fn(r)
	}
	return nil
}

// fastLine parses the well-formed line at the start of data and says how
// many bytes it took with its line end (LF, CRLF, or a CR or nothing at the
// end of data, as lines reads them).
func fastLine(data []byte) (Rating, int, bool) {
	r, i, ok := fieldsAt(data)
	switch {
	case !ok:
		return Rating{}, 0, false
	case i == len(data):
		return r, i, true
	case data[i] == '\n':
		return r, i + 1, true
	case data[i] == '\r' && (i+1 == len(data) || data[i+1] == '\n'):
		return r, min(i+2, len(data)), true
	}
	return Rating{}, 0, false
}

// fastRating parses a well-formed line (its line end cut off) in one pass;
// anything unusual is left to slowRating, which also writes the error
// message.
func fastRating(line []byte) (Rating, bool) {
	r, end, ok := fieldsAt(line)
	return r, ok && end == len(line)
}

// fieldsAt parses the four fields of a well-formed line at the start of
// data, returning the index just after the timestamp's digits; the caller
// checks what follows. Straight-line code keeps the fields in registers:
// this is the hot loop of every MovieLens load.
func fieldsAt(data []byte) (Rating, int, bool) {
	u, i, ok := digitsAt(data, 0)
	if !ok || !sepAt(data, i) {
		return Rating{}, 0, false
	}
	m, i, ok := digitsAt(data, i+2)
	if !ok || !sepAt(data, i) {
		return Rating{}, 0, false
	}
	v, i, ok := digitsAt(data, i+2)
	if !ok || !sepAt(data, i) {
		return Rating{}, 0, false
	}
	ts, i, ok := digitsAt(data, i+2)
	if !ok || u < 1 || u > 1<<31-1 || m < 1 || m > 1<<31-1 || v < 1 || v > 5 {
		return Rating{}, 0, false
	}
	return Rating{User: int32(u), Movie: int32(m), Value: int8(v), Time: ts}, i, true
}

// digitsAt reads the decimal digits of b from i: their value, the index
// after them, and whether there were 1 to 18 of them (so no overflow).
func digitsAt(b []byte, i int) (int64, int, bool) {
	start := i
	var v int64
	for i < len(b) {
		d := b[i] - '0' // wraps for bytes below '0', so one compare
		if d > 9 {
			break
		}
		v = v*10 + int64(d)
		i++
	}
	return v, i, i > start && i-start <= 18
}

// sepAt reports whether "::" starts at b[i].
func sepAt(b []byte, i int) bool {
	return i+1 < len(b) && b[i] == ':' && b[i+1] == ':'
}

func slowRating(line []byte, n int, name string) (Rating, error) {
	var f [4][]byte
	names := [4]string{"UserID", "MovieID", "Rating", "Timestamp"}
	if err := splitFields(line, f[:]); err != nil {
		return Rating{}, &ParseError{File: name, Line: n, Err: err}
	}
	var v [4]int64
	for i := range f {
		x, err := atoi(f[i])
		if err != nil {
			return Rating{}, &ParseError{File: name, Line: n, Field: i + 1, Name: names[i],
				Err: fmt.Errorf("%w: %s", err, quoteField(f[i]))}
		}
		v[i] = x
	}
	switch {
	case v[0] < 1 || v[0] > 1<<31-1:
		return Rating{}, &ParseError{File: name, Line: n, Field: 1, Name: names[0], Err: fmt.Errorf("user ID %d out of range", v[0])}
	case v[1] < 1 || v[1] > 1<<31-1:
		return Rating{}, &ParseError{File: name, Line: n, Field: 2, Name: names[1], Err: fmt.Errorf("movie ID %d out of range", v[1])}
	case v[2] < 1 || v[2] > 5:
		return Rating{}, &ParseError{File: name, Line: n, Field: 3, Name: names[2], Err: fmt.Errorf("rating %d outside 1..5", v[2])}
	}
	return Rating{User: int32(v[0]), Movie: int32(v[1]), Value: int8(v[2]), Time: v[3]}, nil
}

// ParseMovies parses movies.dat (MovieID::Title::Genres).
func ParseMovies(data []byte, name string) (map[int32]Movie, error) {
	out := make(map[int32]Movie, 4096)
	var f [3][]byte
	err := lines(data, func(n int, line []byte) error {
		if err := splitFields(line, f[:]); err != nil {
			return &ParseError{File: name, Line: n, Err: err}
		}
		id, err := atoi(f[0])
		if err != nil || id < 1 || id > 1<<31-1 {
			return &ParseError{File: name, Line: n, Field: 1, Name: "MovieID", Err: fmt.Errorf("bad movie ID %s", quoteField(f[0]))}
		}
		title := strings.TrimSpace(latin1(f[1]))
		if title == "" {
			return &ParseError{File: name, Line: n, Field: 2, Name: "Title", Err: errors.New("empty title")}
		}
		if _, dup := out[int32(id)]; dup {
			return &ParseError{File: name, Line: n, Field: 1, Name: "MovieID", Err: fmt.Errorf("duplicate movie ID %d", id)}
		}
		m := Movie{ID: int32(id), Title: title}
		m.Name, m.Year = splitYear(title)
		m.Genres = splitGenres(latin1(f[2]))
		out[m.ID] = m
		return nil
	})
	return out, err
}

// splitYear separates a trailing "(YYYY)" from a title.
func splitYear(title string) (string, int) {
	n := len(title)
	if n < 6 || title[n-1] != ')' || title[n-6] != '(' {
		return title, 0
	}
	y, err := atoi([]byte(title[n-5 : n-1]))
	if err != nil {
		return title, 0
	}
	return strings.TrimSpace(title[:n-6]), int(y)
}

func splitGenres(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" || s == "(no genres listed)" {
		return nil
	}
	return strings.Split(s, "|")
}

// ParseUsers parses users.dat (UserID::Gender::Age::Occupation::Zip-code).
func ParseUsers(data []byte, name string) (map[int32]User, error) {
	out := make(map[int32]User, 8192)
	var f [5][]byte
	err := lines(data, func(n int, line []byte) error {
		if err := splitFields(line, f[:]); err != nil {
			return &ParseError{File: name, Line: n, Err: err}
		}
		id, err := atoi(f[0])
		if err != nil || id < 1 || id > 1<<31-1 {
			return &ParseError{File: name, Line: n, Field: 1, Name: "UserID", Err: fmt.Errorf("bad user ID %s", quoteField(f[0]))}
		}
		g := string(f[1])
		if g != "M" && g != "F" {
			return &ParseError{File: name, Line: n, Field: 2, Name: "Gender", Err: fmt.Errorf("want M or F, got %s", quoteField(f[1]))}
		}
		age, err := atoi(f[2])
		if err != nil || AgeBand(int(age), "en") == "" {
			return &ParseError{File: name, Line: n, Field: 3, Name: "Age", Err: fmt.Errorf("unknown age code %s", quoteField(f[2]))}
		}
		occ, err := atoi(f[3])
		if err != nil || occ > 20 {
			return &ParseError{File: name, Line: n, Field: 4, Name: "Occupation", Err: fmt.Errorf("occupation code %s outside 0..20", quoteField(f[3]))}
		}
		out[int32(id)] = User{ID: int32(id), Gender: g, Age: int(age), Occupation: int(occ), Zip: latin1(f[4])}
		return nil
	})
	return out, err
}

// latin1 decodes ISO-8859-1 bytes to a UTF-8 string; each byte is the code
// point of the same value.
func latin1(b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	buf := make([]byte, 0, len(b)+8)
	for _, c := range b {
		buf = utf8.AppendRune(buf, rune(c))
	}
	return string(buf)
}
