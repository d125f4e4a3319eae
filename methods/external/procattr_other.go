//go:build !linux

package external

import "syscall"

// childAttr puts a child in a process group of its own (so it and what it
// starts are killed at once). Only Linux can have the kernel kill a child
// whose parent died; elsewhere a harness killed by SIGKILL leaves its
// children to end when their stdin closes (the Python client returns at
// the end of its input).
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
