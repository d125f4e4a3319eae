package lifememrel

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/internal/pysrc"
)

// TauTools is the tool list τ-bench shows its agents for domain
// ("retail" or "airline"): json.dumps(tools_info), where tools_info is
// [tool.get_info() for tool in ALL_TOOLS] (envs/base.py), ALL_TOOLS is
// the list in envs/<domain>/tools/__init__.py and each class's get_info()
// returns a dict literal read from its pinned file. It also returns the
// tool names in that order.
func TauTools(tr Trees, domain string) (string, []string, error) {
	t := tr[NameTauBench]
	if t == nil {
		return "", nil, fmt.Errorf("the τ-bench tools need the %s pack; %s", NameTauBench, TauBench.FetchHint())
	}
	dir := "tau_bench/envs/" + domain + "/tools/"
	initFile := dir + "__init__.py"
	pf := t.Py(initFile)
	if pf == nil {
		return "", nil, fmt.Errorf("%s: not read", initFile)
	}
	all, ok := pf.Lookup("", "ALL_TOOLS")
	if !ok || all.Kind != pysrc.List {
		return "", nil, fmt.Errorf("%s: no ALL_TOOLS list", initFile)
	}
	var files []string
	for _, f := range t.Source.Files {
		if strings.HasPrefix(f.Path, dir) && f.Path != initFile {
			files = append(files, f.Path)
		}
	}
	sort.Strings(files)
	var parts, names []string
	for i, it := range all.Items {
		if it.Kind != pysrc.Name {
			return "", nil, fmt.Errorf("%s:%d: ALL_TOOLS[%d] is a %s, want a class name", initFile, it.Line, i, it.Kind)
		}
		info, where, err := toolInfo(t, files, it.Expr)
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", initFile, err)
		}
		js, err := pyJSON(info)
		if err != nil {
			return "", nil, fmt.Errorf("%s:%d: %s.get_info: %w", where, info.Line, it.Expr, err)
		}
		fn, _ := info.Get("function")
		name, _ := fn.Get("name")
		if name.Kind != pysrc.Str || name.Str == "" {
			return "", nil, fmt.Errorf("%s:%d: %s.get_info has no function.name", where, info.Line, it.Expr)
		}
		parts = append(parts, js)
		names = append(names, name.Str)
	}
	v, err := taubench.Decode([]byte("[" + strings.Join(parts, ",") + "]"))
	if err != nil {
		return "", nil, fmt.Errorf("%s: tools_info: %w", initFile, err)
	}
	return taubench.Dumps(v), names, nil
}

// toolInfo finds class's get_info() dict among the pinned tool files.
func toolInfo(t *Tree, files []string, class string) (pysrc.Value, string, error) {
	for _, f := range files {
		pf := t.Py(f)
		if pf == nil {
			continue
		}
		rs := pf.ReturnsIn(class + ".get_info")
		if len(rs) == 0 {
			continue
		}
		if len(rs) != 1 || rs[0].Kind != pysrc.Dict {
			return pysrc.Value{}, f, fmt.Errorf("%s: %s.get_info does not return one dict literal", f, class)
		}
		return rs[0], f, nil
	}
	return pysrc.Value{}, "", fmt.Errorf("no pinned file defines %s.get_info", class)
}

// pyJSON writes a Python literal (dicts, lists, strings, numbers, True,
// False, None) as JSON, keys in source order.
func pyJSON(v pysrc.Value) (string, error) {
	switch v.Kind {
	case pysrc.Str:
		if v.FString || v.Bytes {
			return "", fmt.Errorf("line %d: an f-string or bytes literal is not JSON", v.Line)
		}
		b, err := json.Marshal(v.Str)
		return string(b), err
	case pysrc.Number:
		return v.Expr, nil
	case pysrc.Name:
		switch v.Expr {
		case "True":
			return "true", nil
		case "False":
			return "false", nil
		case "None":
			return "null", nil
		}
	case pysrc.List, pysrc.Tuple:
		var items []string
		for _, it := range v.Items {
			s, err := pyJSON(it)
			if err != nil {
				return "", err
			}
			items = append(items, s)
		}
		return "[" + strings.Join(items, ",") + "]", nil
	case pysrc.Dict:
		var items []string
		for i, k := range v.Keys {
			if k.Kind != pysrc.Str {
				return "", fmt.Errorf("line %d: a dict key is a %s, want a string", k.Line, k.Kind)
			}
			ks, _ := json.Marshal(k.Str)
			vs, err := pyJSON(v.Items[i])
			if err != nil {
				return "", err
			}
			items = append(items, string(ks)+":"+vs)
		}
		return "{" + strings.Join(items, ",") + "}", nil
	}
	return "", fmt.Errorf("line %d: %s %q is not a JSON literal", v.Line, v.Kind, v.Expr)
}
