package planner

// Schedule is what a runner's send order is made of: the memories it
// builds (units, each a construction call after call), the questions it
// asks (samples, each its calls one after another) and the order both go
// out in. Sequence lays their calls out in that order with each call's
// After, so every family's plan models its runner's order the same way.
type Schedule struct {
	// Units are the memories, each with its construction calls in order.
	Units []Unit
	// Samples are the questions in file order (the sample log's order).
	Samples []Sample
	// Order is the samples' issue order (indices into Samples) and After,
	// for each sample, the one it is held back for until answered (-1:
	// none); nil: file order, nothing held.
	Order, After []int
	// BuildOrder, when set, is the order the units are built in before any
	// question goes out, Workers at once (each call after call); nil builds
	// each unit at its first sample in the issue order.
	BuildOrder []int
	Workers    int
	// Waits[u] is the unit whose construction unit u resumes (-1: none): u
	// starts after that one's last call. nil: none waits.
	Waits []int
}

// Unit is one memory's construction.
type Unit struct {
	User, Method string
	Build        []Call
}

// Sample is one question's calls and the unit (index into Units) whose
// memory it needs.
type Sample struct {
	User, Method string
	Record       int
	Calls        []Call
	Unit         int
	// Release is 1 + the index of the call whose answer lets the samples
	// held back for this one go (an answer before its judge calls); 0:
	// the last call.
	Release int
}

// Sequence lists the schedule's calls in the harness's order, each with
// its After (the previous step of its construction or sample, the
// construction it resumes, the leader it is held back for), and the file
// order as indices into them: each memory's construction at its first
// sample, as in the sample log.
func (s Schedule) Sequence() (calls []Call, file []int) {
	order, after := s.Order, s.After
	if order == nil {
		order = make([]int, len(s.Samples))
		after = make([]int, len(s.Samples))
		for i := range order {
			order[i], after[i] = i, -1
		}
	}
	// pos[u][k] is the position in calls of unit u's k-th construction
	// call; start[si] that of sample si's first call.
	pos := make([][]int, len(s.Units))
	start := make([]int, len(s.Samples))
	if s.BuildOrder != nil {
		builds := make([][]Call, len(s.Units))
		for i, u := range s.Units {
			builds[i] = u.Build
		}
		waits := s.Waits
		for _, at := range interleave(builds, s.BuildOrder, max(1, s.Workers), waits) {
			c := s.Units[at[0]].Build[at[1]]
			if k := len(pos[at[0]]); k > 0 {
				c.After = pos[at[0]][k-1] + 1 // the construction's previous step
			} else if waits != nil && waits[at[0]] >= 0 {
				w := waits[at[0]]
				c.After = pos[w][len(pos[w])-1] + 1 // the construction it resumes
			}
			pos[at[0]] = append(pos[at[0]], len(calls))
			calls = append(calls, c)
		}
		for _, si := range order {
			start[si] = len(calls)
			for k, c := range s.Samples[si].Calls {
				switch l := after[si]; {
				case k > 0:
					c.After = len(calls) // the sample's previous call
				case l >= 0 && len(s.Samples[l].Calls) > 0:
					c.After = start[l] + s.Samples[l].released() // the leader's releasing call
				}
				calls = append(calls, c)
			}
		}
	} else {
		built := make([]bool, len(s.Units))
		for _, si := range order {
			if u := s.Samples[si].Unit; !built[u] {
				built[u] = true
				for _, c := range s.Units[u].Build {
					pos[u] = append(pos[u], len(calls))
					calls = append(calls, c)
				}
			}
			start[si] = len(calls)
			calls = append(calls, s.Samples[si].Calls...)
		}
	}
	filed := make([]bool, len(s.Units))
	for si, smp := range s.Samples {
		if !filed[smp.Unit] {
			filed[smp.Unit] = true
			file = append(file, pos[smp.Unit]...)
		}
		for k := range smp.Calls {
			file = append(file, start[si]+k)
		}
	}
	return calls, file
}

// released is 1 + the index of the call that releases the sample's
// followers.
func (s Sample) released() int {
	if s.Release > 0 && s.Release <= len(s.Calls) {
		return s.Release
	}
	return len(s.Calls)
}
