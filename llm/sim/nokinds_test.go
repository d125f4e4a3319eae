package sim_test

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModelLayerNamesNoKind: the model layer is taught by the kinds
// (Readers); its code — identifiers and string literals, not comments —
// names no built-in method or environment, so a new kind never edits it.
func TestModelLayerNamesNoKind(t *testing.T) {
	kinds := []string{"webshop", "toolqa", "pramem", "lifemem", "mem0", "memos", "proex", "taubench",
		"alfworld", "scienceworld", "hotpotqa", "fever", "mind2web", "miniwob", "apibank", "dbbench",
		"synapse", "expel", "autoskill", "movielens", "omnibehavior", "loaddb", "coffee"}
	// The gateway's child environment turns off the mem0 library's
	// telemetry and keeps its variables from a child: the library a child
	// may wrap, not the Mem0-style method kind.
	library := map[string]string{filepath.Join("..", "gateway", "env.go"): "mem0"}
	root := filepath.Join("..") // the llm/ tree
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		var s scanner.Scanner
		s.Init(fset.AddFile(path, -1, len(src)), src, nil, 0)
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				return nil
			}
			if tok != token.IDENT && tok != token.STRING {
				continue
			}
			low := strings.ToLower(lit)
			for _, k := range kinds {
				if strings.Contains(low, k) && library[path] != k {
					t.Errorf("%s: %q names the built-in kind %q; teach the sim through a Reader beside the kind", fset.Position(pos), lit, k)
				}
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}
