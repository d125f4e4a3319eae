package runstore

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/runrecord"
)

// writeCallRun writes n samples of two calls each, every sample adding
// chunks of its own to the chunk store, and returns the sample IDs.
func writeCallRun(t *testing.T, dir string, n int) []string {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var ids []string
	for i := range n {
		id := "s/" + strings.Repeat(string(rune('a'+i)), 3)
		ids = append(ids, id)
		calls := recordedCalls(id, 2)
		for _, c := range calls {
			c.Exchange.Affinity = id // a chain of its own per sample
		}
		if err := s.AppendWith(runrecord.Sample{ID: id, Valid: true}, calls); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// readCalls lists every call of dir's record: how many, how many with
// their texts, and how many marked lost.
func readCalls(t *testing.T, dir string) (all, readable, lost int) {
	t.Helper()
	cr, err := OpenCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	err = cr.Each(nil, func(c Call) error {
		all++
		switch {
		case c.Exchange != nil && c.Lost == "":
			readable++
		case c.Exchange == nil && c.Lost != "":
			lost++
		default:
			t.Errorf("call %d of %s: exchange %v with lost %q", c.Index, c.Unit, c.Exchange != nil, c.Lost)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading the call record stopped: %v", err)
	}
	return all, readable, lost
}

// One bit in the length field of a record in the middle of the chunk store
// makes the length run past the end of the file: that is damage, not a
// torn tail, so a resume refuses and cuts nothing, and a reader lists
// every call whose texts are elsewhere.
func TestChunkLengthDamageIsRefusedNotCut(t *testing.T) {
	dir := t.TempDir()
	writeCallRun(t, dir, 8)
	path := filepath.Join(dir, runrecord.ChunksFile)
	whole, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The records' offsets: the first holds the prefix every call shares.
	var offs []int
	for off := 0; off < len(whole); off += 12 + int(binary.LittleEndian.Uint32(whole[off+4:])) {
		offs = append(offs, off)
	}
	if len(offs) < 6 {
		t.Fatalf("%d records; the test needs several", len(offs))
	}
	for _, tc := range []struct {
		at          int
		minReadable int
	}{
		{7, 0},                      // the case: the first record, which every call needs
		{offs[4] + 7, 16 - 2},       // a record in the middle: one sample's calls lost
		{offs[4] + 6, 16 - 2},       // another bit of the same length
		{offs[len(offs)-2] + 5, 14}, // the record before the last
	} {
		at := tc.at
		bad := bytes.Clone(whole)
		bad[at] = 0x7f
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Open(dir)
		if err == nil {
			t.Errorf("byte %d set to 0x7f: the resume went on (repairs %q)", at, s.Repairs())
			s.Close()
		} else if !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), runrecord.ChunksFile) {
			t.Errorf("byte %d: refusal does not name the damage: %v", at, err)
		}
		after, _ := os.ReadFile(path)
		if !bytes.Equal(after, bad) {
			t.Fatalf("byte %d: the chunk store was changed from %d to %d bytes", at, len(bad), len(after))
		}
		all, readable, lost := readCalls(t, dir)
		if all != 16 || readable < tc.minReadable || readable+lost != 16 || lost == 0 {
			t.Errorf("byte %d: %d calls listed, %d readable, %d lost; want 16 listed, at least %d readable", at, all, readable, lost, tc.minReadable)
		}
	}
}

// A torn last record, a chunk store cut short or deleted: the resume says
// which calls lost their texts, and a reader lists every call.
func TestChunkStoreLossIsNamed(t *testing.T) {
	for _, tc := range []struct {
		name string
		cut  func([]byte) []byte // nil: delete the file
	}{
		{"torn last record", func(b []byte) []byte { return b[:len(b)-5] }},
		{"cut to half", func(b []byte) []byte { return b[:len(b)/2] }},
		{"deleted", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeCallRun(t, dir, 8)
			path := filepath.Join(dir, runrecord.ChunksFile)
			whole, _ := os.ReadFile(path)
			if tc.cut == nil {
				os.Remove(path)
			} else if err := os.WriteFile(path, tc.cut(whole), 0o644); err != nil {
				t.Fatal(err)
			}
			all, readable, lost := readCalls(t, dir)
			if all != 16 || lost == 0 || readable+lost != 16 {
				t.Errorf("%d calls listed, %d readable, %d lost; want all 16 listed, the lost ones marked", all, readable, lost)
			}
			s, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			rep := strings.Join(s.Repairs(), "\n")
			s.Close()
			if !strings.Contains(rep, "missing from "+runrecord.ChunksFile) {
				t.Errorf("the resume does not name the lost texts; repairs:\n%s", rep)
			}
		})
	}
}

// A usage journal that lost lines says so on resume: a torn last line, a
// damaged line (never called redone work) and a journal deleted while
// samples are saved each name what usage.json lost.
func TestUsageJournalLossIsNamed(t *testing.T) {
	for _, tc := range []struct {
		name string
		harm func(path string, b []byte)
		want string
	}{
		{"torn last line", func(p string, b []byte) { os.WriteFile(p, b[:len(b)-7], 0o644) }, "torn final line"},
		{"damaged line", func(p string, b []byte) {
			os.WriteFile(p, append(append([]byte(nil), b[:5]...), append([]byte("#"), b[6:]...)...), 0o644) // "unit" → "uni#"
		}, "not redone work"},
		{"deleted", func(p string, _ []byte) { os.Remove(p) }, "missing or empty while 8 sample(s) are saved"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeCallRun(t, dir, 8)
			path := filepath.Join(dir, UsageJournal)
			b, _ := os.ReadFile(path)
			tc.harm(path, b)
			s, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			rep := strings.Join(s.Repairs(), "\n")
			s.Close()
			if !strings.Contains(rep, tc.want) || strings.Contains(rep, "never saved") {
				t.Errorf("repairs do not name the loss (%q):\n%s", tc.want, rep)
			}
		})
	}
}
