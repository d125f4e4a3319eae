package lifemem

import (
	"fmt"
	"testing"
)

// TestStatsMeanSizePerEnv: an environment's mean cluster size is the mean
// size of the clusters holding its trajectories (issue 37: apibank's 7
// trajectories in one cluster of 32 have mean cluster size 32, not 7 ÷ 1).
func TestStatsMeanSizePerEnv(t *testing.T) {
	m := newTest(t, Options{})
	var rows []row
	add := func(env string, n int) []int {
		var ids []int
		for range n {
			ids = append(ids, len(rows))
			rows = append(rows, row{id: fmt.Sprintf("%s-%d", env, len(rows)), env: env})
		}
		return ids
	}
	api := add("apibank", 7)
	hot := add("hotpotqa", 25)
	web1, web2 := add("webshop", 10), add("webshop", 5)
	m.setIndex(rows, map[string]*cluster{
		"mixed": {members: append(append([]int(nil), api...), hot...)}, // 32: apibank 7, hotpotqa 25
		"shop":  {members: web1},                                       // 10
		"small": {members: web2},                                       // 5
	})
	st := m.Stats()
	for env, want := range map[string]float64{"apibank": 32, "hotpotqa": 32, "webshop": 7.5} {
		if got := st.MeanSizePerEnv[env]; got != want {
			t.Errorf("%s: mean size %v, want %v (stats %+v)", env, got, want, st)
		}
	}
}
