package taubench

import (
	"context"
	"sync"
	"testing"

	"github.com/memharness/memharness/envs"
)

// TestConcurrentEpisodes runs oracle episodes of one suite in parallel
// (meaningful under -race): the loaded data is shared read-only.
func TestConcurrentEpisodes(t *testing.T) {
	s := embeddedSuite(t, Airline)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, task := range s.Tasks() {
				gold, err := s.Gold(task)
				if err != nil {
					t.Error(err)
					return
				}
				tr, err := envs.Run(context.Background(), s, task, envs.Replay(gold), s.GoldOptions(task), 0)
				if err != nil || tr.Score != 1 {
					t.Errorf("%s: score %v %v", task.ID, tr.Score, err)
				}
			}
		}()
	}
	wg.Wait()
}
