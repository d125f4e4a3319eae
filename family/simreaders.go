package family

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm/sim"
)

// BuiltinSimReaders are the embedded backbone's readers of every built-in
// kind's requests, as their entries bring them, with moreActing added to
// what the acting reader knows of environments' action syntax (an
// environment of one's own kept outside the run's registry).
func BuiltinSimReaders(moreActing ...envs.SimActing) ([]sim.Reader, error) {
	return (&Kinds{}).entryReaders(moreActing...)
}
