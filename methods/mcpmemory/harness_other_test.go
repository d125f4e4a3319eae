//go:build !linux

package mcpmemory

// harnessMain: the killed-harness test runs on Linux only.
func harnessMain() (func() int, bool) { return nil, false }
