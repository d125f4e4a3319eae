package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// writeConfig writes text to a config file in a fresh directory.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cfg.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadString loads text and returns the error with the file name as CFG.
func loadString(t *testing.T, text string, sets []string) error {
	t.Helper()
	path := writeConfig(t, text)
	_, err := Options{Getenv: noEnv}.Load(path, sets)
	if err == nil {
		return nil
	}
	return errorString(strings.ReplaceAll(err.Error(), path, "CFG"))
}

type errorString string

func (e errorString) Error() string { return string(e) }

func TestSet(t *testing.T) {
	const base = "backbone: {kind: sim}\nmethods:\n  - kind: truncation\n"
	tests := []struct {
		name string
		sets []string
		get  func(*Config) any
		want any
	}{
		{"scalar", []string{"backbone.model=gpt-oss-120b"}, func(c *Config) any { return c.Backbone.Model }, "gpt-oss-120b"},
		{"list entry field", []string{"methods[0].history_tokens=16000"}, func(c *Config) any { return c.Methods[0].HistoryTokens }, 16000},
		{"append list entry", []string{"methods[1].kind=rag", "methods[1].top_k=4"},
			func(c *Config) any {
				return []string{c.Methods[1].Name, c.Methods[1].Kind, string(rune('0' + c.Methods[1].TopK))}
			},
			[]string{"rag", "rag", "4"}},
		{"whole list entry as flow mapping", []string{"methods[1]={name: r, kind: rag}"},
			func(c *Config) any { return c.Methods[1].Name }, "r"},
		{"nested struct", []string{"dataset.synthetic.users=10"}, func(c *Config) any { return c.Dataset.Synthetic.Users }, 10},
		{"flow list", []string{"backbone.kind=openai", "backbone.model=m", "backbone.base_urls=[http://a,http://b]"},
			func(c *Config) any { return c.Backbone.BaseURLs }, []string{"http://a", "http://b"}},
		{"explicit zero pointer", []string{"backbone.params.temperature=0"},
			func(c *Config) any {
				return c.Backbone.Params.Temperature != nil && *c.Backbone.Params.Temperature == 0
			}, true},
		{"explicit zero keeps zero, not the default", []string{"seed=0", "report.bootstrap=0"},
			func(c *Config) any { return []int64{c.Seed, int64(c.Report.Bootstrap)} }, []int64{0, 0}},
		{"free-form extra", []string{"backbone.params.extra.chat_template_kwargs.enable_thinking=false"},
			func(c *Config) any { return c.Backbone.Params.Extra },
			map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}}},
		{"creates optional block", []string{"backbone.prices.prompt_per_1m=1.5"},
			func(c *Config) any { return *c.Backbone.Prices }, Prices{PromptPer1M: 1.5}},
		{"duration in seconds", []string{"backbone.timeout=45"}, func(c *Config) any { return c.Backbone.Timeout.Duration }, 45 * time.Second},
		{"duration string", []string{"backbone.sim.latency=20ms"}, func(c *Config) any { return c.Backbone.Sim.Latency.Duration }, 20 * time.Millisecond},
		{"empty value is the empty string", []string{"backbone.cache=off", "backbone.cache="}, func(c *Config) any { return c.Backbone.Cache }, ""},
		{"later set wins", []string{"backbone.model=a", "backbone.model=b"}, func(c *Config) any { return c.Backbone.Model }, "b"},
		{"string that looks like a number", []string{"backbone.model=3.5"}, func(c *Config) any { return c.Backbone.Model }, "3.5"},
		{"replace a scalar with a mapping", []string{"backbone.sim={threshold: 0.3}"}, func(c *Config) any { return c.Backbone.Sim.Threshold }, 0.3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Options{Getenv: noEnv}.Load(writeConfig(t, base), tt.sets)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, tt.get(cfg)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestSetThroughAliasKeepsAnchor(t *testing.T) {
	text := "methods:\n  - &m {kind: rag, top_k: 2}\n  - *m\n"
	path := writeConfig(t, text)
	_, err := Options{Getenv: noEnv}.Load(path, []string{"methods[1].name=b"})
	if err != nil {
		t.Fatal(err)
	}
	// Writing through the alias copies the anchored mapping, so the first
	// entry keeps its own name and top_k.
	cfg, err := Options{Getenv: noEnv}.Load(path, []string{"methods[1].name=b", "methods[1].top_k=7"})
	if err != nil {
		t.Fatal(err)
	}
	if m0, m1 := cfg.Methods[0], cfg.Methods[1]; m0.Name != "rag" || m0.TopK != 2 || m1.Name != "b" || m1.TopK != 7 {
		t.Errorf("methods = %+v / %+v", m0, m1)
	}
}

func TestParsePath(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"a", "a", ""},
		{"methods[1].history_tokens", "methods[1].history_tokens", ""},
		{"a[0][2].b-c", "a[0][2].b-c", ""},
		{"a[01]", "a[1]", ""},
		{"", "", "empty key"},
		{"a.", "", `key "a.": empty field name`},
		{".a", "", `key ".a": empty field name`},
		{"a[1", "", `key "a[1": missing ']'`},
		{"a[-1]", "", `key "a[-1]": list index "-1" is not a non-negative integer`},
		{"a b", "", `key "a b": unexpected ' '`},
	}
	for _, tt := range tests {
		p, err := parsePath(tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("parsePath(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || p.String() != tt.want {
			t.Errorf("parsePath(%q) = %q, %v; want %q", tt.in, p, err, tt.want)
		}
	}
}
