package scored

// Options are the scoring settings of a report; the generic report's
// options carry them (reports.Options). The zero value of a field means
// its default (WithDefaults).
type Options struct {
	// Iters is the number of bootstrap resamples (default 1000).
	Iters int
	// Level is the confidence level of every interval (default 0.95).
	Level float64
	// Seed seeds every bootstrap (default 1).
	Seed uint64
	// Classes fixes the answer labels of a field; without it the classes
	// are the labels and valid predictions seen in the run.
	Classes map[string][]string
	// Positive is the positive class of binary fields (default "1").
	Positive string
	// Task names the task in titles (default: derived from the dataset).
	Task string
	// Baseline is the method listed first and compared with the others;
	// empty means the first configured method.
	Baseline string
	// Reducer makes a question's score from its repeated draws
	// (eval.reducer; "" is mean). Runs of one draw do not read it.
	Reducer string
}

// WithDefaults fills the zero fields with their defaults.
func (o Options) WithDefaults() Options {
	if o.Iters == 0 {
		o.Iters = 1000
	}
	if o.Level == 0 {
		o.Level = 0.95
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Positive == "" {
		o.Positive = "1"
	}
	return o
}
