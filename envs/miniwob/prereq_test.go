package miniwob

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

// TestPrerequisites checks that a missing browser or npm install is reported
// as an *envs.Prerequisite naming the command that installs it, both by the
// cheap check and by the first episode, without starting anything.
func TestPrerequisites(t *testing.T) {
	modules := filepath.Join(t.TempDir(), "node_modules")
	if err := os.MkdirAll(filepath.Join(modules, "seedrandom"), 0o755); err != nil {
		t.Fatal(err)
	}
	browser := filepath.Join(t.TempDir(), "chromium")
	if err := os.WriteFile(browser, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "absent")
	tests := []struct {
		name              string
		chromium, modules string
		wantInstall       string // "" when nothing is missing
		wantCause         error
	}{
		{"both missing", missing, missing, installBoth, ErrNoNodeModules},
		{"no chromium", missing, modules, installChromium, ErrNoChromium},
		{"no npm libraries", browser, missing, installNodeModules, ErrNoNodeModules},
		{"all there", browser, modules, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := embedded(t, Config{Chromium: tc.chromium, NodeModules: tc.modules})
			err := envs.CheckPrerequisites(s)
			if tc.wantInstall == "" {
				if err != nil {
					t.Fatalf("unexpected %v", err)
				}
				return
			}
			var p *envs.Prerequisite
			if !errors.As(err, &p) {
				t.Fatalf("CheckPrerequisites = %v, want an *envs.Prerequisite", err)
			}
			if p.Env != Name || p.Install != tc.wantInstall || !errors.Is(err, tc.wantCause) {
				t.Errorf("got %+v, want install %q wrapping %v", p, tc.wantInstall, tc.wantCause)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "install with: "+tc.wantInstall) {
				t.Errorf("message is not one line naming the install command: %q", msg)
			}
			_, err = s.NewEpisode(context.Background(), s.Tasks()[0], envs.Options{})
			if !errors.As(err, &p) || p.Install != tc.wantInstall {
				t.Errorf("NewEpisode = %v, want the same prerequisite", err)
			}
		})
	}
}
