package embed_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/memharness/memharness/llm/embed"
)

// recorder embeds with Hash and records every text it was asked for.
type recorder struct {
	mu    sync.Mutex
	texts []string
	err   error
}

func (r *recorder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	r.mu.Lock()
	r.texts = append(r.texts, texts...)
	r.mu.Unlock()
	if r.err != nil {
		return nil, r.err
	}
	return embed.Hash{Dim: 16}.Embed(ctx, texts)
}

func TestMemo(t *testing.T) {
	rec := &recorder{}
	m := embed.Memo(rec)
	ctx := context.Background()
	a, err := m.Embed(ctx, []string{"x", "y", "x"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Embed(ctx, []string{"y", "z", "x"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.texts, []string{"x", "y", "z"}) {
		t.Errorf("inner saw %q, want each text once", rec.texts)
	}
	want := embed.Hash{Dim: 16}
	for i, tc := range []struct {
		got  []float32
		text string
	}{{a[0], "x"}, {a[1], "y"}, {a[2], "x"}, {b[0], "y"}, {b[1], "z"}, {b[2], "x"}} {
		if !slices.Equal(tc.got, want.Vector(tc.text)) {
			t.Errorf("vector %d (%q) wrong", i, tc.text)
		}
	}
	a[0][0] = 42 // callers own their copies
	c, _ := m.Embed(ctx, []string{"x"})
	if c[0][0] == 42 {
		t.Error("memo shares vectors with callers")
	}
}

func TestMemoError(t *testing.T) {
	boom := errors.New("down")
	rec := &recorder{err: boom}
	m := embed.Memo(rec)
	if _, err := m.Embed(context.Background(), []string{"x"}); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	rec.err = nil
	if _, err := m.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if len(rec.texts) != 2 {
		t.Errorf("a failed embedding was memoised: inner saw %q", rec.texts)
	}
}

func TestMemoConcurrent(t *testing.T) {
	m := embed.Memo(&recorder{})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				s := fmt.Sprint((w + i) % 20)
				v, err := m.Embed(context.Background(), []string{s})
				if err != nil || !slices.Equal(v[0], embed.Hash{Dim: 16}.Vector(s)) {
					t.Errorf("text %q: %v %v", s, v, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
