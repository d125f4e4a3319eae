package pramem

import (
	"context"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/methods/predict"
)

// blindfold hands the sim a hint in which every string and integer the
// prompt does not show is noise (hint.Scramble). Kept are the values the
// prompt shows in other words, which a substring test cannot match:
// reactions and practice answers ("liked", a rating), question metadata,
// and record attributes (bands derived from a shown duration or price;
// identifiers the record text leaves out are already dropped by
// predict.ShownAttrs, tested there).
type blindfold struct{ llm.Model }

func (b blindfold) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	var shown strings.Builder
	for _, m := range req.Messages {
		shown.WriteString(m.Content)
		shown.WriteByte('\n')
	}
	req.Hint = hint.Scramble(req.Hint, shown.String(), 3, "Outcomes", "Attrs", "Label", "Kind", "Field", "Fields", "Classes")
	return b.Model.Generate(ctx, req)
}

// TestNoPeekPraMem: PraMem's practice and evaluation answers do not change
// when what the prompts do not show is scrambled in every hint.
func TestNoPeekPraMem(t *testing.T) {
	sets, _ := omniUsers(t, 3, 15, 9)
	run := func(wrap bool) []scored {
		m, err := New(predict.Spec{Kind: Kind, PraMem: &predict.PraMemSpec{Rounds: 10}})
		if err != nil {
			t.Fatal(err)
		}
		env := simEnv(newMemStore())
		if wrap {
			env.Model = blindfold{env.Model}
		}
		s, _ := evaluate(t, m, env, sets)
		return s
	}
	plain, blind := run(false), run(true)
	diff := 0
	for i := range plain {
		if i >= len(blind) || plain[i] != blind[i] {
			diff++
		}
	}
	t.Logf("%d answers, %d differ", len(plain), diff)
	if diff > 0 || len(plain) != len(blind) {
		t.Errorf("%d of %d answers changed when the hint values the prompt does not show were scrambled", diff, len(plain))
	}
}
