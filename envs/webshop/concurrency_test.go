package webshop

import (
	"context"
	"sync"
	"testing"

	"github.com/memharness/memharness/envs"
)

// TestConcurrentEpisodes plays every embedded task's oracle from several
// goroutines at once over one suite (run with -race).
func TestConcurrentEpisodes(t *testing.T) {
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, task := range s.Tasks() {
				gold, err := s.Gold(task)
				if err != nil {
					t.Error(err)
					return
				}
				tr, err := envs.Run(context.Background(), s, task, envs.Replay(gold), envs.Options{}, 0)
				if err != nil || tr.Score != 1 {
					t.Errorf("%s: score %v, %v", task.ID, tr.Score, err)
				}
			}
		}()
	}
	wg.Wait()
}
