package registry

import (
	"strings"
	"testing"

	"github.com/memharness/memharness/methods/memstyle"
	"github.com/memharness/memharness/methods/pramem"
	"github.com/memharness/memharness/methods/predict"
)

func TestNewEveryKind(t *testing.T) {
	for _, kind := range []string{predict.KindLongContext, predict.KindTruncation, predict.KindRAG, predict.KindSummary,
		pramem.Kind, memstyle.KindMem0, memstyle.KindMemOS, memstyle.KindProEx} {
		m, err := New(predict.Spec{Name: kind, Kind: kind})
		if err != nil {
			t.Errorf("%s: %v", kind, err)
			continue
		}
		if m.Name() != kind {
			t.Errorf("%s: name %q", kind, m.Name())
		}
	}
	if _, err := New(predict.Spec{Kind: "nope"}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown kind: %v", err)
	}
}
