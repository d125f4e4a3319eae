package config

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Duration is a time.Duration written as "30s", "2m" or "1h30m" in YAML and
// JSON. A plain number is read as seconds ("90", "0.5").
type Duration struct{ time.Duration }

// ParseDuration reads a Go duration string or a number of seconds.
func ParseDuration(s string) (Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Duration{}, fmt.Errorf("empty duration")
	}
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		return fromSeconds(secs)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return Duration{}, fmt.Errorf("invalid duration %q (want e.g. \"30s\", \"2m\" or a number of seconds)", s)
	}
	return Duration{d}, nil
}

func fromSeconds(secs float64) (Duration, error) {
	if math.IsNaN(secs) || math.IsInf(secs, 0) || math.Abs(secs) > math.MaxInt64/float64(time.Second) {
		return Duration{}, fmt.Errorf("duration of %v seconds is out of range", secs)
	}
	return Duration{time.Duration(math.Round(secs * float64(time.Second)))}, nil
}

// String prints the Go form ("1m30s").
func (d Duration) String() string { return d.Duration.String() }

// UnmarshalYAML accepts a duration string or a number of seconds.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("want a duration such as \"30s\" or a number of seconds")
	}
	v, err := ParseDuration(n.Value)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalYAML writes the Go form so resolved configs read naturally.
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// MarshalJSON writes the Go form as a JSON string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON accepts a duration string or a number of seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := ParseDuration(s)
		if err != nil {
			return err
		}
		*d = v
		return nil
	}
	var secs float64
	if err := json.Unmarshal(b, &secs); err != nil {
		return fmt.Errorf("want a duration string or a number of seconds, got %s", b)
	}
	v, err := fromSeconds(secs)
	if err != nil {
		return err
	}
	*d = v
	return nil
}
