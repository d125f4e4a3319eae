package alfworld

import (
	"context"
	"testing"

	"github.com/memharness/memharness/envs"
)

// BenchmarkStep measures engine steps per second on an official game: the
// oracle plan of every fixture task replayed in turn (each step recomputes
// the admissible commands, as TextWorld does).
func BenchmarkStep(b *testing.B) {
	s := openFixture(b)
	type play struct {
		gm   *Game
		gold []string
	}
	var plays []play
	for _, t := range s.Tasks() {
		gold, err := s.Gold(t)
		if err != nil {
			b.Fatal(err)
		}
		plays = append(plays, play{t.Data.(*TaskData).Game, gold})
	}
	b.ResetTimer()
	steps := 0
	for i := 0; steps < b.N; i++ {
		p := plays[i%len(plays)]
		ep, err := NewEpisode(p.gm)
		if err != nil {
			b.Fatal(err)
		}
		for _, a := range p.gold {
			if steps == b.N {
				break
			}
			if _, err := ep.Step(context.Background(), a); err != nil {
				b.Fatal(err)
			}
			steps++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkOracleFixture is the full oracle check over the 134 games
// (planning included; loading excluded).
func BenchmarkOracleFixture(b *testing.B) {
	s := openFixture(b)
	b.ResetTimer()
	for range b.N {
		res, err := envs.Check(context.Background(), s)
		if err != nil || res.Passed != res.Tasks {
			b.Fatalf("%+v %v", res, err)
		}
	}
}

// BenchmarkOpenFixture is loading and compiling the 134 game files.
func BenchmarkOpenFixture(b *testing.B) {
	openFixture(b)
	for range b.N {
		if _, err := Open(fixtureDir); err != nil {
			b.Fatal(err)
		}
	}
}
