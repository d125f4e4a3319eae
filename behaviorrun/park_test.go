package behaviorrun_test

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memharness/memharness/behaviorrun"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runstore"
)

// waveModel parks every call as the batch layer does (llm.Park) and answers
// a wave once it holds size calls, or, with size 0, once no call has parked
// for linger.
type waveModel struct {
	mu     sync.Mutex
	sizes  []int // the waves' sizes, by purpose phase
	linger time.Duration
	parked []chan struct{}
	timer  *time.Timer
	waves  []int
}

func (m *waveModel) flushLocked() {
	if len(m.parked) == 0 {
		return
	}
	m.waves = append(m.waves, len(m.parked))
	for _, c := range m.parked {
		close(c)
	}
	m.parked = nil
}

func (m *waveModel) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	done := make(chan struct{})
	m.mu.Lock()
	m.parked = append(m.parked, done)
	switch {
	case len(m.sizes) > 0 && len(m.parked) == m.sizes[0]:
		m.sizes = m.sizes[1:]
		m.flushLocked()
	case len(m.sizes) == 0 && m.timer == nil:
		m.timer = time.AfterFunc(m.linger, func() {
			m.mu.Lock()
			defer m.mu.Unlock()
			m.flushLocked()
			m.timer = nil
		})
	case len(m.sizes) == 0:
		m.timer.Reset(m.linger)
	}
	m.mu.Unlock()
	resume := llm.Park(ctx)
	defer resume()
	select {
	case <-done:
		return llm.Response{Text: "1"}, nil
	case <-ctx.Done():
		return llm.Response{}, ctx.Err()
	}
}

// busyMethod does some live work before each call and counts how many
// samples do it at once.
type busyMethod struct {
	callingMethod
	busy, most *atomic.Int64
}

func (m busyMethod) Predict(ctx context.Context, env predict.Env, mem predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	n := m.busy.Add(1)
	for {
		old := m.most.Load()
		if n <= old || m.most.CompareAndSwap(old, n) {
			break
		}
	}
	time.Sleep(time.Millisecond)
	m.busy.Add(-1)
	return m.callingMethod.Predict(ctx, env, mem, inst)
}

// TestBatchParkedSamplesGiveTheirSlotBack: with two workers, every memory
// construction of the run parks in one wave and every question in the
// next (a worker whose call parks gives its slot back), while no more than
// two samples do live work at once. With the questions live, a follower
// waiting for its leader gives its slot back too, so a leader whose call
// parks is never stuck behind its followers.
func TestBatchParkedSamplesGiveTheirSlotBack(t *testing.T) {
	for _, batched := range []bool{true, false} {
		st, err := runstore.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		var busy, most atomic.Int64
		methods := []predict.Method{
			busyMethod{callingMethod{"truncation"}, &busy, &most},
			busyMethod{callingMethod{"rag"}, &busy, &most},
		}
		classes := map[string]string{"truncation": "history 8000", "rag": "history 8000"}
		model := &waveModel{linger: 200 * time.Millisecond}
		if batched {
			model.sizes = []int{5 * 2, 5 * 4 * 2}
		}
		r := behaviorrun.New(st)
		plan := r.Plan(methods, users(5, 4), predict.Env{Model: model}, 0)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, err = r.Predict(ctx, plan, behaviorrun.PredictOptions{Workers: 2, PrefixClasses: classes, BatchedQuestions: batched})
		timedOut := ctx.Err()
		cancel()
		if err != nil || timedOut != nil {
			t.Fatalf("batched questions %v: %v (%v): the pool did not give parked samples' slots back", batched, err, timedOut)
		}
		done, _ := st.Counts()
		st.Close()
		if done != 40 {
			t.Errorf("batched questions %v: %d samples done, want 40", batched, done)
		}
		if batched && (len(model.waves) != 2 || model.waves[0] != 10 || model.waves[1] != 40) {
			t.Errorf("waves %v, want every construction in one and every question in the next: [10 40]", model.waves)
		}
		if most.Load() > 2 {
			t.Errorf("batched questions %v: %d samples did live work at once, want at most 2", batched, most.Load())
		}
	}
}

// heapWave is a waveModel that reads the heap and stacks when its last
// wave is full, every sample of the run parked on it.
type heapWave struct {
	*waveModel
	last int
	heap uint64
}

func (m *heapWave) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	m.mu.Lock()
	if len(m.sizes) == 1 && len(m.parked)+1 == m.sizes[0] {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		m.heap = ms.HeapAlloc + ms.StackInuse
	}
	m.mu.Unlock()
	return m.waveModel.Generate(ctx, req)
}

// BenchmarkBatchParkedSamples parks every question of a large plan (5,000
// samples) in one wave and reports what a parked sample holds on the heap
// and in goroutine stacks (B/parked: its goroutine, slot, call log and a
// small request; a real request adds its prompt).
func BenchmarkBatchParkedSamples(b *testing.B) {
	const nUsers, perUser = 250, 10
	methods := []predict.Method{callingMethod{"truncation"}, callingMethod{"rag"}}
	for range b.N {
		st, err := runstore.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		r := behaviorrun.New(st)
		model := &heapWave{waveModel: &waveModel{sizes: []int{nUsers * 2, nUsers * perUser * 2}}}
		plan := r.Plan(methods, users(nUsers, perUser), predict.Env{Model: model}, 0)
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := r.Predict(context.Background(), plan, behaviorrun.PredictOptions{Workers: 8, BatchedQuestions: true}); err != nil {
			b.Fatal(err)
		}
		st.Close()
		b.Logf("heap and stacks %d before, %d with every sample parked", before.HeapAlloc+before.StackInuse, model.heap)
		b.ReportMetric((float64(model.heap)-float64(before.HeapAlloc+before.StackInuse))/float64(nUsers*perUser*2), "B/parked")
	}
}
