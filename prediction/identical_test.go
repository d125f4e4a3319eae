package prediction

import (
	"reflect"
	"testing"

	"github.com/memharness/memharness/runlog"
)

func TestIdenticalAnswers(t *testing.T) {
	s := func(method, inst, pred string) runlog.Sample {
		return runlog.Sample{ID: method + "/" + inst, Method: method, Pred: pred}
	}
	for _, c := range []struct {
		name    string
		samples []runlog.Sample
		want    []string
	}{
		{"no samples", nil, nil},
		{"one method", []runlog.Sample{s("a", "u1/0", "4")}, nil},
		{"identical pair", []runlog.Sample{s("a", "u1/0", "4"), s("b", "u1/0", "4"), s("a", "u1/1", "No"), s("b", "u1/1", "No")},
			[]string{"methods a and b gave identical answers to all 2 samples: check that each method's memory reaches the prompt and the reader"}},
		{"one answer differs", []runlog.Sample{s("a", "u1/0", "4"), s("b", "u1/0", "4"), s("a", "u1/1", "No"), s("b", "u1/1", "Yes")}, nil},
		{"different samples", []runlog.Sample{s("a", "u1/0", "4"), s("b", "u1/1", "4")}, nil},
		{"invalid answers count as answers", []runlog.Sample{s("a", "u1/0", ""), s("b", "u1/0", "")},
			[]string{"methods a and b gave identical answers to all 1 samples: check that each method's memory reaches the prompt and the reader"}},
		{"three methods, one pair", []runlog.Sample{s("a", "x", "1"), s("b", "x", "2"), s("c", "x", "1")},
			[]string{"methods a and c gave identical answers to all 1 samples: check that each method's memory reaches the prompt and the reader"}},
	} {
		if got := IdenticalAnswers(c.samples); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
