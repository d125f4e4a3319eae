package wikienv

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The FEVER labels, as written in the data and expected in Finish[...].
const (
	Supports      = "SUPPORTS"
	Refutes       = "REFUTES"
	NotEnoughInfo = "NOT ENOUGH INFO"
)

// Labels lists the FEVER labels.
func Labels() []string { return []string{Supports, Refutes, NotEnoughInfo} }

// FEVER is one claim in the official FEVER JSONL layout.
type FEVER struct {
	ID         int64        `json:"id"`
	Verifiable string       `json:"verifiable"`
	Label      string       `json:"label"`
	Claim      string       `json:"claim"`
	Evidence   [][]Evidence `json:"evidence"` // alternative sets of evidence
}

// Evidence is an [annotation id, evidence id, wiki page, sentence id]
// tuple; the last three are null for NOT ENOUGH INFO claims.
type Evidence struct {
	AnnotationID int64
	EvidenceID   *int64
	Page         string // FEVER page id, e.g. "Soul_Food_-LRB-film-RRB-"
	Sentence     *int
}

// UnmarshalJSON reads the 4-tuple.
func (e *Evidence) UnmarshalJSON(b []byte) error {
	var tup []json.RawMessage
	if err := json.Unmarshal(b, &tup); err != nil || len(tup) != 4 {
		return errors.New("want [annotation id, evidence id, page, sentence id]")
	}
	var page *string
	for i, dst := range []any{&e.AnnotationID, &e.EvidenceID, &page, &e.Sentence} {
		if err := json.Unmarshal(tup[i], dst); err != nil {
			return fmt.Errorf("evidence element %d: %w", i, err)
		}
	}
	if page != nil {
		e.Page = *page
	}
	return nil
}

// MarshalJSON writes the tuple back.
func (e Evidence) MarshalJSON() ([]byte, error) {
	var page any
	if e.Page != "" {
		page = e.Page
	}
	return json.Marshal([]any{e.AnnotationID, e.EvidenceID, page, e.Sentence})
}

// parseFEVER decodes and checks one claim.
func parseFEVER(raw []byte) (*FEVER, error) {
	var c struct {
		FEVER
		ID *int64 `json:"id"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	if c.ID == nil {
		return nil, errors.New(`field "id": missing`)
	}
	c.FEVER.ID = *c.ID
	if strings.TrimSpace(c.Claim) == "" {
		return nil, errors.New(`field "claim": missing or empty`)
	}
	if !validLabel(c.Label) {
		return nil, fmt.Errorf(`field "label": %q is not one of %s`, clip(c.Label, 40), strings.Join(Labels(), ", "))
	}
	return &c.FEVER, nil
}

func validLabel(s string) bool {
	for _, l := range Labels() {
		if s == l {
			return true
		}
	}
	return false
}

// evidenceTitles lists the distinct evidence pages as display titles, in
// order of first appearance.
func (c *FEVER) evidenceTitles() []string {
	var out []string
	seen := map[string]bool{}
	for _, set := range c.Evidence {
		for _, e := range set {
			if e.Page == "" || seen[e.Page] {
				continue
			}
			seen[e.Page] = true
			out = append(out, DisplayTitle(e.Page))
		}
	}
	return out
}
