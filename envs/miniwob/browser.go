package miniwob

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/memharness/memharness/envs"
)

// ErrNoChromium is wrapped by the *envs.Prerequisite returned when no
// Chromium binary is found.
var ErrNoChromium = errors.New("no chromium, chromium-browser, google-chrome or headless-shell on $PATH, and $MEMHARNESS_CHROMIUM is not set")

// ErrNoNodeModules is wrapped by the *envs.Prerequisite returned when the npm
// libraries are missing.
var ErrNoNodeModules = errors.New("no envs/miniwob/js/node_modules with seedrandom found from the working directory, and $MEMHARNESS_MINIWOB_JS is not set")

// The commands that install what is missing, from the repository root.
const (
	installChromium    = "sudo apt-get install chromium"
	installNodeModules = "npm ci --prefix envs/miniwob/js"
	// scripts/ci-chromium.sh installs both (apt-get, then npm ci).
	installBoth = "bash scripts/ci-chromium.sh"
)

// prerequisite turns the lookup errors of the browser and the npm libraries
// into one *envs.Prerequisite naming everything missing (nil when neither is).
func prerequisite(chromiumErr, modulesErr error) error {
	switch {
	case chromiumErr != nil && modulesErr != nil:
		return &envs.Prerequisite{Env: Name, What: "chromium and the npm libraries in envs/miniwob/js/node_modules",
			Install: installBoth, Err: fmt.Errorf("%w; %w", chromiumErr, modulesErr)}
	case chromiumErr != nil:
		return &envs.Prerequisite{Env: Name, What: "chromium", Install: installChromium, Err: chromiumErr}
	case modulesErr != nil:
		return &envs.Prerequisite{Env: Name, What: "the npm libraries in envs/miniwob/js/node_modules",
			Install: installNodeModules, Err: modulesErr}
	}
	return nil
}

// Prerequisites implements envs.Prerequisites: it looks for Chromium and the
// npm libraries without starting either.
func (s *Suite) Prerequisites() error {
	_, chromiumErr := findChromium(s.cfg.Chromium)
	_, modulesErr := findNodeModules(s.cfg.NodeModules)
	return prerequisite(chromiumErr, modulesErr)
}

// findChromium resolves the browser binary: explicit path, then
// $MEMHARNESS_CHROMIUM, then the usual names on $PATH.
func findChromium(explicit string) (string, error) {
	for _, p := range []string{explicit, os.Getenv("MEMHARNESS_CHROMIUM")} {
		if p != "" {
			if _, err := os.Stat(p); err != nil {
				return "", fmt.Errorf("%w: %s: %v", ErrNoChromium, p, err)
			}
			return p, nil
		}
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// findNodeModules resolves the npm install: explicit path, then
// $MEMHARNESS_MINIWOB_JS, then envs/miniwob/js/node_modules found from the
// working directory upwards, then next to this source file.
func findNodeModules(explicit string) (string, error) {
	ok := func(p string) bool {
		st, err := os.Stat(filepath.Join(p, "seedrandom"))
		return err == nil && st.IsDir()
	}
	for _, p := range []string{explicit, os.Getenv("MEMHARNESS_MINIWOB_JS")} {
		if p != "" {
			if !ok(p) {
				return "", fmt.Errorf("%w: %s has no seedrandom", ErrNoNodeModules, p)
			}
			return p, nil
		}
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			for _, rel := range []string{"js/node_modules", "envs/miniwob/js/node_modules"} {
				if p := filepath.Join(d, rel); ok(p) {
					return p, nil
				}
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if _, file, _, found := runtime.Caller(0); found {
		if p := filepath.Join(filepath.Dir(file), "js", "node_modules"); ok(p) {
			return p, nil
		}
	}
	return "", ErrNoNodeModules
}

// browser is one headless Chromium shared by every episode of a suite.
type browser struct {
	ctx         context.Context // browser context: tabs are its children
	cancel      context.CancelFunc
	allocCancel context.CancelFunc
}

func startBrowser(binary string, width, height int) (*browser, error) {
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(binary),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("mute-audio", true),
		chromedp.WindowSize(width, height),
	)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		bcancel()
		acancel()
		return nil, fmt.Errorf("miniwob: start %s: %w", binary, err)
	}
	return &browser{ctx: bctx, cancel: bcancel, allocCancel: acancel}, nil
}

// close stops the browser process and removes its profile directory.
func (b *browser) close() {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	_ = chromedp.Cancel(ctx) // graceful first; the allocator kills what is left
	b.cancel()
	b.allocCancel()
}
