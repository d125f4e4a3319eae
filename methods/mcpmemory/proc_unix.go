//go:build unix

package mcpmemory

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the child in a process group of its own, so that a
// server started through a launcher (npx, a shell script) is killed with
// everything it started; where the system offers it (Linux), the child is
// also told to die with the harness (see dieWithParent).
func ownGroup(cmd *exec.Cmd) {
	attr := &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(attr)
	cmd.SysProcAttr = attr
}

// killGroup kills the child's process group.
func killGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
