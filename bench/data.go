package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/memharness/memharness/family"

	"github.com/memharness/memharness/datasets/fetch"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/datasets/movielens"
	"github.com/memharness/memharness/datasets/omnibehavior"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/releasepacks/lifememrel"
	"github.com/memharness/memharness/releasepacks/memqarel"
	"github.com/memharness/memharness/releasepacks/pramemrel"
)

func cmdData(ctx context.Context, stdio IO, args []string) error {
	const synopsis = "data fetch|verify|stats|inspect NAME [--path DIR] [--dir CACHE] [--json]"
	about := "Datasets are never shipped with the harness.\n" +
		"  fetch   download the official release into the cache (SHA-256 pinned) and extract it;\n" +
		"          for an environment, every pinned file into CACHE/<its data folder> (unpinned\n" +
		"          files are listed for download by hand); then pass CACHE to 'bench envs check --data'\n" +
		"  verify  re-check the cached download against its pinned digests\n" +
		"  stats   describe a local copy (--path DIR, a directory or the official zip)\n" +
		"  inspect (omnibehavior) one JSON line per record: flags and the 18 binary labels\n" +
		"  pramem-release: the PraMem authors' prompts (github.com/icip-cas/PraMem at a pinned commit)\n" +
		"          for prompts: release; verify --path DIR checks a git checkout instead;\n" +
		"          $MEMHARNESS_PRAMEM_RELEASE_URL replaces the raw-file base (a mirror).\n" +
		"  lifemem-release, tau-bench, expel, agentbench, synapse: the LifeMem paper's agent prompts\n" +
		"          (the authors' release and the benchmark code it uses, at pinned commits).\n" +
		"  mem0-eval, longmemeval-eval: the LLM-judge prompts of mem0's LoCoMo evaluation and of\n" +
		"          LongMemEval (pinned commits), for the conversational-memory judge and answer prompts under prompts: release.\n" +
		"  nltk-punkt: nltk_data's punkt_tab.zip (pinned commit), the English Punkt model mem0's BLEU-1\n" +
		"          tokenises LoCoMo answers with under prompts: release.\n" +
		"  locomo, longmemeval: conversational-memory QA (LoCoMo's locomo10.json; LongMemEval's _s, _oracle\n" +
		"          and _m files, 3 GB in all); stats reads CACHE/<name> or --path (LongMemEval: the _s file\n" +
		"          of a folder, or the file named).\n" +
		"Names: movielens, omnibehavior, " + strings.Join(memqa.Names(), ", ") + ", pramem-release, " + strings.Join(releasePackNames(), ", ") + "; environments (fetch, verify): " + strings.Join(envDataNames(), ", ") + ".\n" +
		"The cache is $MEMHARNESS_DATA or the user cache directory."
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
	cache := *dir
	if cache == "" {
		cache = family.DataCacheDir(stdio.Getenv)
	}
	switch name {
	case "movielens":
	case pramemrel.FetchName:
		return dataRelease(ctx, stdio, action, cache, stdio.Getenv("MEMHARNESS_PRAMEM_RELEASE_URL"), *path, pramemrel.Files)
	case string(memqa.LoCoMo), string(memqa.LongMemEval):
		return dataMemQA(ctx, stdio, action, memqa.Benchmark(name), cache, *path, *asJSON)
	case "omnibehavior":
		return dataOmniBehavior(stdio, action, *path, *lang, *asJSON)
	default:
		if src, ok := lifememrel.Find(name); ok {
			return dataSource(ctx, stdio, action, cache, *path, src)
		}
		if src, ok := memqarel.Find(name); ok {
			return dataSource(ctx, stdio, action, cache, *path, src)
		}
		if e, ok := envDataEntry(name); ok {
			return dataEnv(ctx, stdio, action, e, cache)
		}
		return fmt.Errorf("unknown dataset %q (known: movielens, omnibehavior, %s, pramem-release, %s)", name, strings.Join(memqa.Names(), ", "), strings.Join(envDataNames(), ", "))
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
		// The summary needs no ratings kept: they are tallied as parsed.
		st, err := movielens.LoadStats(p)
		if err != nil {
			return family.DataPathHint(err, family.DataPathFlag)
		}
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

// dataRelease serves fetch and verify of the PraMem release pack: its
// pinned files go to CACHE/pramem-release in the repository's layout (raw
// files of the pinned commit, from base when set: tests and mirrors), then
// the pack is read once to check its shape. verify --path checks another
// copy, such as a git checkout.
func dataRelease(ctx context.Context, stdio IO, action, cache, base, path string, pins []pramemrel.File) error {
	dir := filepath.Join(cache, pramemrel.FetchName)
	specs := pramemrel.SpecsFor(base, pins)
	switch action {
	case "fetch":
		if err := fetchSpecs(ctx, stdio.Out, stdio.Err, specs, dir, fetch.Options{}); err != nil {
			return err
		}
	case "verify":
		if path != "" {
			dir = path
		}
		if err := verifySpecs(stdio.Out, specs, dir); err != nil {
			return fmt.Errorf("%w (%s)", err, pramemrel.FetchHint)
		}
	default:
		return fmt.Errorf("%s: action %q is not available (fetch or verify)", pramemrel.FetchName, action)
	}
	p, err := pramemrel.OpenPinned(dir, pins)
	if err != nil {
		return err
	}
	if _, err := p.Templates(); err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "%s: %s holds %s@%.12s; use it with prompts: release (prompt.release_dir: %s)\n",
		pramemrel.FetchName, dir, pramemrel.Repository, pramemrel.Commit, dir)
	return nil
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
		return family.DataPathHint(err, family.DataPathFlag)
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

// envDataNames lists the environments `bench data` can fetch.
func envDataNames() []string {
	var names []string
	for _, e := range all.Entries() {
		if e.Fetch != nil {
			names = append(names, e.Name)
		}
	}
	return names
}

func envDataEntry(name string) (all.Entry, bool) {
	for _, e := range all.Entries() {
		if e.Name == name && e.Fetch != nil {
			return e, true
		}
	}
	return all.Entry{}, false
}

// dataEnv serves fetch and verify for an agent environment: its files go to
// cache/<DataSubdir>, so cache is a data root for `bench envs check --data`.
func dataEnv(ctx context.Context, stdio IO, action string, e all.Entry, cache string) error {
	dir := filepath.Join(cache, filepath.FromSlash(e.DataSubdir))
	var err error
	switch action {
	case "fetch":
		err = fetchSpecs(ctx, stdio.Out, stdio.Err, e.Fetch(), dir, fetch.Options{})
	case "verify":
		err = verifySpecs(stdio.Out, e.Fetch(), dir)
	default:
		return fmt.Errorf("%s: action %q is not available for an environment (fetch or verify; 'bench envs check %s --data DIR' checks a copy)", e.Name, action, e.Name)
	}
	if err != nil {
		if action == "verify" {
			return fmt.Errorf("%w (run 'bench data fetch %s' to download again)", err, e.Name)
		}
		return err
	}
	fmt.Fprintf(stdio.Out, "%s: data root %s (pass it to 'bench envs check %s --data %s')\n", e.Name, cache, e.Name, cache)
	return nil
}

// specPath is where spec s lives below dir: FileName (or the URL's last
// element) is a slash-separated path that may name subdirectories.
func specPath(dir string, s fetch.Spec) (string, error) {
	name := s.FileName
	if name == "" {
		name = s.URL[strings.LastIndex(s.URL, "/")+1:]
	}
	clean := path.Clean(name)
	if name == "" || path.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%s: file name %q leaves the data folder", s.Name, name)
	}
	return filepath.Join(dir, filepath.FromSlash(clean)), nil
}

// unpinnedLine explains why a spec without a SHA-256 is not downloaded.
func unpinnedLine(s fetch.Spec, p string) string {
	return fmt.Sprintf("skip    %s: no SHA-256 or git blob pin, so the harness will not download it; download %s by hand to %s", s.Name, s.URL, p)
}

// fetchSpecs downloads every pinned spec below dir, at dir/<FileName>
// (creating subdirectories), and prints one line per file to out;
// fetch.Fetch's progress goes to progress. Specs without a pin (SHA-256
// or git blob id) are skipped and reported. It goes through every spec and returns an error
// naming the failures.
func fetchSpecs(ctx context.Context, out, progress io.Writer, specs []fetch.Spec, dir string, opts fetch.Options) error {
	var failed []string
	for _, s := range specs {
		p, err := specPath(dir, s)
		if err != nil {
			fmt.Fprintf(out, "FAIL    %v\n", err)
			failed = append(failed, s.Name)
			continue
		}
		if !s.Pinned() {
			fmt.Fprintln(out, unpinnedLine(s, p))
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		flat := s // fetch writes FileName into one directory
		flat.FileName = filepath.Base(p)
		if _, err := fetch.FetchWith(ctx, flat, filepath.Dir(p), progress, opts); err != nil {
			fmt.Fprintf(out, "FAIL    %s: %v\n", p, err)
			failed = append(failed, p)
			continue
		}
		fmt.Fprintf(out, "ok      %s\n", p)
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d files failed: %s", len(failed), len(specs), strings.Join(failed, ", "))
	}
	return nil
}

// verifySpecs re-checks every pinned spec present below dir and prints one
// line per file (missing and unpinned files are reported, not checked). It
// fails when a present file does not match, or when none is present.
func verifySpecs(out io.Writer, specs []fetch.Spec, dir string) error {
	var bad []string
	checked := 0
	for _, s := range specs {
		p, err := specPath(dir, s)
		if err != nil {
			fmt.Fprintf(out, "FAIL    %v\n", err)
			bad = append(bad, s.Name)
			continue
		}
		if !s.Pinned() {
			fmt.Fprintln(out, unpinnedLine(s, p))
			continue
		}
		if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(out, "missing %s\n", p)
			continue
		}
		checked++
		if err := fetch.Verify(p, s); err != nil {
			fmt.Fprintf(out, "FAIL    %s: %v\n", p, err)
			bad = append(bad, p)
			continue
		}
		fmt.Fprintf(out, "ok      %s\n", p)
	}
	if len(bad) > 0 {
		return fmt.Errorf("%d files fail verification: %s", len(bad), strings.Join(bad, ", "))
	}
	if checked == 0 {
		return fmt.Errorf("no pinned file found below %s", dir)
	}
	return nil
}

// releaseFetchNames are the release packs `bench data fetch` downloads.
func releaseFetchNames() []string {
	return append([]string{pramemrel.FetchName}, releasePackNames()...)
}

// releasePackNames are the fetch names of the sources read as
// lifememrel.Source values: the LifeMem paper's and the
// conversational-memory judges'.
func releasePackNames() []string {
	return append(lifememrel.Names(), memqarel.Names()...)
}

// isFetchTarget reports whether fetching name downloads something.
func isFetchTarget(name string) bool {
	if name == "movielens" || slices.Contains(releaseFetchNames(), name) || slices.Contains(memqa.Names(), name) {
		return true
	}
	_, ok := envDataEntry(name)
	return ok
}
