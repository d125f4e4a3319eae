package pramem

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/methods/predict"
)

// shownRound is what one practice round did to the memory, as `bench
// memory --user` shows it.
type shownRound struct {
	Round       int      `json:"round"` // 1-based
	PracticeIdx int      `json:"practice_item"`
	Proposed    int      `json:"proposed"`
	Verified    int      `json:"verified"`
	Review      string   `json:"review,omitempty"` // "", "accepted", "rejected"
	Error       string   `json:"error,omitempty"`
	Events      []string `json:"events,omitempty"`
	Experience  []string `json:"experience"`  // pattern section after the round
	BiasAlerts  []string `json:"bias_alerts"` // calibration section after the round
	Pending     int      `json:"pending"`
	Added       []string `json:"added,omitempty"`   // "experience: ..." / "bias alert: ..."
	Removed     []string `json:"removed,omitempty"` // likewise
}

// inspect reads one user's PraMem memory in full: the final sections (meta
// memory_json) and each round's changes from the round checkpoints in dir.
func inspect(dir string, mem predict.Memory) (predict.Detail, error) {
	d := predict.Detail{JSON: map[string]any{}}
	var final *ExpMemory
	if raw, ok := mem.Meta["memory_json"].(string); ok {
		final = &ExpMemory{}
		if err := json.Unmarshal([]byte(raw), final); err != nil {
			return d, fmt.Errorf("meta.memory_json: %w", err)
		}
		d.JSON["final"] = final
	}
	var rounds []shownRound
	if ns, _ := mem.Meta["checkpoint"].(string); ns != "" {
		var err error
		if rounds, err = readRounds(dir, ns); err != nil {
			return d, err
		}
		if len(rounds) > 0 {
			d.JSON["rounds"] = rounds
		}
	}
	var b strings.Builder
	if len(rounds) > 0 {
		b.WriteString("\nRounds (experience: what the user tends to do; bias alerts: what the model should correct):\n")
		for _, r := range rounds {
			fmt.Fprintf(&b, "  round %2d (practice item %d): %d proposed, %d verified", r.Round, r.PracticeIdx, r.Proposed, r.Verified)
			if r.Review != "" {
				fmt.Fprintf(&b, ", review %s", r.Review)
			}
			fmt.Fprintf(&b, "; now %d experiences, %d bias alerts, %d pending", len(r.Experience), len(r.BiasAlerts), r.Pending)
			if r.Error != "" {
				fmt.Fprintf(&b, "; FAILED: %s", r.Error)
			}
			if len(r.Events) > 0 {
				fmt.Fprintf(&b, "; events: %s", strings.Join(r.Events, ", "))
			}
			b.WriteString("\n")
			for _, x := range r.Added {
				fmt.Fprintf(&b, "      + %s\n", x)
			}
			for _, x := range r.Removed {
				fmt.Fprintf(&b, "      - %s\n", x)
			}
		}
	}
	if final != nil {
		b.WriteString("\nFinal memory:\n")
		for _, s := range []struct {
			title string
			items []string
		}{{"Experience (patterns of this user)", final.UserExp}, {"Bias alerts (calibration for the model)", final.ModelExp},
			{"Pending proposals (not yet in the memory)", final.Proposal}} {
			fmt.Fprintf(&b, "  %s: %d\n", s.title, len(s.items))
			for i, x := range s.items {
				fmt.Fprintf(&b, "    %d. %s\n", i+1, x)
			}
		}
	}
	d.Text = b.String()
	return d, nil
}

// readRounds reads the round records of checkpoint namespace ns, in order.
func readRounds(dir, ns string) ([]shownRound, error) {
	var out []shownRound
	for i := 0; ; i++ {
		var r Round
		p := filepath.Join(dir, fmt.Sprintf("%s-round-%03d.json", ns, i))
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		pr := shownRound{Round: i + 1, PracticeIdx: r.PracticeIdx, Proposed: len(r.NewProposals), Error: r.Error,
			Events: r.Events, Experience: nonNil(r.After.UserExp), BiasAlerts: nonNil(r.After.ModelExp), Pending: len(r.After.Proposal)}
		if r.Verify != nil {
			pr.Verified = len(r.Verify.Verified)
		}
		if r.ReviewTriggered && r.Review != nil {
			pr.Review = "rejected"
			if r.Review.Accepted {
				pr.Review = "accepted"
			}
		}
		for _, s := range []struct {
			label         string
			before, after []string
		}{{"experience", r.Before.UserExp, r.After.UserExp}, {"bias alert", r.Before.ModelExp, r.After.ModelExp}} {
			for _, x := range s.after {
				if !slices.Contains(s.before, x) {
					pr.Added = append(pr.Added, s.label+": "+x)
				}
			}
			for _, x := range s.before {
				if !slices.Contains(s.after, x) {
					pr.Removed = append(pr.Removed, s.label+": "+x)
				}
			}
		}
		out = append(out, pr)
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// roundFile is the name of a round checkpoint: <namespace>-round-NNN.json.
var roundFile = lazyre.New(`^.+-round-\d+\.json$`)

// snapshot reads a round checkpoint as the memory's three sections after
// the round, named as the paper does, for the viewer.
func snapshot(name string, data []byte) (predict.Snapshot, bool, error) {
	if !roundFile.MatchString(name) {
		return predict.Snapshot{}, false, nil
	}
	var r Round
	if err := json.Unmarshal(data, &r); err != nil {
		return predict.Snapshot{}, false, fmt.Errorf("%s: %w", name, err)
	}
	return predict.Snapshot{Round: r.Round, Review: r.ReviewTriggered, Sections: []predict.Section{
		{Name: "experience (patterns of this user)", Entries: r.After.UserExp},
		{Name: "bias alerts (calibration of the model)", Entries: r.After.ModelExp},
		{Name: "pending proposals", Entries: r.After.Proposal},
	}}, true, nil
}
