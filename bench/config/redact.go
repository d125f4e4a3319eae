package config

import (
	"encoding/json"
	"net/url"
	"strings"
)

// Some OpenAI-compatible gateways take the key in the URL
// (?api-key=..., https://user:key@host). A config is written to
// config.yaml and manifest.json and hashed, so every endpoint URL is
// written with credentials removed: user info dropped, query values
// replaced by "REDACTED" (the keys stay, to show what the endpoint needs).

// RedactURL returns raw without credentials.
func RedactURL(raw string) string {
	if !strings.ContainsAny(raw, "@?") {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "[invalid-url]"
	}
	u.User = nil
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{"REDACTED"}
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

func redactURLs(us []string) []string {
	if us == nil {
		return nil
	}
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = RedactURL(u)
	}
	return out
}

// plainConfig is Config without its marshalling methods.
type plainConfig Config

// redacted is a copy of c with every endpoint URL redacted.
func (c Config) redacted() plainConfig {
	c.Backbone.BaseURLs = redactURLs(c.Backbone.BaseURLs)
	c.Backbone.BuildBaseURLs = redactURLs(c.Backbone.BuildBaseURLs)
	c.Embedder.BuildBaseURLs = redactURLs(c.Embedder.BuildBaseURLs)
	c.Embedder.BaseURL = RedactURL(c.Embedder.BaseURL)
	return plainConfig(c)
}

// MarshalYAML writes the config with credentials removed from URLs.
func (c Config) MarshalYAML() (any, error) { return c.redacted(), nil }

// MarshalJSON writes the config (as in manifest.json) with credentials
// removed from URLs.
func (c Config) MarshalJSON() ([]byte, error) { return json.Marshal(c.redacted()) }
