package external

import (
	"fmt"

	"github.com/memharness/memharness/methods/predict"
)

// Entry is the kind's registry entry.
func Entry() predict.Entry {
	return predict.Entry{
		Kind:     Kind,
		About:    "a method of one's own in any language: a child process (command:) or an HTTP service (url:) speaking docs/PROTOCOL.md",
		New:      New,
		Options:  Options{},
		Purposes: []predict.Purpose{predict.PredictPurpose()},
		// A child calls the backbone through the gateway it is served.
		GatewayPurposes: true,
		Memory: predict.Inspector{Columns: []predict.Column{{Heading: "records sent", Key: "records"}},
			Summary: func(ms []predict.Memory) string {
				return fmt.Sprintf("mean %.1f history records sent", predict.MeanMeta(ms, "records"))
			}},
		SimReaders: predict.SimReaders,
	}
}
