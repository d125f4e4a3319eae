package view

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// StaticDir is the folder of a static report's pages besides index.html.
const StaticDir = "html"

// WriteStatic writes the browsable report of the run in runDir as static
// pages that open from disk: report/index.html (the overview, tables and
// figures) and report/html/ (tables, sample lists per method with every
// sample inline, transcripts and memories). It returns the index path.
func WriteStatic(ctx context.Context, runDir string) (string, error) {
	ri, err := loadRun(runDir)
	if err != nil {
		return "", err
	}
	ri.static = true
	reportDir := filepath.Join(runDir, "report")
	sub := filepath.Join(reportDir, StaticDir)
	if err := os.RemoveAll(sub); err != nil {
		return "", fmt.Errorf("view: %w", err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return "", fmt.Errorf("view: %w", err)
	}
	name := displayName(filepath.Base(runDir), ri)
	write := func(file, tmpl string, p Page) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The script sits beside the pages in html/; index.html is one up.
		p.ScriptURL = ScriptName
		if filepath.Dir(file) != sub {
			p.ScriptURL = StaticDir + "/" + ScriptName
		}
		var buf bytes.Buffer
		if err := render(&buf, tmpl, p); err != nil {
			return fmt.Errorf("view: %s: %w", file, err)
		}
		return os.WriteFile(file, buf.Bytes(), 0o644)
	}
	if err := os.WriteFile(filepath.Join(sub, ScriptName), []byte(asset("filter.js")), 0o644); err != nil {
		return "", fmt.Errorf("view: %w", err)
	}
	top, in := staticLinks{sub: false}, staticLinks{sub: true}
	rd, err := runData(ri, top)
	if err != nil {
		return "", err
	}
	index := filepath.Join(reportDir, "index.html")
	if err := write(index, "run", Page{Title: "Run " + name, Nav: navOf(ri, name, top), Static: true, Data: rd}); err != nil {
		return "", err
	}
	nav := navOf(ri, name, in)
	tables, _ := reportFiles(runDir)
	for _, t := range tables {
		td, err := tableData(ri, t, in)
		if err != nil {
			return "", err
		}
		if err := write(filepath.Join(sub, "table-"+fileKey(t)+".html"), "table", Page{Title: t, Nav: nav, Static: true, Data: td}); err != nil {
			return "", err
		}
	}
	for _, m := range append([]string{""}, ri.methods...) {
		f := Filter{Method: m}
		matched, _ := ri.match(context.Background(), f)
		n := len(matched)
		for page := 1; page == 1 || (page-1)*PageSize < n; page++ {
			// Details go inline on the all-methods list only; the
			// method lists link into it.
			sd, err := samplesData(ri, f, page, in, m == "")
			if err != nil {
				return "", err
			}
			title := "Samples"
			if m != "" {
				title += " of " + m
			}
			if err := write(filepath.Join(sub, samplesFile(m, page)), "samples", Page{Title: title, Nav: nav, Static: true, Data: sd}); err != nil {
				return "", err
			}
		}
	}
	perUser, ll := memoryMethods(runDir)
	for _, m := range perUser {
		for _, u := range memoryUsers(runDir, m) {
			md, err := memoryData(ri, m, u, in)
			if err != nil {
				return "", err
			}
			file := filepath.Join(sub, filepath.Base(in.memory(m, u)))
			if err := write(file, "memory", Page{Title: "Memory of " + m + " for " + u, Nav: nav, Static: true, Data: md}); err != nil {
				return "", err
			}
		}
	}
	for _, m := range ll {
		ld, err := lifelongData(ctx, ri, m, in)
		if err != nil {
			return "", err
		}
		if err := write(filepath.Join(sub, filepath.Base(in.lifelong(m))), "lifelong", Page{Title: "Lifelong memory of " + m, Nav: nav, Static: true, Data: ld}); err != nil {
			return "", err
		}
		for _, st := range transcriptStages(runDir, m) {
			td, err := transcriptsData(ri, m, st, in)
			if err != nil {
				return "", err
			}
			file := filepath.Join(sub, filepath.Base(in.transcripts(m, st)))
			if err := write(file, "transcripts", Page{Title: "Transcripts of " + m + ", stage " + st, Nav: nav, Static: true, Data: td}); err != nil {
				return "", err
			}
		}
	}
	return index, nil
}
