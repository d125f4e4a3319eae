// Package builtin registers the harness's own task families.
package builtin

import (
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/family/behavior"
	"github.com/memharness/memharness/family/conversation"
	"github.com/memharness/memharness/family/lifelongagents"
)

// Families is a registry holding every built-in task family: behaviour
// prediction (movielens, omnibehavior), lifelong agents (lifemem) and
// conversational memory (locomo, longmemeval).
func Families() *family.Registry {
	r := family.NewRegistry()
	for _, f := range []family.Family{behavior.New(), lifelongagents.New(), conversation.New()} {
		if err := r.Register(f); err != nil {
			panic(err) // the built-in families' tasks are distinct
		}
	}
	return r
}
