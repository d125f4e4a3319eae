package memstyle

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/internal/fsname"
	"github.com/memharness/memharness/methods/predict"
)

// inspect reads one user's construction checkpoint (dir is the user's
// checkpoint folder, Meta["checkpoint"] its name) for `bench memory`: the
// stored units of Mem0 and MemOS, the candidate profiles of ProEx.
func inspect(dir string, mem predict.Memory) (predict.Detail, error) {
	ckpt, _ := mem.Meta["checkpoint"].(string)
	if ckpt == "" {
		return predict.Detail{}, nil
	}
	var st progress
	p := filepath.Join(dir, fsname.Encode(ckpt)+".json")
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return predict.Detail{}, nil
	}
	if err != nil {
		return predict.Detail{}, err
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return predict.Detail{}, fmt.Errorf("%s: %w", p, err)
	}
	d := predict.Detail{JSON: map[string]any{}}
	var t strings.Builder
	if len(st.Units) > 0 {
		type shown struct {
			ID   string `json:"id"`
			Type string `json:"type,omitempty"`
			Text string `json:"text"`
		}
		us := make([]shown, len(st.Units))
		fmt.Fprintf(&t, "\nStored units: %d\n", len(st.Units))
		for i, u := range st.Units {
			us[i] = shown{u.ID, u.Type, u.Text}
			if u.Type != "" {
				fmt.Fprintf(&t, "  %-4s %-10s %s\n", u.ID, u.Type, u.Text)
			} else {
				fmt.Fprintf(&t, "  %-4s %s\n", u.ID, u.Text)
			}
		}
		d.JSON["units"] = us
	}
	if len(st.Profiles) > 0 {
		fmt.Fprintf(&t, "\nCandidate profiles: %d\n", len(st.Profiles))
		for _, p := range st.Profiles {
			fmt.Fprintf(&t, "  %-10s %4d records  validated %-5v  %d questions (%d invalid)  acc %.3f  f1 %.3f\n",
				p.Perspective, p.Records, p.Validated, p.Questions, p.Invalid, p.Acc, p.F1)
		}
		d.JSON["profiles"] = st.Profiles
	}
	d.Text = t.String()
	return d, nil
}
