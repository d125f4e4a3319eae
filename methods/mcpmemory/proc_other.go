//go:build !unix

package mcpmemory

import "os/exec"

// ownGroup does nothing where process groups are not available.
func ownGroup(*exec.Cmd) {}

// killGroup kills the child itself.
func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
