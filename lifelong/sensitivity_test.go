package lifelong_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent/lifemem"
)

// sensRun is one LifeMem setting played over the embedded ALFWorld stream.
type sensRun struct {
	name     string
	op       float64
	clusters int
	solved   []string // test tasks scored 1, by ID
}

// TestEmbeddedSensitivity: each knob of LifeMem's Table 8 (split size L,
// MRL threshold τ, top-k) reaches the ALFWorld score on the embedded suite,
// around the centre of configs/paper/lifemem_sensitivity.yaml (L 12, τ 0.95,
// k 2). Top-k must raise the score (two test tasks have their transferable
// run only third by wording); L and τ must change the clusters, and through
// the skills shown with the retrieved examples, the score. A knob that no
// longer reaches the memory or the prompt fails here.
func TestEmbeddedSensitivity(t *testing.T) {
	e := loadEmbedded(t, "alfworld")
	model := newSim(sim.Config{})
	play := func(name string, o lifemem.Options) sensRun {
		m := newMethod(t, "lifemem", 0, o)
		res := e.run(t, model, lifelong.StreamSimilarity, m)
		r := sensRun{name: name, op: op(res), clusters: m.(*lifemem.LifeMem).Stats().Clusters}
		for _, c := range res.Cells {
			for _, tr := range c.Tasks {
				if tr.Score >= 1 {
					r.solved = append(r.solved, tr.Task)
				}
			}
		}
		return r
	}
	// flips names the tasks one setting solves and the other does not.
	flips := func(a, b sensRun) string {
		var out []string
		for _, id := range a.solved {
			if !slices.Contains(b.solved, id) {
				out = append(out, "+"+shortTask(id))
			}
		}
		for _, id := range b.solved {
			if !slices.Contains(a.solved, id) {
				out = append(out, "-"+shortTask(id))
			}
		}
		return strings.Join(out, " ")
	}
	centreOpts := lifemem.Options{SplitSize: 12, SplitMRL: 0.95, TopK: 2}
	centre := play("L12 τ0.95 k2", centreOpts)
	with := func(f func(*lifemem.Options)) lifemem.Options {
		o := centreOpts
		f(&o)
		return o
	}
	var vecs [][]float32
	for _, tr := range e.train {
		vecs = append(vecs, embed.Hash{}.Vector(tr.Task))
	}
	t.Logf("centre %s: OP %.2f, %d clusters; %d training runs, MRL of all of them %.3f",
		centre.name, centre.op, centre.clusters, len(e.train), lifemem.MRL(vecs))

	t.Run("top_k", func(t *testing.T) {
		for _, k := range []int{4, 8} {
			r := play(fmt.Sprintf("k%d", k), with(func(o *lifemem.Options) { o.TopK = k }))
			t.Logf("top-k %d: OP %.2f (%+.2f against k 2) %s", k, r.op, r.op-centre.op, flips(r, centre))
			if r.clusters != centre.clusters {
				t.Errorf("top-k %d built %d clusters, the centre %d: top-k must act on retrieval only", k, r.clusters, centre.clusters)
			}
			if r.op <= centre.op {
				t.Errorf("top-k %d OP %.2f not above k 2's %.2f: the extra retrieved runs do not reach the reader", k, r.op, centre.op)
			}
		}
	})
	t.Run("split_size", func(t *testing.T) {
		var ops []float64
		prevClusters := -1
		for _, l := range []int{4, 8, 12, 16} {
			r := centre
			if l != 12 {
				r = play(fmt.Sprintf("L%d", l), with(func(o *lifemem.Options) { o.SplitSize = l }))
			}
			t.Logf("L %2d: OP %.2f (%+.2f against L 12), %2d clusters %s", l, r.op, r.op-centre.op, r.clusters, flips(r, centre))
			if prevClusters >= 0 && r.clusters > prevClusters {
				t.Errorf("L %d built %d clusters, more than a smaller L's %d: the split size does not gate splits", l, r.clusters, prevClusters)
			}
			prevClusters = r.clusters
			ops = append(ops, r.op)
		}
		if ops[3] == ops[2] {
			t.Errorf("L 16 (one cluster) scores as L 12 (split), %.2f: the clusters' skills do not reach the score", ops[2])
		}
		if slices.Min(ops) == slices.Max(ops) {
			t.Errorf("every L scores %.2f: the split size does not reach the score", ops[0])
		}
	})
	t.Run("tau", func(t *testing.T) {
		// The MRL of the 15 runs lies between these: 0.4 keeps the cluster
		// whole, 0.95 and 1.0 (size alone) split it.
		low := play("τ0.4", with(func(o *lifemem.Options) { o.SplitMRL = 0.4 }))
		size := play("τ1.0", with(func(o *lifemem.Options) { o.SplitMRL = 1 }))
		t.Logf("τ 0.4: OP %.2f (%+.2f against τ 0.95), %d clusters %s", low.op, low.op-centre.op, low.clusters, flips(low, centre))
		t.Logf("τ 1.0: OP %.2f (%+.2f against τ 0.95), %d clusters %s", size.op, size.op-centre.op, size.clusters, flips(size, centre))
		if low.clusters >= centre.clusters {
			t.Errorf("τ 0.4 built %d clusters, τ 0.95 %d: a threshold below the MRL must keep the cluster whole", low.clusters, centre.clusters)
		}
		if size.clusters < centre.clusters {
			t.Errorf("τ 1.0 built %d clusters, τ 0.95 %d: splitting on size alone must split at least as much", size.clusters, centre.clusters)
		}
		if low.op == centre.op {
			t.Errorf("τ 0.4 scores as τ 0.95, %.2f: the threshold does not reach the score", low.op)
		}
	})
}

// shortTask is the room part of an ALFWorld task ID.
func shortTask(id string) string {
	parts := strings.Split(id, "/")
	if len(parts) >= 2 {
		return parts[len(parts)-2]
	}
	return id
}
