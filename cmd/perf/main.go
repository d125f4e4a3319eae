// Command perf is `make perf`: it measures memharness's performance
// figures against baselines doing the same work in the same run, and prints
// one table: figure, ours, baseline, ratio, target, pass.
//
// Honesty rules it follows:
//   - ours and each baseline alternate rep by rep (ABAB…), so drifting load
//     affects both alike; each figure is the median over the reps;
//   - a baseline does the same work (the same request body, decoded; the same
//     file parsed) without the harness's layers;
//   - command-level figures (start-up, `bench data stats`, the loader, a
//     cached `make bench`) are whole processes, as a user runs them, with
//     CPU time and peak memory from the kernel (rusage);
//   - the pandas anchors run when a python3 with pandas is found, and are
//     reported as skipped otherwise.
//
// Usage: go run ./cmd/perf [-reps N] [-quick]
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/memharness/memharness/datasets/synth"
)

func main() {
	reps := flag.Int("reps", 3, "repetitions of every measurement (medians are reported)")
	quick := flag.Bool("quick", false, "leave out the slow figures (the cold and cached make bench, the 282 MB loader)")
	obOut := flag.String("write-omnibehavior", "", "write the loader figure's data set into `DIR` and exit (perf runs itself so to keep the data out of its own memory)")
	flag.Parse()
	if *obOut != "" {
		if err := writeOmniBehavior(*obOut); err != nil {
			fmt.Fprintln(os.Stderr, "perf:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*reps, *quick); err != nil {
		fmt.Fprintln(os.Stderr, "perf:", err)
		os.Exit(1)
	}
}

// row is one line of the final table.
type row struct {
	figure, ours, baseline, ratio, target string
	pass                                  *bool // nil: informational or skipped
}

func run(reps int, quick bool) error {
	tmp, err := os.MkdirTemp("", "memharness-perf-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	load := loadAvg()
	say("building the bench binary and a do-nothing Go binary (the start-up floor)")
	bench := filepath.Join(tmp, "bench")
	if err := sh("go", "build", "-o", bench, "./cmd/bench"); err != nil {
		return err
	}
	floor, err := buildFloor(tmp)
	if err != nil {
		return err
	}
	py := findPandas()
	var rows []row

	// 1. Start-up: `bench --help` as a process.
	say("start-up: bench --help vs an empty Go program%s", ifStr(py != "", " and `import pandas`"))
	cmds := map[string][]string{"ours": {bench, "--help"}, "floor": {floor}}
	if py != "" {
		cmds["pandas"] = []string{py, "-c", "import pandas"}
	}
	st, err := interleave(reps, cmds)
	if err != nil {
		return err
	}
	o := st["ours"]
	rows = append(rows,
		row{"`bench --help` CPU (whole process)", secs(o.cpu), "empty Go program " + secs(st["floor"].cpu) + anchor(st, "pandas", "; import pandas %s", secs),
			ratioText(o.cpu, st["pandas"].cpu, "pandas"), "<= 0.05 s", ok(o.cpu.Seconds() <= 0.05)},
		row{"`bench --help` peak memory", mib(o.rss), "empty Go program " + mib(st["floor"].rss), "-", "<= 25 MiB", ok(o.rss <= 25<<20)})

	// 2. `bench data stats movielens` on a generated 1,000,209-line file.
	say("writing a 1,000,209-line ratings.dat")
	mlDir := filepath.Join(tmp, "ml")
	if err := writeMovieLens(mlDir); err != nil {
		return err
	}
	cmds = map[string][]string{"ours": {bench, "data", "stats", "movielens", "--path", mlDir, "--json"}}
	if py != "" {
		ratings := filepath.Join(mlDir, "ratings.dat")
		cmds["pandas-python"] = []string{py, "-c", fmt.Sprintf("import pandas as pd; d = pd.read_csv(%q, sep='::', engine='python', header=None); print(len(d), d[0].nunique(), d[1].nunique())", ratings)}
		cmds["pandas-c"] = []string{py, "-c", fmt.Sprintf("import pandas as pd; d = pd.read_csv(%q, sep=':', header=None, usecols=[0, 2, 4, 6]); print(len(d), d[0].nunique(), d[2].nunique())", ratings)}
	}
	say("data stats movielens%s", ifStr(py != "", " vs pandas (python engine, sep='::'; C engine, sep=':')"))
	st, err = interleave(reps, cmds)
	if err != nil {
		return err
	}
	o = st["ours"]
	if py != "" {
		rp, rc := st["pandas-python"].wall.Seconds()/o.wall.Seconds(), st["pandas-c"].wall.Seconds()/o.wall.Seconds()
		rows = append(rows,
			row{"data stats movielens (1M lines) vs pandas python engine", secs(o.wall), "pandas " + secs(st["pandas-python"].wall), fmt.Sprintf("%.1f×", rp), ">= 20× faster", ok(rp >= 20)},
			row{"data stats movielens (1M lines) vs pandas C engine", secs(o.wall), "pandas " + secs(st["pandas-c"].wall), fmt.Sprintf("%.1f×", rc), ">= 5× faster", ok(rc >= 5)})
	} else {
		rows = append(rows, row{"data stats movielens (1M lines)", secs(o.wall) + ", " + mib(o.rss), "pandas anchors skipped: no python3 with pandas", "-", "-", nil})
	}

	// 3. Go benchmarks, ours and baseline alternating.
	type pair struct {
		figure, pkg, ours, base, unit, target string
		limit                                 float64 // ours must be <= limit (in the shown unit)
		scale                                 float64 // shown unit per raw value
		shown                                 string  // the shown unit
		higher                                bool    // larger is better (limit is a floor)
	}
	pairs := []pair{
		{"parse 1,000,000 ratings in memory", "./datasets/movielens", "ParseRatings1M", "ParseRatings1MNaive", "ns/op", "<= 1 s", 1, 1e-9, "s", false},
		{"CPU per live call, response cache included", "./llm/cache", "LiveCallCached", "LiveCallRawHTTPStore", "cpu-ns/call", "<= 0.2 ms", 0.2, 1e-6, "ms", false},
		{"cache hit", "./llm/cache", "CacheHit", "SQLitePointLookup", "ns/op", "<= 50 µs", 50, 1e-3, "µs", false},
		{"throughput at 50 ms latency, 32 workers (share of 640/s)", "./llm", "Throughput50ms", "Throughput50msRawHTTP", "ideal-fraction", ">= 0.8", 0.8, 1, "", true},
		{"prefix-cache model (bench plan), 3.8M prompt tokens, 32 in flight", "./internal/prefixcache", "PrefixReuse", "", "Mtokens/s", ">= 5 Mtokens/s", 5, 1, "Mtokens/s", true},
		{"prefix hold per live call, 100k-token prompt, 31 in flight", "./llm", "PrefixHold", "", "µs/call", "<= 5 ms", 5, 1e-3, "ms", false},
	}
	if !quick {
		pairs = append(pairs, pair{"load 200 users / 1.5k–3k records (in process)", "./datasets/omnibehavior", "Load200Users", "", "ns/op", "< 2 s", 2, 1e-9, "s", false})
	}
	for _, p := range pairs {
		say("benchmark %s vs %s", p.ours, orStr(p.base, "-"))
		names := []string{p.ours}
		if p.base != "" {
			names = append(names, p.base)
		}
		vals, err := benchInterleaved(reps, p.pkg, names, p.unit)
		if err != nil {
			return err
		}
		ov := median(vals[p.ours]) * p.scale
		r := row{figure: p.figure, ours: fmtUnit(ov, p.shown), baseline: "-", ratio: "-", target: p.target}
		if p.base != "" {
			bv := median(vals[p.base]) * p.scale
			r.baseline = fmtUnit(bv, p.shown)
			r.ratio = fmt.Sprintf("%.2f", ov/bv)
		}
		pass := ov <= p.limit
		if p.higher {
			pass = ov >= p.limit
		}
		r.pass = ok(pass)
		rows = append(rows, r)
	}

	if !quick {
		// 4. The OmniBehavior loader as a process: 200 users, 1.5k–3k records.
		say("writing 200 OmniBehavior users of 1,500–3,000 records")
		// Generated in a child process: Linux starts a child's peak RSS
		// (ru_maxrss) at this process's own peak when Go starts it, so
		// ~600 MiB of generated data held here would become the floor of
		// every peak memory measured after it (ours and python's alike).
		obDir := filepath.Join(tmp, "ob")
		self, err := os.Executable()
		if err != nil {
			return err
		}
		if err := sh(self, "-write-omnibehavior", obDir); err != nil {
			return fmt.Errorf("write the OmniBehavior data set: %w", err)
		}
		size, err := dirSize(obDir)
		if err != nil {
			return err
		}
		cmds = map[string][]string{"ours": {bench, "data", "stats", "omnibehavior", "--path", obDir, "--json"}}
		if py := findPython(); py != "" {
			cmds["python-json"] = []string{py, "-c", fmt.Sprintf("import json, glob\nn = 0\nfor f in glob.glob(%q + '/**/*.json', recursive=True):\n    with open(f) as h: n += len(json.load(h))\nprint(n)", obDir)}
		}
		say("data stats omnibehavior (%s)", mib(size))
		st, err = interleave(reps, cmds)
		if err != nil {
			return err
		}
		o = st["ours"]
		mbps := float64(size) / 1e6 / o.wall.Seconds()
		base := "-"
		if p, okp := st["python-json"]; okp {
			base = fmt.Sprintf("python json.load %s, %s", secs(p.wall), mib(p.rss))
		}
		rows = append(rows,
			row{fmt.Sprintf("OmniBehavior load, %s (whole process)", mib(size)), fmt.Sprintf("%.0f MB/s (%s)", mbps, secs(o.wall)), base,
				ratioText(o.wall, st["python-json"].wall, "python"), ">= 200 MB/s", ok(mbps >= 200)},
			row{"OmniBehavior load peak memory / input size", fmt.Sprintf("%.2f× (%s)", float64(o.rss)/float64(size), mib(o.rss)), base, "-", "<= 1.5×", ok(float64(o.rss) <= 1.5*float64(size))})

		// 5. make bench: cold once, then the cached re-run as processes.
		say("make bench cold (once), then cached re-runs")
		out := filepath.Join(tmp, "runs")
		configs, _ := filepath.Glob("configs/paper/*.yaml")
		suite := append([]string{bench, "suite", "--out", out}, configs...)
		cold, err := measure(suite)
		if err != nil {
			return err
		}
		st, err = interleave(reps, map[string][]string{"ours": suite, "floor": {floor}})
		if err != nil {
			return err
		}
		o = st["ours"]
		rows = append(rows,
			row{"make bench, cold (embedded default)", secs(cold.wall), "-", "-", "< 10 min on 2 cores", ok(cold.wall < 10*time.Minute)},
			row{"make bench, cached re-run (0 calls)", fmt.Sprintf("%s wall, %s CPU", secs(o.wall), secs(o.cpu)), "empty Go program " + secs(st["floor"].wall), "-", "<= 5 s", ok(o.wall.Seconds() <= 5)})
	}

	printTable(rows, load, loadAvg(), reps)
	for _, r := range rows {
		if r.pass != nil && !*r.pass {
			return fmt.Errorf("a target was missed")
		}
	}
	return nil
}

// proc is one process's measurement.
type proc struct {
	wall, cpu time.Duration
	rss       int64 // peak resident set, bytes
}

func measure(argv []string) (proc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = nil, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return proc{}, fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, tail(errb.String(), 800))
	}
	p := proc{wall: time.Since(start), cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		p.rss = ru.Maxrss * 1024 // KiB on Linux
	}
	return p, nil
}

// interleave runs every command once per rep, in a fresh shuffled order
// each rep, and returns the per-command medians.
func interleave(reps int, cmds map[string][]string) (map[string]proc, error) {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	got := map[string][]proc{}
	rng := rand.New(rand.NewPCG(1, 2))
	for range reps {
		rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		for _, n := range names {
			p, err := measure(cmds[n])
			if err != nil {
				return nil, err
			}
			got[n] = append(got[n], p)
		}
	}
	out := map[string]proc{}
	for n, ps := range got {
		var w, c, r []float64
		for _, p := range ps {
			w, c, r = append(w, float64(p.wall)), append(c, float64(p.cpu)), append(r, float64(p.rss))
		}
		out[n] = proc{wall: time.Duration(median(w)), cpu: time.Duration(median(c)), rss: int64(median(r))}
	}
	return out, nil
}

var benchLine = regexp.MustCompile(`^Benchmark(\S+?)(-\d+)?\s+\d+\s+(.*)$`)

// benchInterleaved runs `go test -bench` once per name per rep, alternating
// the names, and collects the metric with the given unit.
func benchInterleaved(reps int, pkg string, names []string, unit string) (map[string][]float64, error) {
	out := map[string][]float64{}
	for r := range reps {
		order := names
		if r%2 == 1 {
			order = reversed(names)
		}
		for _, n := range order {
			cmd := exec.Command("go", "test", "-run", "^$", "-bench", "^Benchmark"+n+"$", "-count", "1", pkg)
			b, err := cmd.CombinedOutput()
			if err != nil {
				return nil, fmt.Errorf("go test -bench %s %s: %v\n%s", n, pkg, err, tail(string(b), 800))
			}
			v, found := metric(string(b), n, unit)
			if !found {
				return nil, fmt.Errorf("benchmark %s in %s printed no %s:\n%s", n, pkg, unit, tail(string(b), 800))
			}
			out[n] = append(out[n], v)
		}
	}
	return out, nil
}

func metric(out, name, unit string) (float64, bool) {
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil || m[1] != name {
			continue
		}
		f := strings.Fields(m[3])
		for i := 0; i+1 < len(f); i++ {
			if f[i+1] == unit {
				v, err := strconv.ParseFloat(f[i], 64)
				return v, err == nil
			}
		}
	}
	return 0, false
}

// writeMovieLens writes a ratings.dat of 1,000,209 lines (the size of
// MovieLens-1M) with the users and movies files the loader wants.
func writeMovieLens(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(42, 1))
	var b bytes.Buffer
	b.Grow(25 << 20)
	const users, movies, n = 6040, 3706, 1000209
	for i := range n {
		fmt.Fprintf(&b, "%d::%d::%d::%d\n", 1+i%users, 1+rng.IntN(movies), 1+rng.IntN(5), 956703932+rng.IntN(90000000))
	}
	if err := os.WriteFile(filepath.Join(dir, "ratings.dat"), b.Bytes(), 0o644); err != nil {
		return err
	}
	b.Reset()
	for m := 1; m <= movies; m++ {
		fmt.Fprintf(&b, "%d::Movie %d (1995)::Drama|Comedy\n", m, m)
	}
	if err := os.WriteFile(filepath.Join(dir, "movies.dat"), b.Bytes(), 0o644); err != nil {
		return err
	}
	b.Reset()
	for u := 1; u <= users; u++ {
		fmt.Fprintf(&b, "%d::%s::25::4::12345\n", u, []string{"F", "M"}[u%2])
	}
	return os.WriteFile(filepath.Join(dir, "users.dat"), b.Bytes(), 0o644)
}

// writeOmniBehavior writes the loader figure's data: 200 users of
// 1,500–3,000 records (about 282 MB).
func writeOmniBehavior(dir string) error {
	return synth.WriteOmniBehavior(dir, synth.OmniBehaviorConfig{Users: 200, MinRecords: 1500, MaxRecords: 3000, Seed: 7})
}

// buildFloor builds a Go program that does nothing: the least any Go
// command can cost to start.
func buildFloor(tmp string) (string, error) {
	dir := filepath.Join(tmp, "floor")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module floor\n\ngo 1.22\n"), 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(tmp, "floor-bin")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build the floor program: %v\n%s", err, b)
	}
	return bin, nil
}

// findPython returns a python3, or "".
func findPython() string {
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	return ""
}

// findPandas returns a python3 that imports pandas, or "".
func findPandas() string {
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		if exec.Command(path, "-c", "import pandas").Run() == nil {
			return path
		}
	}
	return ""
}

func printTable(rows []row, before, after string, reps int) {
	w := []int{len("figure"), len("ours"), len("baseline (same run)"), len("ratio"), len("target"), len("pass")}
	cells := func(r row) []string {
		p := "-"
		if r.pass != nil {
			p = map[bool]string{true: "ok", false: "MISSED"}[*r.pass]
		}
		return []string{r.figure, r.ours, r.baseline, r.ratio, r.target, p}
	}
	for _, r := range rows {
		for i, c := range cells(r) {
			w[i] = max(w[i], len([]rune(c)))
		}
	}
	line := func(c []string) {
		var b strings.Builder
		for i, s := range c {
			b.WriteString(s + strings.Repeat(" ", w[i]-len([]rune(s))+2))
		}
		fmt.Println(strings.TrimRight(b.String(), " "))
	}
	fmt.Printf("\nmemharness perf — median of %d interleaved reps; load average before: %s, after: %s\n\n", reps, before, after)
	line([]string{"figure", "ours", "baseline (same run)", "ratio", "target", "pass"})
	for _, r := range rows {
		line(cells(r))
	}
}

func say(format string, args ...any) { fmt.Fprintf(os.Stderr, "perf: "+format+"\n", args...) }

func sh(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
		return err
	})
	return n, err
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[len(s)-1-i] = x
	}
	return out
}

func fmtUnit(v float64, unit string) string {
	return strings.TrimSpace(fmt.Sprintf("%.3f %s", v, unit))
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3f s", d.Seconds()) }

func mib(n int64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }

func ok(b bool) *bool { return &b }

func ifStr(c bool, s string) string {
	if c {
		return s
	}
	return ""
}

func orStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func anchor(st map[string]proc, name, format string, f func(time.Duration) string) string {
	p, found := st[name]
	if !found {
		return ""
	}
	return fmt.Sprintf(format, f(p.cpu))
}

func ratioText(ours, other time.Duration, name string) string {
	if other == 0 || ours == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f× faster than %s", other.Seconds()/ours.Seconds(), name)
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
