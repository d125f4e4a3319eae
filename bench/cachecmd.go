package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/memharness/memharness/llm/cache"
)

func cmdCache(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "cache", "cache stats [--json] | prune [--older-than DURATION | --invalid] [--dir DIR]",
		"The response cache holds one SQLite file per endpoint identity (base URL + model) under\n"+
			"OUT/.cache. stats describes every file; prune deletes entries older than --older-than\n"+
			"(0 empties the cache), or with --invalid only the stored invalid answers, so that the\n"+
			"next run draws them again instead of replaying them.")
	dir := fs.String("dir", filepath.Join("runs", ".cache"), "cache directory")
	older := fs.Duration("older-than", 30*24*time.Hour, "prune: delete entries stored longer ago than this")
	invalid := fs.Bool("invalid", false, "prune: delete only the stored invalid answers")
	asJSON := fs.Bool("json", false, "stats: print one JSON object")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return errUsage
	}
	switch pos[0] {
	case "stats":
		all, err := cache.Scan(*dir)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSONLine(stdio.Out, cacheStatsJSON(*dir, all))
		}
		if len(all) == 0 {
			fmt.Fprintf(stdio.Out, "no cache files in %s\n", *dir)
			return nil
		}
		for _, s := range all {
			fmt.Fprintf(stdio.Out, "%s\n  identity  %s\n  entries   %d (%d invalid; %s of responses, %s on disk)\n",
				s.Path, strings.Join(s.Identities, ", "), s.Entries, s.Invalid, humanBytes(s.Bytes), humanBytes(s.FileBytes))
			if !s.Oldest.IsZero() {
				fmt.Fprintf(stdio.Out, "  stored    %s … %s\n", s.Oldest.UTC().Format(time.RFC3339), s.Newest.UTC().Format(time.RFC3339))
			}
		}
		return nil
	case "prune":
		all, err := cache.Scan(*dir)
		if err != nil {
			return err
		}
		for _, s := range all {
			c, err := cache.Open(s.Path, s.Identity)
			if err != nil {
				return err
			}
			var n int64
			if *invalid {
				n, err = c.PruneInvalid()
			} else {
				n, err = c.Prune(*older)
			}
			c.Close()
			if err != nil {
				return err
			}
			fmt.Fprintf(stdio.Out, "%s: removed %d entries\n", s.Path, n)
		}
		return nil
	default:
		fmt.Fprintf(stdio.Err, "bench cache: unknown action %q\n", pos[0])
		fs.Usage()
		return errUsage
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// cacheStatsFile is one cache file in `bench cache stats --json`.
type cacheStatsFile struct {
	Path       string   `json:"path"`
	Identities []string `json:"identities"`
	Version    int      `json:"version"`
	Entries    int64    `json:"entries"`
	Invalid    int64    `json:"invalid"`
	// ResponseBytes is the size of the stored responses, FileBytes that of
	// the database pages (without the WAL).
	ResponseBytes int64  `json:"response_bytes"`
	FileBytes     int64  `json:"file_bytes"`
	Oldest        string `json:"oldest,omitempty"` // RFC 3339, UTC; absent when empty
	Newest        string `json:"newest,omitempty"`
}

type cacheStatsOut struct {
	Dir   string           `json:"dir"`
	Files []cacheStatsFile `json:"files"`
}

func cacheStatsJSON(dir string, all []cache.Stats) cacheStatsOut {
	out := cacheStatsOut{Dir: dir, Files: []cacheStatsFile{}}
	for _, s := range all {
		f := cacheStatsFile{Path: s.Path, Identities: s.Identities, Version: s.Version, Entries: s.Entries,
			Invalid: s.Invalid, ResponseBytes: s.Bytes, FileBytes: s.FileBytes}
		if !s.Oldest.IsZero() {
			f.Oldest, f.Newest = s.Oldest.UTC().Format(time.RFC3339), s.Newest.UTC().Format(time.RFC3339)
		}
		out.Files = append(out.Files, f)
	}
	return out
}
