package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/releasepacks/lifememrel"
)

// TestDataSourceFetch downloads a stand-in source from an httptest server
// laid out like a checkout, re-verifies it, and checks that a tampered
// copy fails naming the file.
func TestDataSourceFetch(t *testing.T) {
	files := map[string][]byte{
		"/tau_bench/agents/chat_react_agent.py": []byte("REACT_INSTRUCTION = \"stand-in\"\n"),
		"/tau_bench/envs/retail/wiki.md":        []byte("# stand-in policy\n"),
	}
	srv, hits := fakeServer(t, files)
	src := lifememrel.Source{Name: "tau-bench", Repository: "github.com/example/tau", Owner: "example", Repo: "tau"}
	for _, p := range []string{"tau_bench/agents/chat_react_agent.py", "tau_bench/envs/retail/wiki.md"} {
		b := files["/"+p]
		src.Files = append(src.Files, lifememrel.File{Path: p, Commit: strings.Repeat("a", 40), SHA256: sha(b), Size: int64(len(b))})
	}
	cache := t.TempDir()
	var out, errb bytes.Buffer
	stdio := IO{Out: &out, Err: &errb, Getenv: func(k string) string {
		if k == "MEMHARNESS_TAU_BENCH_URL" {
			return srv.URL + "/"
		}
		return ""
	}}
	if err := dataSource(t.Context(), stdio, "fetch", cache, "", src); err != nil {
		t.Fatalf("fetch: %v\n%s%s", err, out.String(), errb.String())
	}
	got, err := os.ReadFile(filepath.Join(cache, "tau-bench", "tau_bench", "envs", "retail", "wiki.md"))
	if err != nil || !bytes.Equal(got, files["/tau_bench/envs/retail/wiki.md"]) {
		t.Fatalf("fetched wiki: %q, %v", got, err)
	}
	if err := dataSource(t.Context(), stdio, "fetch", cache, "", src); err != nil {
		t.Fatal(err)
	}
	if n := hits("/tau_bench/envs/retail/wiki.md"); n != 1 {
		t.Errorf("wiki downloaded %d times, want 1 (the second fetch reuses the verified file)", n)
	}
	// The real pins refuse the stand-ins, naming the file.
	err = dataSource(t.Context(), stdio, "fetch", t.TempDir(), "", lifememrel.TauBench)
	if err == nil || !strings.Contains(err.Error(), "chat_react_agent.py") {
		t.Errorf("fetch against the real pins: %v", err)
	}
	// A checkout passed with --path is verified the same way.
	path := filepath.Join(cache, "tau-bench")
	if err := os.WriteFile(filepath.Join(path, "tau_bench", "envs", "retail", "wiki.md"), []byte("edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	err = dataSource(t.Context(), stdio, "verify", t.TempDir(), path, src)
	if err == nil || !strings.Contains(out.String(), filepath.Join("retail", "wiki.md")) {
		t.Errorf("verify of a tampered checkout: %v\n%s", err, out.String())
	}
	// LifeMem's release is pinned: a mirror serving other bytes is
	// refused, naming the file.
	lm := map[string][]byte{}
	for _, f := range lifememrel.LifeMem.Files {
		lm["/"+f.Path] = []byte("# stand-in\n")
	}
	lmSrv, _ := fakeServer(t, lm)
	out.Reset()
	lmIO := stdio
	lmIO.Getenv = func(k string) string {
		if k == "MEMHARNESS_LIFEMEM_RELEASE_URL" {
			return lmSrv.URL + "/"
		}
		return ""
	}
	err = dataSource(t.Context(), lmIO, "fetch", t.TempDir(), "", lifememrel.LifeMem)
	if err == nil || !strings.Contains(out.String(), filepath.Join("ScienceWorld", "examples", "evaluator.py")) {
		t.Errorf("lifemem-release fetch against stand-ins: %v\n%s", err, out.String())
	}
	// A file without a digest is listed for download by hand, never
	// fetched unchecked.
	un := src
	un.Files = append([]lifememrel.File(nil), src.Files...)
	un.Files[1].SHA256 = ""
	out.Reset()
	err = dataSource(t.Context(), stdio, "fetch", t.TempDir(), "", un)
	if err == nil || !strings.Contains(out.String(), "skip") {
		t.Errorf("unpinned fetch: %v\n%s", err, out.String())
	}
}

// TestDataFetchNLTKPunkt: `bench data fetch nltk-punkt` downloads nltk_data's
// punkt_tab.zip under its pin; a mirror serving other bytes is refused,
// naming the package file.
func TestDataFetchNLTKPunkt(t *testing.T) {
	srv, hits := fakeServer(t, map[string][]byte{"/packages/tokenizers/punkt_tab.zip": []byte("PK stand-in")})
	var out, errb bytes.Buffer
	stdio := IO{Out: &out, Err: &errb, Getenv: func(k string) string {
		if k == "MEMHARNESS_NLTK_PUNKT_URL" {
			return srv.URL + "/"
		}
		return ""
	}}
	err := cmdData(t.Context(), stdio, []string{"fetch", "nltk-punkt", "--dir", t.TempDir()})
	if err == nil || !strings.Contains(out.String()+err.Error(), "punkt_tab.zip") {
		t.Fatalf("fetch of a stand-in against the pin: %v\n%s%s", err, out.String(), errb.String())
	}
	if hits("/packages/tokenizers/punkt_tab.zip") == 0 {
		t.Error("the package was never asked for")
	}
}
