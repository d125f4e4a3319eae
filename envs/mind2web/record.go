package mind2web

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Record is one task of the official release (a test_task_*.json element).
// raw_html is not kept: scoring and observations use cleaned_html.
type Record struct {
	AnnotationID  string   `json:"annotation_id"`
	Website       string   `json:"website"`
	Domain        string   `json:"domain"`
	Subdomain     string   `json:"subdomain"`
	ConfirmedTask string   `json:"confirmed_task"`
	ActionReprs   []string `json:"action_reprs"`
	Actions       []Action `json:"actions"`
}

// Action is one gold step: the page before it and what the annotator did.
type Action struct {
	ActionUID     string      `json:"action_uid"`
	CleanedHTML   string      `json:"cleaned_html"`
	Operation     Operation   `json:"operation"`
	PosCandidates []Candidate `json:"pos_candidates"`
	NegCandidates []Candidate `json:"neg_candidates"`
}

// Operation is the gold operation. OriginalOp may also be HOVER or ENTER
// (mapped to CLICK in Op); it is not scored.
type Operation struct {
	Op         string `json:"op"`
	Value      string `json:"value"`
	OriginalOp string `json:"original_op"`
}

// Candidate is one element the ranker may show. Rank and Score are not in
// the release: Synapse copies them in from scores_all_data.pkl, and files
// prepared that way are read as is.
type Candidate struct {
	Tag              string
	BackendNodeID    string
	IsOriginalTarget bool
	IsTopLevelTarget bool
	// Attributes is the element's attributes (the release stores them as a
	// JSON-encoded string).
	Attributes map[string]string
	Rank       int // -1 when unknown
	Score      float64
}

// candidateJSON accepts both the release form (attributes as a JSON string,
// ids as strings) and already-decoded forms (attributes as an object,
// numeric ids and ranks).
type candidateJSON struct {
	Tag              string          `json:"tag"`
	BackendNodeID    json.RawMessage `json:"backend_node_id"`
	IsOriginalTarget bool            `json:"is_original_target"`
	IsTopLevelTarget bool            `json:"is_top_level_target"`
	Attributes       json.RawMessage `json:"attributes"`
	Rank             *float64        `json:"rank"`
	Score            *float64        `json:"score"`
}

// UnmarshalJSON decodes a candidate, taking backend_node_id from the
// attributes when the top-level field is missing.
func (c *Candidate) UnmarshalJSON(b []byte) error {
	var raw candidateJSON
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	attrs, err := decodeAttributes(raw.Attributes)
	if err != nil {
		return fmt.Errorf("attributes: %w", err)
	}
	id, err := idString(raw.BackendNodeID)
	if err != nil {
		return fmt.Errorf("backend_node_id: %w", err)
	}
	if id == "" {
		id = attrs["backend_node_id"]
	}
	*c = Candidate{
		Tag: raw.Tag, BackendNodeID: id, Attributes: attrs,
		IsOriginalTarget: raw.IsOriginalTarget, IsTopLevelTarget: raw.IsTopLevelTarget,
		Rank: -1,
	}
	if raw.Rank != nil {
		c.Rank = int(*raw.Rank)
	}
	if raw.Score != nil {
		c.Score = *raw.Score
	}
	return nil
}

// MarshalJSON writes the release form (attributes as a JSON string).
func (c Candidate) MarshalJSON() ([]byte, error) {
	attrs, err := json.Marshal(c.Attributes)
	if err != nil {
		return nil, err
	}
	out := map[string]any{
		"tag": c.Tag, "backend_node_id": c.BackendNodeID, "attributes": string(attrs),
		"is_original_target": c.IsOriginalTarget, "is_top_level_target": c.IsTopLevelTarget,
	}
	if c.Rank >= 0 {
		out["rank"] = c.Rank
		out["score"] = c.Score
	}
	return json.Marshal(out)
}

// decodeAttributes reads a JSON string holding an object, or an object;
// non-string values are kept in their JSON text.
func decodeAttributes(raw json.RawMessage) (map[string]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	obj := raw
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		if s == "" {
			return nil, nil
		}
		obj = json.RawMessage(s)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = s
		} else {
			out[k] = string(v)
		}
	}
	return out, nil
}

// idString accepts a string or a number.
func idString(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return "", fmt.Errorf("want a string or number, got %s", raw)
	}
	return strconv.FormatFloat(f, 'f', -1, 64), nil
}

// Specifier is the task key Synapse embeds for exemplar retrieval.
func (r *Record) Specifier() string {
	return fmt.Sprintf("Website: %s\nDomain: %s\nSubdomain: %s\nTask: %s", r.Website, r.Domain, r.Subdomain, r.ConfirmedTask)
}
