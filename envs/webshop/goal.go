package webshop

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

// Goal is what a shopper asks for, in the reference's goal format.
type Goal struct {
	ID              string   `json:"-"`
	ASIN            string   `json:"asin"`
	Category        string   `json:"category,omitempty"`
	Query           string   `json:"query"`
	Name            string   `json:"name"`
	ProductCategory string   `json:"product_category,omitempty"`
	InstructionText string   `json:"instruction_text"`
	Attributes      []string `json:"attributes"`
	PriceUpper      float64  `json:"price_upper"`
	GoalOptions     []string `json:"goal_options"`
	Weight          float64  `json:"weight,omitempty"`
}

// noPriceLimit is the reference's price_upper for goals without a limit.
const noPriceLimit = 1000000

// priceClause is the suffix the goal generator appends to instructions.
var priceClause = lazyre.New(`,?\s*and price lower than ([0-9]+(?:\.[0-9]+)?) dollars\s*$`)

// splitPrice returns the instruction without its price clause and the
// limit it states (noPriceLimit when it has none).
func splitPrice(instr string) (string, float64) {
	instr = strings.TrimSpace(instr)
	m := priceClause.FindStringSubmatchIndex(instr)
	if m == nil {
		return instr, noPriceLimit
	}
	v, err := strconv.ParseFloat(instr[m[2]:m[3]], 64)
	if err != nil {
		return instr, noPriceLimit
	}
	return strings.TrimSpace(instr[:m[0]]), v
}

// goalOptions decodes goal_options, a list (human goals) or an object
// keyed by option name (synthetic goals; values are used in key order).
func goalOptions(raw json.RawMessage) ([]string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, nil
	}
	keys, vals, err := orderedObject(raw)
	if err != nil {
		return nil, fmt.Errorf("want a list or an object of strings")
	}
	out := make([]string, len(keys))
	for i := range keys {
		if err := json.Unmarshal(vals[i], &out[i]); err != nil {
			return nil, fmt.Errorf("option %q: %w", keys[i], err)
		}
	}
	return out, nil
}

// rawGoal is a goal record in the reference's own format (as in its goal
// lists and human trajectory logs).
type rawGoal struct {
	ASIN            string          `json:"asin"`
	Category        string          `json:"category"`
	Query           string          `json:"query"`
	Name            string          `json:"name"`
	ProductCategory string          `json:"product_category"`
	InstructionText *string         `json:"instruction_text"`
	Attributes      []string        `json:"attributes"`
	PriceUpper      *float64        `json:"price_upper"`
	GoalOptions     json.RawMessage `json:"goal_options"`
	Weight          float64         `json:"weight"`
}

func (r *rawGoal) convert() (Goal, error) {
	if r.ASIN == "" {
		return Goal{}, fmt.Errorf("field asin: missing")
	}
	if r.InstructionText == nil {
		return Goal{}, fmt.Errorf("field instruction_text: missing")
	}
	opts, err := goalOptions(r.GoalOptions)
	if err != nil {
		return Goal{}, fmt.Errorf("field goal_options: %w", err)
	}
	g := Goal{
		ASIN: r.ASIN, Category: r.Category, Query: strings.ToLower(strings.TrimSpace(r.Query)), Name: r.Name,
		ProductCategory: r.ProductCategory, InstructionText: *r.InstructionText,
		Attributes: r.Attributes, GoalOptions: opts, Weight: r.Weight,
	}
	if r.PriceUpper != nil {
		g.PriceUpper = *r.PriceUpper
	} else {
		_, g.PriceUpper = splitPrice(g.InstructionText)
	}
	return g, nil
}

// ReadGoals reads a JSON list of goals in the reference's goal format.
// IDs are "goal_<index>". file names the source in errors.
func ReadGoals(data []byte, file string) ([]Goal, error) {
	elems, lines, err := arrayElems(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	out := make([]Goal, 0, len(elems))
	for i, e := range elems {
		var r rawGoal
		if err := json.Unmarshal(e, &r); err != nil {
			return nil, fmt.Errorf("%s:%d: goal %d: %w", file, lines[i], i, err)
		}
		g, err := r.convert()
		if err != nil {
			return nil, fmt.Errorf("%s:%d: goal %d: %w", file, lines[i], i, err)
		}
		g.ID = fmt.Sprintf("goal_%d", i)
		out = append(out, g)
	}
	return out, nil
}

// ReadExpeLGoals reads ExpeL's webshop.fixed100.json: a list of
// {task, session_idx, key{asin, query, name, goal_options}}. The task text
// is the instruction followed by "\n[Search]\n"; its price clause gives the
// limit. IDs are the session_idx values ("fixed_0", ...).
func ReadExpeLGoals(data []byte, file string) ([]Goal, error) {
	elems, lines, err := arrayElems(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	seen := map[string]bool{}
	out := make([]Goal, 0, len(elems))
	for i, e := range elems {
		var r struct {
			Task       *string `json:"task"`
			SessionIdx string  `json:"session_idx"`
			Key        *struct {
				ASIN        string          `json:"asin"`
				Query       string          `json:"query"`
				Name        string          `json:"name"`
				GoalOptions json.RawMessage `json:"goal_options"`
			} `json:"key"`
		}
		where := fmt.Sprintf("%s:%d: task %d", file, lines[i], i)
		if err := json.Unmarshal(e, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		switch {
		case r.Task == nil:
			return nil, fmt.Errorf("%s: field task: missing", where)
		case r.SessionIdx == "":
			return nil, fmt.Errorf("%s: field session_idx: missing", where)
		case r.Key == nil || r.Key.ASIN == "":
			return nil, fmt.Errorf("%s: field key.asin: missing", where)
		case seen[r.SessionIdx]:
			return nil, fmt.Errorf("%s: field session_idx: duplicate %q", where, r.SessionIdx)
		}
		seen[r.SessionIdx] = true
		opts, err := goalOptions(r.Key.GoalOptions)
		if err != nil {
			return nil, fmt.Errorf("%s: field key.goal_options: %w", where, err)
		}
		instr := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(*r.Task), "[Search]"))
		_, limit := splitPrice(instr)
		out = append(out, Goal{
			ID: r.SessionIdx, ASIN: r.Key.ASIN, Query: strings.ToLower(strings.TrimSpace(r.Key.Query)),
			Name: r.Key.Name, InstructionText: instr, PriceUpper: limit, GoalOptions: opts, Weight: 1,
		})
	}
	return out, nil
}

// ReadHumanGoals reads human_goals.json: the list of human instruction
// strings (without price clauses), indexed by WebShop session index.
func ReadHumanGoals(data []byte, file string) ([]string, error) {
	var out []string
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("%s: want a JSON list of strings: %w", file, err)
	}
	return out, nil
}

// AttrRecord is one entry of items_ins_v2_1000.json.
type AttrRecord struct {
	Attributes            []string `json:"attributes"`
	Instruction           string   `json:"instruction,omitempty"`
	InstructionAttributes []string `json:"instruction_attributes,omitempty"`
}

// ReadAttributes reads items_ins_v2*.json: product attributes (and
// synthetic instructions) keyed by ASIN.
func ReadAttributes(data []byte, file string) (map[string]AttrRecord, error) {
	keys, vals, err := orderedObject(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	out := make(map[string]AttrRecord, len(keys))
	for i, k := range keys {
		var r AttrRecord
		if err := json.Unmarshal(vals[i], &r); err != nil {
			return nil, fmt.Errorf("%s: asin %s: %w", file, k, err)
		}
		out[k] = r
	}
	return out, nil
}
