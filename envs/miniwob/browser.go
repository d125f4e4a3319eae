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
)

// ErrNoChromium is returned (wrapped) when no Chromium binary is found.
var ErrNoChromium = errors.New("chromium not found (install it with scripts/ci-chromium.sh or set MEMHARNESS_CHROMIUM)")

// ErrNoNodeModules is returned (wrapped) when the npm libraries are missing.
var ErrNoNodeModules = errors.New("envs/miniwob/js/node_modules not found (run scripts/ci-chromium.sh or set MEMHARNESS_MINIWOB_JS)")

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
