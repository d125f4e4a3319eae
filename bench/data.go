package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/memharness/memharness/datasets/fetch"
	"github.com/memharness/memharness/datasets/movielens"
	"github.com/memharness/memharness/datasets/omnibehavior"
)

// dataCacheDir is where `bench data fetch` stores official archives:
// $MEMHARNESS_DATA, else the user cache dir.
func dataCacheDir(getenv func(string) string) string {
	if d := getenv("MEMHARNESS_DATA"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "memharness", "data")
	}
	return filepath.Join(".cache", "memharness", "data")
}

func cmdData(ctx context.Context, stdio IO, args []string) error {
	const synopsis = "data fetch|verify|stats|inspect NAME [--path DIR] [--dir CACHE] [--json]"
	about := "Datasets are never shipped with the harness.\n" +
		"  fetch   download the official release into the cache (SHA-256 pinned) and extract it\n" +
		"  verify  re-check the cached download against its pinned digests\n" +
		"  stats   describe a local copy (--path DIR, a directory or the official zip)\n" +
		"  inspect (omnibehavior) one JSON line per record: flags and the 18 binary labels\n" +
		"Names: movielens, omnibehavior. The cache is $MEMHARNESS_DATA or the user cache directory."
	fs := newFlags(stdio.Err, "data", synopsis, about)
	path := fs.String("path", "", "dataset directory or archive (stats; default: the fetched copy)")
	dir := fs.String("dir", "", "download cache directory (default $MEMHARNESS_DATA or the user cache dir)")
	asJSON := fs.Bool("json", false, "print JSON (stats: one object; inspect: one line per record)")
	lang := fs.String("lang", "zh", "omnibehavior: language folder of the release (zh or en)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		fmt.Fprintln(stdio.Err, "bench data: want an action and a dataset name")
		fs.Usage()
		return errUsage
	}
	action, name := pos[0], pos[1]
	switch name {
	case "movielens":
	case "omnibehavior":
		return dataOmniBehavior(stdio, action, *path, *lang, *asJSON)
	default:
		return fmt.Errorf("unknown dataset %q (known: movielens, omnibehavior)", name)
	}
	cache := *dir
	if cache == "" {
		cache = dataCacheDir(stdio.Getenv)
	}
	switch action {
	case "fetch":
		out, err := fetch.MovieLens(ctx, cache, stdio.Err)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdio.Out, "movielens: %s\n", out)
		return nil
	case "verify":
		spec := fetch.MovieLens1M()
		p := filepath.Join(cache, filepath.Base(spec.URL))
		if err := fetch.Verify(p, spec); err != nil {
			return fmt.Errorf("%w (run 'bench data fetch movielens' to download it again)", err)
		}
		fmt.Fprintf(stdio.Out, "movielens: %s matches its pinned SHA-256 %s\n", p, spec.SHA256)
		return nil
	case "stats":
		p := *path
		if p == "" {
			p = filepath.Join(cache, "ml-1m")
		}
		ds, err := movielens.Load(p)
		if err != nil {
			return err
		}
		st := ds.Stats()
		if *asJSON {
			b, err := json.Marshal(st)
			if err != nil {
				return err
			}
			fmt.Fprintln(stdio.Out, string(b))
			return nil
		}
		fmt.Fprintf(stdio.Out, "ratings          %d\nusers            %d\nmovies (rated)   %d\nusers >300 rated %d\ntimestamps       %d … %d\n",
			st.Ratings, st.Users, st.Movies, st.UsersOver300, st.MinTimestamp, st.MaxTimestamp)
		return nil
	default:
		fmt.Fprintf(stdio.Err, "bench data: unknown action %q\n", action)
		fs.Usage()
		return errUsage
	}
}

// dataOmniBehavior serves the data verbs of OmniBehavior.
func dataOmniBehavior(stdio IO, action, path, lang string, asJSON bool) error {
	switch action {
	case "fetch", "verify":
		// The release lives on a gated Hugging Face dataset; without network
		// access here no revision or SHA-256 could be pinned, and the harness
		// never downloads unpinned data.
		return fmt.Errorf("omnibehavior: no pinned release yet (no revision or SHA-256 could be pinned offline): %s", omnibehavior.FetchHint)
	case "stats", "inspect":
	default:
		return fmt.Errorf("unknown action %q", action)
	}
	if path == "" {
		return fmt.Errorf("omnibehavior: --path DIR is required (%s)", omnibehavior.FetchHint)
	}
	ds, err := omnibehavior.Load(path, lang)
	if err != nil {
		return err
	}
	for _, fe := range ds.Errors {
		fmt.Fprintf(stdio.Err, "warning: %v\n", fe)
	}
	enc := json.NewEncoder(stdio.Out)
	enc.SetEscapeHTML(false)
	if action == "inspect" {
		for _, line := range omnibehavior.Inspect(ds.Users) {
			if err := enc.Encode(line); err != nil {
				return err
			}
		}
		return nil
	}
	st := omnibehavior.ComputeStats(ds.Users)
	if asJSON {
		return enc.Encode(st)
	}
	fmt.Fprintf(stdio.Out, "users   %d\nrecords %d\n", st.Users, st.Records)
	for _, sc := range sortedKeysInt(st.Scenes) {
		fmt.Fprintf(stdio.Out, "  %-8s %d\n", sc, st.Scenes[sc])
	}
	return nil
}

func sortedKeysInt(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
