package external

import "syscall"

// childAttr puts a child in a process group of its own (so it and what it
// starts are killed at once) and has the kernel kill it when the harness
// dies, even by SIGKILL, when no deferred cleanup runs. Pdeathsig follows
// the thread that started the child; Go ends an OS thread only when a
// goroutine locked to it exits, which the harness never does around a
// start.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
