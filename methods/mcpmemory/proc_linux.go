//go:build linux

package mcpmemory

import "syscall"

// dieWithParent has the kernel send the child SIGKILL when the harness
// dies, even by SIGKILL, when no deferred close or cancelled context can
// run. The signal follows the thread that started the child; Go's runtime
// ends a thread only when a goroutine locked to it exits, and the harness
// starts servers from no such goroutine. A launcher's own children (npx's
// node) are not covered by it: they see their stdin close with the
// harness, which ends a stdio server.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
