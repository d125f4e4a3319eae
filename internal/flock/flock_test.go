package flock

import (
	"path/filepath"
	"sync"
	"testing"
)

// Holders of one lock never overlap.
func TestWaitExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	var mu sync.Mutex
	inside, most := 0, 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			unlock, err := Wait(path)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			inside++
			most = max(most, inside)
			mu.Unlock()
			for range 1000 {
				mu.Lock()
				_ = inside
				mu.Unlock()
			}
			mu.Lock()
			inside--
			mu.Unlock()
			unlock()
		})
	}
	wg.Wait()
	if most != 1 {
		t.Errorf("%d holders at once", most)
	}
}
