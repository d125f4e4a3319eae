package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A profiles block names sets of settings written like a sweep variant's
// set (key: value, keys as for --set):
//
//	profiles:
//	  paper:
//	    dataset.max_users: 0
//	    methods[4].pramem.rounds: 80
//
// Options.Profile applies one of them before the --set overrides, so a
// --set still wins. The block is never part of the resolved config.

// applyProfile removes the profiles block from doc.root and applies the
// selected profile, if any.
func (o Options) applyProfile(doc *document) error {
	src, root := doc.src, doc.root
	slot := findKey(root, "profiles")
	var profiles map[string]variantSpec
	var names []string
	if slot != nil {
		var err error
		if profiles, names, err = parseProfiles(src, *slot); err != nil {
			return err
		}
		if keys := removeKey(root, "profiles"); len(keys) > 1 {
			return src.errorf(keys[1], "", "duplicate key \"profiles\" in the config (first at %s)", src.pos(keys[0]))
		}
	}
	if o.Profile == "" {
		return nil
	}
	// Several profiles apply in the order given (paper,as_released).
	doc.profileSets = map[string]string{}
	for _, name := range strings.Split(o.Profile, ",") {
		name = strings.TrimSpace(name)
		vs, ok := profiles[name]
		if !ok {
			have := "the file has no profiles block"
			if len(names) > 0 {
				have = "have " + strings.Join(names, ", ")
			}
			return &Error{Pos: src.file, Msg: fmt.Sprintf("--profile %s: no such profile (%s)", name, have)}
		}
		for _, ov := range vs.sets {
			if err := ov.applyAt(src, root, src.pos(ov.value)); err != nil {
				return err
			}
			b, err := yaml.Marshal(ov.value)
			if err != nil {
				return fmt.Errorf("profile %s: %w", name, err)
			}
			doc.profileSets[ov.path.String()] = strings.TrimSpace(string(b))
		}
	}
	doc.profile = o.Profile
	return nil
}

// parseProfiles reads the profiles block: name -> mapping of key: value.
func parseProfiles(src *source, n *yaml.Node) (map[string]variantSpec, []string, error) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil, nil, src.errorf(n, "profiles", "want a mapping of profile name to settings, not %s", describe(n))
	}
	out := map[string]variantSpec{}
	var names []string
	var errs []error
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		path := "profiles." + k.Value
		if k.Kind != yaml.ScalarNode || !safeName(k.Value) {
			errs = append(errs, src.errorf(k, "", "%s is not a safe profile name", describe(k)))
			continue
		}
		if _, dup := out[k.Value]; dup {
			errs = append(errs, src.errorf(k, "", "duplicate profile %q", k.Value))
			continue
		}
		vs := variantSpec{node: v, name: k.Value}
		errs = append(errs, vs.parseSet(src, v, path)...)
		out[k.Value] = vs
		names = append(names, k.Value)
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	slices.Sort(names)
	return out, names, nil
}
