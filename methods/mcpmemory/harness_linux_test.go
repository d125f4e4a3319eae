//go:build linux

package mcpmemory

import "os"

// harnessMain is the harness role of a re-run of this test binary, when
// the environment asks for it.
func harnessMain() (func() int, bool) {
	if _, ok := os.LookupEnv(harnessVar); ok {
		return runHarness, true
	}
	return nil, false
}
