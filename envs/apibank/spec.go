package apibank

import (
	"fmt"
	"strings"
	"unicode"
)

// APISpec is one API's public description (api_specs.json: name,
// description, input/output parameter schemas, database).
type APISpec struct {
	Name        string
	Description string
	// Inputs and Outputs keep the file's order: {param: {type, description}}.
	Inputs  *Dict
	Outputs *Dict
	// Database names the init_database file the API reads ("" for none).
	Database string
}

// InputNames lists the input parameters in order.
func (s APISpec) InputNames() []string {
	var out []string
	for _, k := range s.Inputs.Keys() {
		out = append(out, k.(string))
	}
	return out
}

// InputType is the declared type of an input ("str", "int", "list", ...).
func (s APISpec) InputType(name string) (string, bool) {
	v, ok := s.Inputs.Get(name)
	if !ok {
		return "", false
	}
	d, _ := v.(*Dict)
	if d == nil {
		return "str", true
	}
	return d.Str("type"), true
}

// NeedsToken reports whether the API takes a user token.
func (s APISpec) NeedsToken() bool { return s.Inputs.Has("token") }

// searchText is what ToolSearcher matches keywords against: the class name
// split at capitals and lower-cased, glued to the description with no space
// ("get user tokenGet the user token."), as the reference does.
func (s APISpec) searchText() string {
	var b strings.Builder
	for _, r := range s.Name {
		if unicode.IsUpper(r) {
			b.WriteByte(' ')
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String()) + s.Description
}

// publicDict is the description ToolSearcher returns to the agent.
func (s APISpec) publicDict() *Dict {
	return dictOf("name", s.Name, "description", s.Description,
		"input_parameters", deepCopy(s.Inputs), "output_parameters", deepCopy(s.Outputs))
}

// parseSpecs reads api_specs.json: a list of objects with name, description,
// input_parameters, output_parameters and optional database_name.
func parseSpecs(data []byte) ([]APISpec, error) {
	v, err := decodeJSON(data)
	if err != nil {
		return nil, err
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("top level is not a list")
	}
	var out []APISpec
	seen := map[string]bool{}
	for i, x := range list {
		d, ok := x.(*Dict)
		if !ok {
			return nil, fmt.Errorf("entry %d: not an object", i)
		}
		s := APISpec{Name: d.Str("name"), Description: d.Str("description"), Database: d.Str("database_name")}
		if s.Name == "" {
			return nil, fmt.Errorf("entry %d: field name missing", i)
		}
		if seen[s.Name] {
			return nil, fmt.Errorf("entry %d: duplicate API %s", i, s.Name)
		}
		seen[s.Name] = true
		for _, f := range []struct {
			key string
			dst **Dict
		}{{"input_parameters", &s.Inputs}, {"output_parameters", &s.Outputs}} {
			raw, _ := d.Get(f.key)
			p, ok := raw.(*Dict)
			if !ok {
				return nil, fmt.Errorf("entry %d (%s): field %s is not an object", i, s.Name, f.key)
			}
			*f.dst = p
		}
		out = append(out, s)
	}
	return out, nil
}
