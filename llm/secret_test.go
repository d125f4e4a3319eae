package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

const secret = "sk-SECRET-123"

// TestAPIKeyNeverLeaks forces every kind of failure with a server that echoes
// the Authorization header back, and checks that no error text, no link of
// any error chain, no config rendering and no log line contains the key.
func TestAPIKeyNeverLeaks(t *testing.T) {
	echo := func(status int) func(int, map[string]any) reply {
		return func(int, map[string]any) reply {
			return reply{status: status, body: errJSON("Incorrect API key provided: " + secret)}
		}
	}
	rawEcho := func(int, map[string]any) reply {
		return reply{status: 502, body: "<html>upstream saw Bearer " + secret + "</html>"}
	}
	malformedEcho := func(int, map[string]any) reply {
		return reply{body: `{"choices": "` + secret}
	}
	var texts []string
	collect := func(err error) {
		for e := err; e != nil; e = errors.Unwrap(e) {
			texts = append(texts, e.Error(), fmt.Sprintf("%v|%+v|%#v|%q", e, e, e, e))
		}
	}

	handlers := []func(int, map[string]any) reply{echo(401), echo(400), echo(429), echo(500), rawEcho, malformedEcho,
		func(int, map[string]any) reply { return reply{delay: time.Second} },
		func(int, map[string]any) reply { return reply{reset: true} },
	}
	for _, h := range handlers {
		f := newFakeServer(t, h)
		st, err := Open(StackConfig{
			BaseURLs: []string{f.BaseURL()}, Model: "m", APIKey: secret,
			Timeout: 100 * time.Millisecond, MaxRetries: 1,
			Sleep: (&sleepRecorder{}).Sleep,
		})
		if err != nil {
			t.Fatal(err)
		}
		_, err = st.Generate(context.Background(), userMsg("p", "q"))
		if err == nil {
			t.Fatal("expected an error")
		}
		collect(err)
	}

	// Credentials embedded in a base URL, and a refused connection.
	cfg := StackConfig{BaseURLs: []string{"http://user:" + secret + "@127.0.0.1:1/v1?api-key=" + secret},
		Model: "m", APIKey: secret, MaxRetries: -1}
	st, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Generate(context.Background(), userMsg("p", "q"))
	if err == nil {
		t.Fatal("expected a connection error")
	}
	collect(err)
	if _, err := Open(StackConfig{BaseURLs: []string{"http://a/v1", "http://a/v1"}, Model: "m", APIKey: secret}); err != nil {
		collect(err)
	}

	// Renderings of the configs.
	ec := EndpointConfig{BaseURL: cfg.BaseURLs[0], Model: "m", APIKey: secret}
	for _, v := range []any{cfg, &cfg, ec, &ec} {
		texts = append(texts, fmt.Sprintf("%v|%+v|%#v|%s", v, v, v, v))
		j, _ := json.Marshal(v)
		texts = append(texts, string(j))
	}
	var logs bytes.Buffer
	for _, lg := range []*slog.Logger{
		slog.New(slog.NewTextHandler(&logs, nil)),
		slog.New(slog.NewJSONHandler(&logs, nil)),
	} {
		lg.Info("config", "stack", cfg, "endpoint", ec)
	}
	texts = append(texts, logs.String())

	for _, s := range texts {
		if strings.Contains(s, secret) {
			t.Errorf("API key leaked in: %s", s)
		}
	}
	if len(texts) < 40 {
		t.Errorf("only %d renderings checked", len(texts))
	}
}

// TestAuthorizationSent guards the test above from passing because the key
// was never used at all.
func TestAuthorizationSent(t *testing.T) {
	f := newFakeServer(t, func(int, map[string]any) reply { return okReply("ok") })
	o := mustOpenAI(t, f.BaseURL(), secret, time.Second)
	if _, err := o.Generate(context.Background(), userMsg("p", "q")); err != nil {
		t.Fatal(err)
	}
	if got := f.requests()[0].header.Get("Authorization"); got != "Bearer "+secret {
		t.Errorf("Authorization = %q", got)
	}
}
