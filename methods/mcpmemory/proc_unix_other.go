//go:build unix && !linux

package mcpmemory

import "syscall"

// dieWithParent does nothing where the kernel offers no parent-death
// signal: a child still ends with its stdin when the harness is killed,
// and with the run's context otherwise.
func dieWithParent(*syscall.SysProcAttr) {}
