package config

import (
	"encoding/json"
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  bool
	}{
		{"30s", 30 * time.Second, false},
		{"2m", 2 * time.Minute, false},
		{"1h30m", 90 * time.Minute, false},
		{"90", 90 * time.Second, false},
		{"0.25", 250 * time.Millisecond, false},
		{" 5 ", 5 * time.Second, false},
		{"-1s", -time.Second, false}, // parsed; Validate rejects where negative is wrong
		{"0", 0, false},
		{"", 0, true},
		{"soon", 0, true},
		{"10 s", 0, true},
		{"1e300", 0, true},
		{"NaN", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseDuration(tt.in)
		if (err != nil) != tt.err || got.Duration != tt.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestDurationJSON(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  bool
	}{
		{`"45s"`, 45 * time.Second, false},
		{`12`, 12 * time.Second, false},
		{`1.5`, 1500 * time.Millisecond, false},
		{`"x"`, 0, true},
		{`true`, 0, true},
	}
	for _, tt := range tests {
		var d Duration
		err := json.Unmarshal([]byte(tt.in), &d)
		if (err != nil) != tt.err || d.Duration != tt.want {
			t.Errorf("Unmarshal(%s) = %v, %v; want %v, error %v", tt.in, d, err, tt.want, tt.err)
		}
	}
	b, err := json.Marshal(Duration{90 * time.Second})
	if err != nil || string(b) != `"1m30s"` {
		t.Errorf("Marshal = %s, %v", b, err)
	}
}

func TestDurationYAML(t *testing.T) {
	tests := []struct {
		val  string
		want time.Duration
		err  string
	}{
		{"90", 90 * time.Second, ""},
		{"2m", 2 * time.Minute, ""},
		{"1.5", 1500 * time.Millisecond, ""},
		{"[1]", 0, `CFG:1: backbone.timeout: want a duration such as "30s" or a number of seconds`},
		{"-5s", 0, `CFG:1: backbone.timeout: must be positive, got -5s`},
	}
	for _, tt := range tests {
		text := "backbone: {timeout: " + tt.val + "}\nmethods: [{kind: rag}]\n"
		if tt.err != "" {
			wantErr(t, loadString(t, text, nil), tt.err)
			continue
		}
		cfg, err := Options{Getenv: noEnv}.Load(writeConfig(t, text), nil)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Backbone.Timeout.Duration != tt.want {
			t.Errorf("timeout %s = %v, want %v", tt.val, cfg.Backbone.Timeout, tt.want)
		}
	}
}
