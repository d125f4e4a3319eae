package mcpmemory

import (
	"errors"
	"fmt"

	"github.com/memharness/memharness/methods/predict"
)

// Entry describes the kind to the harness (registered in methods/registry).
func Entry() predict.Entry {
	return predict.Entry{
		Kind:     Kind,
		About:    "any MCP memory server (stdio command or streamable-HTTP url): the history written through its write tool, the memories its search tool returns in the RAG memory block after the truncated history",
		New:      New,
		Keys:     []string{"history_tokens", "memory_tokens", "top_k"},
		Options:  Options{},
		Check:    check,
		Purposes: []predict.Purpose{predict.PredictPurpose()},
		Memory: predict.Inspector{NoText: true, Columns: []predict.Column{{Heading: "records written", Key: "stored"}},
			Summary: func(ms []predict.Memory) string {
				return fmt.Sprintf("mean %.1f records written to the MCP server (its store is not copied)", predict.MeanMeta(ms, "stored"))
			}},
	}
}

func asServerError(err error, target **ServerError) bool { return errors.As(err, target) }
