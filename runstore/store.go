// Package runstore is the run store: one directory per run holding the
// manifest, an append-only sample log (one JSON line per finished sample), a
// usage journal (the model calls each sample or saved state paid for), usage
// totals and per-user memory snapshots. Re-opening a run directory resumes
// it: finished samples are skipped, errored ones retried.
//
// Durability: Append returns only once its line is fsync'd. Concurrent
// appends share fsyncs (group commit): one fsync covers every line written
// before it started. A failed write is cut back to the last complete line
// and closes the store for writing (Err), so a run stops paying for
// samples it cannot save. One process at a time writes a directory (an
// advisory lock, LockFile).
package runstore

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/memharness/memharness/internal/atomicfile"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
)

// File names the store owns besides runrecord's.
const (
	// UsageJournal holds one JSON line per committed unit of work: a
	// sample ("sample:<id>", one line per sample record, in step with
	// samples.jsonl) or a saved state ("file:<name>" with the SHA-256 of the
	// bytes saved), listing the model calls that paid for it.
	UsageJournal = "usage.jsonl"
	// RejectedFile receives damaged lines moved out of samples.jsonl.
	RejectedFile = runrecord.SamplesFile + ".rejected"
	// ConfigHashFile keeps the run's config hash apart from the manifest,
	// so deleting manifest.json does not let another config resume.
	ConfigHashFile = "config.sha256"
)

// logFile is what the store needs of an append-only file; tests wrap it to
// inject failures.
type logFile interface {
	io.Writer
	Sync() error
	Truncate(size int64) error
	Close() error
}

// Store is an open run directory. It is safe for concurrent use.
type Store struct {
	dir  string
	lock *os.File
	wrap func(logFile) logFile // test hook; nil in production

	// syncMu serialises fsyncs (taken before mu).
	syncMu sync.Mutex
	synced uint64 // lines covered by the last fsync

	mu           sync.Mutex
	f, u         logFile                     // samples.jsonl, usage.jsonl
	fsize, usize int64                       // bytes of complete lines
	written      uint64                      // lines written
	err          error                       // first write failure; the store is closed for writing
	samples      map[string]runrecord.Sample // last record per ID
	order        []string                    // first-seen order of IDs
	records      map[string]int              // sample records per ID in the log
	usage        []usageLine
	saved        map[string]bool // file unit + hash journalled (see loadUsage)
	// journalled marks file units with a journal line: every later write
	// of such a file is journalled too (see WriteFileWith).
	journalled map[string]bool
	repairs    []string
	// held are journal lines whose checksum failed, kept in the file as
	// they are (the evidence) but out of the usage; findings says what
	// the checks of the journal found, one sentence each.
	held     [][]byte
	findings []string
	// losses are the usage this open found lost from the journal (a torn
	// final line, damaged lines, a journal gone while samples are saved).
	losses []string

	// The call record: every journalled call's request and reply, their
	// texts cut into chunks stored once each in runrecord.ChunksFile.
	c     logFile
	csize int64
	known map[string]bool // chunk IDs in the chunk store
	zenc  *runrecord.ChunkEncoder
	// bases holds, per routing affinity (user), the batch its next batch
	// is compressed against; baseOrder bounds how many are kept.
	bases     map[string]*runrecord.Base
	baseOrder []string
}

// maxBases bounds the compression bases kept in memory (one per user
// recently written).
const maxBases = 256

// usageLine is one line of the usage journal. Sum, the line's last field,
// is the SHA-256 of the line's bytes without it: a line changed after it
// was written (a token count edited by hand) no longer matches, and its
// usage is not taken. Lines written before the field existed have none and
// are taken unchecked.
type usageLine struct {
	Unit   string           `json:"unit"`
	SHA256 string           `json:"sha256,omitempty"`
	Calls  []llm.CallRecord `json:"calls"`
	Sum    string           `json:"sum,omitempty"`

	// raw is the line as read (newline included): a line the store keeps
	// is written back as it was, never re-encoded, so its checksum (or
	// the lack of one) stays what it was.
	raw []byte
	// unchecked marks a line with no checksum, or a line merged from one.
	unchecked bool
}

const (
	samplePrefix = "sample:"
	filePrefix   = "file:"
)

// Open opens (creating if needed) the run directory dir and locks it. An
// existing sample log is read back and repaired: a torn final line left by
// a killed process is cut off, a damaged line elsewhere is moved to
// RejectedFile (its sample is recomputed), and usage journalled for work
// that was never saved is dropped. Repairs says what was done.
func Open(dir string) (*Store, error) { return open(dir, nil) }

func open(dir string, wrap func(logFile) logFile) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("run store: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	s := &Store{dir: dir, lock: lock, wrap: wrap, samples: map[string]runrecord.Sample{}, records: map[string]int{}, saved: map[string]bool{}, journalled: map[string]bool{}}
	if err := s.load(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Repairs lists what Open repaired, one sentence each.
func (s *Store) Repairs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.repairs...)
}

// Err is the write failure that closed the store, or nil. A run loop checks
// it before starting work it would have to save.
func (s *Store) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *Store) load() error {
	if err := s.removeTemps(); err != nil {
		return err
	}
	if err := s.loadSamples(); err != nil {
		return err
	}
	if err := s.loadChunks(); err != nil {
		return err
	}
	if err := s.loadUsage(); err != nil {
		return err
	}
	s.checkCallTexts()
	return nil
}

// checkCallTexts names the journalled calls whose texts the chunk store
// no longer holds (a chunk store cut short, deleted or torn after their
// lines were written): their usage counts, their request and reply are
// lost, and a resume must say so rather than go on as if nothing were.
func (s *Store) checkCallTexts() {
	lost, units := 0, 0
	first := ""
	for _, ul := range s.usage {
		n := 0
		for _, c := range ul.Calls {
			for _, id := range callRefs(c) {
				if !s.known[id] {
					n++
					break
				}
			}
		}
		if n > 0 {
			lost += n
			units++
			if first == "" {
				first = ul.Unit
			}
		}
	}
	if lost > 0 {
		s.repairs = append(s.repairs, fmt.Sprintf("%s: the request and reply texts of %d journalled model call(s) of %d unit(s) "+
			"(first %s) are missing from %s (cut short or deleted); their usage still counts, and `bench calls` lists them marked lost",
			filepath.Join(s.dir, UsageJournal), lost, units, first, runrecord.ChunksFile))
	}
}

// callRefs are the chunk IDs a journalled call names directly (a list
// chunk's entries and a content chunk's references are stored with it).
func callRefs(c llm.CallRecord) []string {
	if c.ContentRef != "" {
		return []string{c.ContentRef}
	}
	if c.Content == nil {
		return nil
	}
	var out []string
	add := func(ids []string) {
		for _, id := range ids {
			out = append(out, strings.TrimPrefix(id, runrecord.ChunkListPrefix))
		}
	}
	for _, m := range c.Content.Messages {
		add(m.Content)
	}
	add(c.Content.Text)
	add(c.Content.Reasoning)
	return out
}

// loadChunks indexes the chunk store and cuts a torn final record off it.
// Chunks whose calls were never journalled (a kill between the two
// writes) stay: they are content-addressed, so they are harmless and
// reused when the call is made again. A damaged record with whole records
// after it is refused: cutting there would delete the records that follow.
func (s *Store) loadChunks() error {
	path := filepath.Join(s.dir, runrecord.ChunksFile)
	idx, err := runrecord.IndexChunks(path)
	if err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	if len(idx.Damage) > 0 {
		var where []string
		for _, d := range idx.Damage {
			where = append(where, d.String())
		}
		return fmt.Errorf("run store: %s is damaged: %s; the records around it are intact and a resume would "+
			"append past the damage, so it stops here: restore the file from a copy, or move it aside to resume "+
			"with the texts of the calls recorded so far lost (their usage is kept)", path, strings.Join(where, "; "))
	}
	if idx.Torn > 0 {
		if err := os.Truncate(path, idx.Complete); err != nil {
			return fmt.Errorf("run store: cut torn tail of %s: %w", path, err)
		}
		s.repairs = append(s.repairs, fmt.Sprintf("%s: cut a torn final record (%d bytes) left by an interrupted write", path, idx.Torn))
	}
	s.known, s.bases = idx.IDs(), map[string]*runrecord.Base{}
	if s.zenc, err = runrecord.NewChunkEncoder(); err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	if s.c, err = s.openLog(runrecord.ChunksFile); err != nil {
		return err
	}
	s.csize = idx.Complete
	return nil
}

// maxInlineContent is the longest call content (JSON) the journal holds
// inline; a longer one goes to the chunk store, where it compresses
// against the user's earlier calls.
const maxInlineContent = 384

// pendingChunks are the chunks of calls about to be journalled.
type pendingChunks struct {
	text     map[string]string
	order    []string
	affinity string
}

// recordCalls returns calls with each Exchange turned into Content (and
// dropped, so the store's memory holds IDs, not texts) and the chunks
// they need.
func recordCalls(calls []llm.CallRecord) ([]llm.CallRecord, pendingChunks) {
	p := pendingChunks{text: map[string]string{}}
	out := make([]llm.CallRecord, len(calls))
	for i, c := range calls {
		if c.Exchange != nil {
			if p.affinity == "" {
				p.affinity = c.Exchange.Affinity
			}
			c.Content = runrecord.ChunkExchange(c.Exchange, p.text, &p.order)
			c.Exchange = nil
			if b, err := json.Marshal(c.Content); err == nil && len(b) > maxInlineContent {
				id := runrecord.ChunkID(string(b))
				if _, ok := p.text[id]; !ok {
					p.text[id] = string(b)
					p.order = append(p.order, id)
				}
				c.Content, c.ContentRef = nil, id
			}
		}
		out[i] = c
	}
	return out, p
}

// writeChunks appends the pending chunks the store lacks, as one line;
// the caller holds mu. The commit's fsync covers it.
func (s *Store) writeChunks(p pendingChunks) error {
	var fresh []string
	for _, id := range p.order {
		if !s.known[id] {
			fresh = append(fresh, p.text[id])
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	line, next, err := s.zenc.EncodeAgainst(fresh, s.bases[p.affinity])
	if err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	if _, ok := s.bases[p.affinity]; !ok {
		s.baseOrder = append(s.baseOrder, p.affinity)
		if len(s.baseOrder) > maxBases {
			delete(s.bases, s.baseOrder[0])
			s.baseOrder = s.baseOrder[1:]
		}
	}
	if err := writeLine(s.c, &s.csize, line); err != nil {
		return fmt.Errorf("run store: append to %s: %w", runrecord.ChunksFile, err)
	}
	for _, id := range p.order {
		s.known[id] = true
	}
	s.bases[p.affinity] = next
	return nil
}

// removeTemps deletes temp files (".NAME.tmp*") left by a process killed
// inside WriteFileAtomic. Holding the lock, nobody else can be writing them.
func (s *Store) removeTemps() error {
	n := 0
	err := filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.Type().IsRegular() && strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp") {
			if err := os.Remove(path); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("run store: remove leftover temp files: %w", err)
	}
	if n > 0 {
		s.repairs = append(s.repairs, fmt.Sprintf("removed %d temp file(s) left by an interrupted write", n))
	}
	return nil
}

// splitLog splits a log into complete lines (newline included) and the
// torn tail (bytes after the last newline).
func splitLog(b []byte) (lines [][]byte, tail []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return lines, b
		}
		lines = append(lines, b[:i+1])
		b = b[i+1:]
	}
	return lines, nil
}

// salvage finds a whole record glued after a torn one (a write that
// resumed after a failed one): the longest valid suffix starting at `{"`.
func salvage[T any](line []byte) (prefix, rest []byte, v T, ok bool) {
	for i := 1; i < len(line); i++ {
		if line[i] != '{' || i+1 >= len(line) || line[i+1] != '"' {
			continue
		}
		var x T
		if json.Unmarshal(line[i:], &x) == nil {
			return line[:i], line[i:], x, true
		}
	}
	return line, nil, v, false
}

func (s *Store) openLog(name string) (logFile, error) {
	f, err := os.OpenFile(filepath.Join(s.dir, name), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("run store: %w", err)
	}
	if s.wrap != nil {
		return s.wrap(f), nil
	}
	return f, nil
}

// readLog reads a whole log (they are megabytes, not gigabytes).
func (s *Store) readLog(name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(s.dir, name))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("run store: %w", err)
	}
	return b, nil
}

func (s *Store) loadSamples() error {
	name := runrecord.SamplesFile
	path := filepath.Join(s.dir, name)
	b, err := s.readLog(name)
	if err != nil {
		return err
	}
	lines, tail := splitLog(b)
	var good bytes.Buffer
	var rejected [][]byte
	var where []string
	for i, line := range lines {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rec runrecord.Sample
		if json.Unmarshal(line, &rec) == nil && rec.ID != "" {
			s.put(rec)
			good.Write(line)
			continue
		}
		prefix, rest, rec, ok := salvage[runrecord.Sample](line)
		if ok && rec.ID != "" {
			s.put(rec)
			good.Write(rest)
			where = append(where, fmt.Sprintf("%d (kept the record of %s glued after it)", i+1, rec.ID))
		} else {
			prefix = line
			where = append(where, fmt.Sprint(i+1))
		}
		rejected = append(rejected, append(bytes.TrimRight(prefix, "\n"), '\n'))
	}
	if len(rejected) > 0 {
		if err := appendFile(filepath.Join(s.dir, RejectedFile), bytes.Join(rejected, nil)); err != nil {
			return err
		}
		if err := WriteFileAtomic(path, good.Bytes()); err != nil {
			return err
		}
		s.repairs = append(s.repairs, fmt.Sprintf("%s: moved %d damaged line(s) (line %s) to %s; their samples will be recomputed",
			path, len(rejected), strings.Join(where, ", "), RejectedFile))
	} else if len(tail) > 0 {
		if err := os.Truncate(path, int64(good.Len())); err != nil {
			return fmt.Errorf("run store: cut torn tail of %s: %w", path, err)
		}
		s.repairs = append(s.repairs, fmt.Sprintf("%s: cut a torn final line (%d bytes) left by an interrupted write", path, len(tail)))
	}
	if s.f, err = s.openLog(name); err != nil {
		return err
	}
	s.fsize = int64(good.Len())
	return nil
}

// loadUsage reads the usage journal and keeps the lines whose work was
// saved: the first k lines of a sample that has k records, and for a saved
// state every line but the last, which counts only if the file still holds
// the bytes it was journalled with (a line is written before its file).
func (s *Store) loadUsage() error {
	name := UsageJournal
	b, err := s.readLog(name)
	if err != nil {
		return err
	}
	lines, tail := splitLog(b)
	var all []usageLine
	damaged := 0
	var unchecked []int
	for i, line := range lines {
		var ul usageLine
		if json.Unmarshal(line, &ul) != nil || ul.Unit == "" {
			damaged++
			_, rest, v, ok := salvage[usageLine](line)
			if !ok || v.Unit == "" {
				continue
			}
			ul, line = v, rest
		}
		ok, none := checkSum(line, ul)
		if !ok {
			s.holdLine(i+1, line, ul)
			continue
		}
		if none {
			unchecked = append(unchecked, i+1)
		}
		ul.raw, ul.unchecked = line, none
		all = append(all, ul)
	}
	if n := len(unchecked); n > 0 {
		s.findings = append(s.findings, fmt.Sprintf("%s: %d line(s) (lines %d–%d) carry no checksum (written before journal lines had one, or the checksum was removed); their usage is taken unchecked",
			name, n, unchecked[0], unchecked[n-1]))
	}
	lastOf := map[string]int{}
	for i, ul := range all {
		if strings.HasPrefix(ul.Unit, filePrefix) {
			lastOf[ul.Unit] = i
		}
	}
	seen := map[string]int{}
	dropped, droppedCalls := 0, 0
	for i, ul := range all {
		keep := true
		switch {
		case strings.HasPrefix(ul.Unit, filePrefix) && s.saved[ul.Unit+" "+ul.SHA256]:
			// The same state saved again: work redone after a kill
			// between saving it and the state the method resumes from
			// (PraMem's round record, then its progress). The first
			// save's calls are the ones an uninterrupted run made.
			keep = false
		case strings.HasPrefix(ul.Unit, samplePrefix):
			id := strings.TrimPrefix(ul.Unit, samplePrefix)
			seen[id]++
			keep = seen[id] <= s.records[id]
		case strings.HasPrefix(ul.Unit, filePrefix) && lastOf[ul.Unit] == i:
			fb, err := os.ReadFile(filepath.Join(s.dir, strings.TrimPrefix(ul.Unit, filePrefix)))
			keep = err == nil && sha(fb) == ul.SHA256
		}
		if strings.HasPrefix(ul.Unit, filePrefix) {
			s.journalled[ul.Unit] = true
		}
		if keep {
			s.usage = append(s.usage, ul)
			if strings.HasPrefix(ul.Unit, filePrefix) {
				s.saved[ul.Unit+" "+ul.SHA256] = true
			}
		} else {
			dropped++
			droppedCalls += len(ul.Calls)
			if len(ul.Calls) == 0 {
				dropped-- // a seal line (see WriteFileWith): nothing lost
			}
		}
	}
	path := filepath.Join(s.dir, name)
	if damaged > 0 || dropped > 0 || len(tail) > 0 {
		if err := WriteFileAtomic(path, s.journalBytes()); err != nil {
			return err
		}
	}
	// A loss is told to the console (with the file's path) and kept for
	// the run's manifest (with the file's name), as the lines that held
	// the usage are gone from the file after this open.
	lose := func(format string, a ...any) {
		what := fmt.Sprintf(format, a...)
		s.repairs = append(s.repairs, path+": "+what)
		s.losses = append(s.losses, name+": "+what)
	}
	if len(tail) > 0 {
		lose("cut a torn final line (%d bytes) left by an interrupted write; the usage of its calls is lost from usage.json", len(tail))
	}
	if damaged > 0 {
		lose("skipped %d damaged line(s); the usage of their calls is lost from usage.json (it is not redone work)", damaged)
	}
	if len(b) == 0 && len(s.samples) > 0 {
		// The journal is gone (or empty) while samples are saved: the
		// usage of their calls is lost, and usage.json will count only
		// the calls made from now on.
		lose("missing or empty while %d sample(s) are saved: the usage of their model calls is lost, and usage.json counts only the calls made from now on", len(s.samples))
	}
	if dropped > 0 {
		s.repairs = append(s.repairs, fmt.Sprintf("%s: dropped the usage of %d model call(s) whose work was never saved (it is redone and counted once)", path, droppedCalls))
	}
	if s.u, err = s.openLog(name); err != nil {
		return err
	}
	s.usize = int64(len(s.journalBytes()))
	return nil
}

// holdLine keeps journal line n, whose checksum failed, out of the usage
// (left in the file as it is) and says so.
func (s *Store) holdLine(n int, line []byte, ul usageLine) {
	var u llm.Usage
	for _, c := range ul.Calls {
		u = u.Add(c.Usage)
	}
	msg := fmt.Sprintf("%s line %d (%s): its checksum does not match its content, so it was changed after it was written; the usage of its %d call(s) (%d prompt and %d completion tokens as it now reads) is left out of usage.json",
		UsageJournal, n, ul.Unit, len(ul.Calls), u.PromptTokens, u.CompletionTokens)
	s.held = append(s.held, append(bytes.TrimRight(line, "\n"), '\n'))
	s.findings = append(s.findings, msg)
	s.repairs = append(s.repairs, msg)
}

// JournalLosses says what usage this open of the store found lost from the
// journal: a torn final line cut, damaged lines skipped, a journal missing
// while samples are saved. Unlike JournalFindings, a later open does not
// find them again, so a run keeps them in its manifest over resumes.
func (s *Store) JournalLosses() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.losses...)
}

// JournalFindings says what the checks of the usage journal found when the
// store was opened: lines whose checksum failed (their usage left out) and
// lines taken unchecked. A run keeps them in its manifest, so its final
// line and its report say them too.
func (s *Store) JournalFindings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.findings...)
}

func encodeUsage(lines []usageLine) []byte {
	var buf bytes.Buffer
	for _, ul := range lines {
		if ul.raw != nil {
			buf.Write(ul.raw)
			continue
		}
		ul.Sum = ""
		b, _ := json.Marshal(ul) // plain structs: cannot fail
		if !ul.unchecked {
			b = append(append(b[:len(b)-1], `,"sum":"`+sha(b)...), `"}`...)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// journalBytes is the journal as the store keeps it: the lines held for a
// failed checksum, then every line whose usage counts.
func (s *Store) journalBytes() []byte {
	return append(bytes.Join(s.held, nil), encodeUsage(s.usage)...)
}

// sumSuffix is how a journal line ends when it carries its checksum.
const sumSuffix = `,"sum":"`

// checkSum tells whether line (one journal line, newline included) is
// the line the store wrote: ok when its checksum matches; unchecked when
// it has none (written before lines carried one).
func checkSum(line []byte, ul usageLine) (ok, unchecked bool) {
	if ul.Sum == "" {
		return true, true
	}
	body := bytes.TrimRight(line, "\n")
	end := []byte(sumSuffix + ul.Sum + `"}`)
	if !bytes.HasSuffix(body, end) {
		return false, false
	}
	plain := append(append([]byte(nil), body[:len(body)-len(end)]...), '}')
	return sha(plain) == ul.Sum, false
}

func sha(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// appendFile appends data to path and fsyncs it.
func appendFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("run store: write %s: %w", path, err)
	}
	return nil
}

func (s *Store) put(rec runrecord.Sample) {
	if _, ok := s.samples[rec.ID]; !ok {
		s.order = append(s.order, rec.ID)
	}
	s.samples[rec.ID] = rec
	s.records[rec.ID]++
}

// Dir is the run directory.
func (s *Store) Dir() string { return s.dir }

// Done reports whether sample id finished without error.
func (s *Store) Done(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.samples[id]
	return ok && rec.Error == ""
}

// Counts returns how many samples are finished and how many errored.
func (s *Store) Counts() (done, errored int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.samples {
		if r.Error == "" {
			done++
		} else {
			errored++
		}
	}
	return done, errored
}

// Usage returns every journalled call whose work is saved, in journal
// order; replaying them into an llm.Meter (Restore) gives the run's usage
// over all the processes that worked on it.
func (s *Store) Usage() []llm.CallRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []llm.CallRecord
	for _, ul := range s.usage {
		out = append(out, ul.Calls...)
	}
	return out
}

// UsageFrom returns the calls of the journal's lines from line on, and the
// number of lines so far: a progress display reads the journal as it grows
// without copying it whole on every refresh.
func (s *Store) UsageFrom(line int) ([]llm.CallRecord, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []llm.CallRecord
	for _, ul := range s.usage[min(line, len(s.usage)):] {
		out = append(out, ul.Calls...)
	}
	return out, len(s.usage)
}

// writeLine appends b to f, cutting a partial write back off so the file
// still ends on a complete line.
func writeLine(f logFile, size *int64, b []byte) error {
	n, err := f.Write(b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		if n > 0 {
			if terr := f.Truncate(*size); terr != nil {
				err = fmt.Errorf("%w (and cutting the partial line failed: %v)", err, terr)
			}
		}
		return err
	}
	*size += int64(n)
	return nil
}

// fail closes the store for writing; s.mu is held.
func (s *Store) fail(err error) error {
	if s.err == nil {
		s.err = err
	}
	return err
}

// Append writes one record; see AppendWith.
func (s *Store) Append(rec runrecord.Sample) error { return s.AppendWith(rec, nil) }

// AppendWith writes one record and the model calls it paid for, and returns
// once both are fsync'd, so a record AppendWith acknowledged survives a
// crash. The usage line goes first: one without its record is dropped at
// the next Open. After a failure every append fails with that first error.
func (s *Store) AppendWith(rec runrecord.Sample, calls []llm.CallRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("run store: encode %s: %w", rec.ID, err)
	}
	b = append(b, '\n')
	// The prompt is not written apart: it is the sample's call record
	// (see SamplePrompt).
	calls, chunks := recordCalls(calls)
	ul := usageLine{Unit: samplePrefix + rec.ID, Calls: calls}
	ub := encodeUsage([]usageLine{ul})

	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return fmt.Errorf("run store: not saving %s: closed after an earlier write failure: %w", rec.ID, s.err)
	}
	// The calls' chunks go first (a chunk no call names is harmless);
	// the commit's fsync covers them.
	if err := s.writeChunks(chunks); err != nil {
		err = s.fail(err)
		s.mu.Unlock()
		return err
	}
	usize := s.usize
	if err := writeLine(s.u, &s.usize, ub); err != nil {
		err = s.fail(fmt.Errorf("run store: append usage of %s: %w", rec.ID, err))
		s.mu.Unlock()
		return err
	}
	if err := writeLine(s.f, &s.fsize, b); err != nil {
		// Take the usage line back too, so the pair stays all-or-nothing.
		if terr := s.u.Truncate(usize); terr == nil {
			s.usize = usize
		}
		err = s.fail(fmt.Errorf("run store: append %s: %w", rec.ID, err))
		s.mu.Unlock()
		return err
	}
	s.usage = append(s.usage, ul)
	s.put(rec)
	s.written++
	seq := s.written
	s.mu.Unlock()
	return s.commit(seq)
}

// commit returns once line seq is fsync'd. Whoever holds syncMu fsyncs
// every line written so far; appends that queued meanwhile find their line
// covered and return without an fsync of their own (group commit).
func (s *Store) commit(seq uint64) error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	s.mu.Lock()
	if s.synced >= seq { // an fsync that started after our write covered it
		s.mu.Unlock()
		return nil
	}
	if s.err != nil {
		err := s.err
		s.mu.Unlock()
		return err
	}
	target, f, u, c := s.written, s.f, s.u, s.c
	s.mu.Unlock()
	err := c.Sync()
	if err == nil {
		err = u.Sync()
	}
	if err == nil {
		err = f.Sync()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		return s.fail(fmt.Errorf("run store: fsync: %w", err))
	}
	s.synced = target
	return nil
}

// Samples returns the current record of every sample, in first-seen order.
func (s *Store) Samples() []runrecord.Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]runrecord.Sample, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.samples[id])
	}
	return out
}

// Compact rewrites the log with one record per ID in the given order (IDs not
// in order follow, sorted), so that a finished run's log does not depend on
// goroutine scheduling or on where an earlier process was killed. The usage
// journal is rewritten first with one line per sample (a crash between the
// two rewrites leaves at most as many usage lines per sample as records).
// Both rewrites are atomic: a temp file is fsync'd and renamed over the log.
func (s *Store) Compact(order []string) error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return fmt.Errorf("run store: not compacting after a write failure: %w", s.err)
	}
	rank := make(map[string]int, len(order))
	for i, id := range order {
		rank[id] = i
	}
	ids := append([]string(nil), s.order...)
	sort.SliceStable(ids, func(i, j int) bool {
		ri, iok := rank[ids[i]]
		rj, jok := rank[ids[j]]
		switch {
		case iok && jok:
			return ri < rj
		case iok != jok:
			return iok
		default:
			return ids[i] < ids[j]
		}
	})

	// Usage: the lines of saved states as they are, then one merged line
	// per sample in the new order.
	// A sample's only line is kept as it is; lines merged from one that
	// had no checksum get none either.
	bySample := map[string][]usageLine{}
	var usage []usageLine
	for _, ul := range s.usage {
		if id, ok := strings.CutPrefix(ul.Unit, samplePrefix); ok {
			bySample[id] = append(bySample[id], ul)
			continue
		}
		usage = append(usage, ul)
	}
	for _, id := range ids {
		switch uls := bySample[id]; len(uls) {
		case 0:
		case 1:
			usage = append(usage, uls[0])
		default:
			merged := usageLine{Unit: samplePrefix + id}
			for _, ul := range uls {
				merged.Calls = append(merged.Calls, ul.Calls...)
				merged.unchecked = merged.unchecked || ul.unchecked
			}
			usage = append(usage, merged)
		}
	}
	ub := append(bytes.Join(s.held, nil), encodeUsage(usage)...)
	if err := WriteFileAtomic(filepath.Join(s.dir, UsageJournal), ub); err != nil {
		return err
	}

	var buf bytes.Buffer
	recs, spans := make([]runrecord.Sample, len(ids)), make([]runrecord.Span, len(ids))
	for i, id := range ids {
		b, err := json.Marshal(s.samples[id])
		if err != nil {
			return fmt.Errorf("run store: encode %s: %w", id, err)
		}
		recs[i], spans[i] = s.samples[id], runrecord.Span{Off: int64(buf.Len()), Len: int64(len(b) + 1)}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if err := s.compactPrompts(ids); err != nil {
		return err
	}
	if err := WriteFileAtomic(filepath.Join(s.dir, runrecord.SamplesFile), buf.Bytes()); err != nil {
		return err
	}
	// The viewer's index of the samples, so a large run's first page
	// decodes only its own lines; a later append makes it stale.
	if err := runrecord.WriteSampleIndex(s.dir, runrecord.NewSampleIndex(recs, spans)); err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	f, err := s.openLog(runrecord.SamplesFile)
	if err != nil {
		return err
	}
	u, err := s.openLog(UsageJournal)
	if err != nil {
		f.Close()
		return err
	}
	s.f.Close()
	s.u.Close()
	s.f, s.u = f, u
	s.fsize, s.usize = int64(buf.Len()), int64(len(ub))
	s.usage = usage
	s.order = ids
	for _, id := range ids {
		s.records[id] = 1
	}
	return nil
}

// Close closes the logs and releases the directory's lock.
func (s *Store) Close() error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	for _, f := range []logFile{s.f, s.u, s.c} {
		if f != nil {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	}
	s.f, s.u, s.c = nil, nil, nil
	if s.err == nil {
		s.err = errors.New("run store: closed")
	}
	if s.lock != nil {
		s.lock.Close() // closing the descriptor drops the flock
		s.lock = nil
	}
	return err
}

// CheckConfig binds the run directory to a config hash: it refuses a
// directory whose manifest or ConfigHashFile names another hash, or that
// holds samples with no record of their config, and otherwise records hash
// in ConfigHashFile.
func (s *Store) CheckConfig(hash string) error {
	var prev struct {
		ConfigHash string `json:"config_hash"`
	}
	if _, err := s.ReadJSON(runrecord.ManifestFile, &prev); err != nil {
		return err
	}
	kept, err := os.ReadFile(filepath.Join(s.dir, ConfigHashFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("run store: %w", err)
	}
	for _, h := range []string{prev.ConfigHash, strings.TrimSpace(string(kept))} {
		if h != "" && h != hash {
			return fmt.Errorf("run directory %s holds a run of a different config (hash %.12s, now %.12s); "+
				"use another --out or remove the directory", s.dir, h, hash)
		}
	}
	s.mu.Lock()
	n := len(s.order)
	s.mu.Unlock()
	if prev.ConfigHash == "" && len(kept) == 0 && n > 0 {
		return fmt.Errorf("run directory %s holds %d samples but no record of the config that made them (%s and %s are missing); "+
			"use another --out or remove the directory", s.dir, n, runrecord.ManifestFile, ConfigHashFile)
	}
	if len(kept) == 0 {
		return WriteFileAtomic(filepath.Join(s.dir, ConfigHashFile), []byte(hash+"\n"))
	}
	return nil
}

// compactPrompts rewrites prompts.jsonl (kept by runs from before the call
// record held prompts) with the last line of every ID in ids order (lines of
// IDs not in ids are dropped); the caller holds mu. It
// streams line by line so prompts never all sit in memory at once.
func (s *Store) compactPrompts(ids []string) error {
	path := filepath.Join(s.dir, runrecord.PromptsFile)
	idx, err := runrecord.IndexPrompts(path)
	if err != nil || len(idx) == 0 {
		return err
	}
	src, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	defer src.Close()
	tmp, err := os.CreateTemp(s.dir, "."+runrecord.PromptsFile+".tmp*")
	if err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<16)
	for _, id := range ids {
		sp, ok := idx[id]
		if !ok {
			continue
		}
		if _, err := io.Copy(w, io.NewSectionReader(src, sp.Off, sp.Len)); err != nil {
			tmp.Close()
			return fmt.Errorf("run store: compact prompts: %w", err)
		}
	}
	if err := w.Flush(); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("run store: compact prompts: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("run store: compact prompts: %w", err)
	}
	return nil
}

// WriteJSON writes v as indented JSON to name inside the run directory, atomically.
func (s *Store) WriteJSON(name string, v any) error { return s.WriteJSONWith(name, v, nil) }

// WriteJSONWith is WriteJSON for a saved state that model calls paid for:
// the calls are journalled (and fsync'd) first, with the hash of the bytes
// about to be written, so Open counts them only if the file was written.
func (s *Store) WriteJSONWith(name string, v any, calls []llm.CallRecord) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("run store: encode %s: %w", name, err)
	}
	return s.WriteFileWith(name, append(b, '\n'), calls)
}

// WriteFileWith writes data to name (relative to the run directory)
// atomically, journalling calls first as WriteJSONWith does.
func (s *Store) WriteFileWith(name string, b []byte, calls []llm.CallRecord) error {
	path := filepath.Join(s.dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("run store: %w", err)
	}
	unit := filePrefix + filepath.ToSlash(name)
	s.mu.Lock()
	// A file that model calls paid for is journalled on every write, with
	// or without new calls: Open believes a file unit's last line only if
	// the file holds its bytes, so a later write left out of the journal
	// (a state saved again with no new call, as Mem0's final checkpoint)
	// would drop the calls of the write before it on every resume or merge.
	if len(calls) == 0 && !s.journalled[unit] {
		s.mu.Unlock()
		return WriteFileAtomic(path, b)
	}
	if s.err != nil {
		err := s.err
		s.mu.Unlock()
		return fmt.Errorf("run store: not saving %s: closed after an earlier write failure: %w", name, err)
	}
	calls, chunks := recordCalls(calls)
	ul := usageLine{Unit: unit, SHA256: sha(b), Calls: calls}
	if s.saved[ul.Unit+" "+ul.SHA256] {
		// The same state again: redone work (see loadUsage). Its calls are
		// not counted, but the line still says which bytes the file holds.
		ul.Calls, chunks = nil, pendingChunks{}
	}
	if ul.Calls == nil {
		ul.Calls = []llm.CallRecord{}
	}
	// The calls' chunks go first (a chunk no call names is harmless).
	if err := s.writeChunks(chunks); err != nil {
		err = s.fail(err)
		s.mu.Unlock()
		return err
	}
	if err := writeLine(s.u, &s.usize, encodeUsage([]usageLine{ul})); err != nil {
		err = s.fail(fmt.Errorf("run store: journal usage of %s: %w", name, err))
		s.mu.Unlock()
		return err
	}
	s.usage = append(s.usage, ul)
	s.saved[ul.Unit+" "+ul.SHA256] = true
	s.journalled[unit] = true
	s.written++
	seq := s.written
	s.mu.Unlock()
	if err := s.commit(seq); err != nil {
		return err
	}
	return WriteFileAtomic(path, b)
}

// ErrDamaged is wrapped by ReadJSON's error for a file that exists but
// does not decode (runrecord.ErrDamaged, so runners need not import the store).
var ErrDamaged = runrecord.ErrDamaged

// ReadJSON reads name inside the run directory into v. It reports false when
// the file does not exist.
func (s *Store) ReadJSON(name string, v any) (bool, error) {
	path := filepath.Join(s.dir, name)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("run store: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("%s: %w: %w", path, ErrDamaged, err)
	}
	return true, nil
}

// Reject moves a damaged file aside (to NAME.rejected, replacing an older
// one) so that what it held is rebuilt, and records why among the repairs.
func (s *Store) Reject(name string, why error) error {
	path := filepath.Join(s.dir, name)
	if err := os.Rename(path, path+".rejected"); err != nil {
		return fmt.Errorf("run store: move aside %s: %w", path, err)
	}
	s.mu.Lock()
	s.repairs = append(s.repairs, fmt.Sprintf("%s was damaged (%v); moved to %s.rejected and rebuilt", path, why, filepath.Base(path)))
	s.mu.Unlock()
	return nil
}

// WriteFileAtomic writes data to path through a synced temp file and a
// rename (see atomicfile.Write).
func WriteFileAtomic(path string, data []byte) error {
	return atomicfile.Write(path, data)
}
