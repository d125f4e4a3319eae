package cache_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/cache"
)

// thinker answers with a reasoning block inline, as a reasoning model does.
type thinker struct{ calls int }

func (m *thinker) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	m.calls++
	raw := "<think>no idea</think>\n Yes "
	text, why := llm.SplitThink(raw)
	return llm.Response{Text: text, Content: raw, Reasoning: why, Model: "m", Endpoint: "e"}, nil
}

// TestContentReplayed: a hit gives back the content as the endpoint sent
// it (the input of a source's own parser), not only the stripped text.
func TestContentReplayed(t *testing.T) {
	c, _ := openTemp(t)
	inner := &thinker{}
	m := c.Wrap(inner)
	for range 2 {
		got, err := m.Generate(context.Background(), req("p"))
		if err != nil {
			t.Fatal(err)
		}
		if got.Text != "Yes" || got.Content != "<think>no idea</think>\n Yes " || got.Reply() != got.Content {
			t.Fatalf("cached=%v: Text %q Content %q", got.Cached, got.Text, got.Content)
		}
	}
	if inner.calls != 1 {
		t.Errorf("inner called %d times, want 1", inner.calls)
	}
}

// TestContentlessEntries: entries of a file written before the content
// was kept answer with their text where they have no reasoning, and are
// drawn again (and replaced) where they have, since the block's place in
// the content is lost. The same holds for the entries Import brings in.
func TestContentlessEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	c, err := cache.Open(path, ident)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	plain := &counter{text: func(llm.Request) string { return "No" }}
	if _, err := c.Wrap(&thinker{}).Generate(ctx, req("thought")); err != nil {
		t.Fatal(err)
	}
	noReason := llm.ModelFunc(func(ctx context.Context, r llm.Request) (llm.Response, error) {
		resp, err := plain.Generate(ctx, r)
		resp.Reasoning = ""
		return resp, err
	})
	if _, err := c.Wrap(noReason).Generate(ctx, req("plain")); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// What an older build wrote: no content.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE entries SET content = NULL`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	check := func(c *cache.Cache) {
		t.Helper()
		again := &counter{text: func(llm.Request) string { return "other" }}
		got, err := c.Wrap(again).Generate(ctx, req("plain"))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Cached || got.Reply() != "No" || again.calls.Load() != 0 {
			t.Errorf("entry without reasoning: %+v, inner calls %d; want a hit with its text as the content", got, again.calls.Load())
		}
		th := &thinker{}
		got, err = c.Wrap(th).Generate(ctx, req("thought"))
		if err != nil {
			t.Fatal(err)
		}
		if got.Cached || th.calls != 1 {
			t.Errorf("entry with reasoning and no content answered from the cache: %+v", got)
		}
		got, err = c.Wrap(&thinker{}).Generate(ctx, req("thought"))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Cached || got.Content != "<think>no idea</think>\n Yes " {
			t.Errorf("the fresh answer did not replace the entry without content: %+v", got)
		}
	}
	old, err := cache.Open(path, ident)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := cache.Open(filepath.Join(t.TempDir(), "new.db"), ident)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	if n, err := dst.Import(path); err != nil || n != 2 {
		t.Fatalf("import: %d entries, %v", n, err)
	}
	check(old)
	old.Close()
	check(dst)
}
