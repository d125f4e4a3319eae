package behaviorrun

import (
	"reflect"
	"testing"

	"github.com/memharness/memharness/runrecord"
)

func TestIdenticalAnswers(t *testing.T) {
	s := func(method, inst, pred string) runrecord.Sample {
		return runrecord.Sample{ID: method + "/" + inst, Method: method, Pred: pred}
	}
	for _, c := range []struct {
		name    string
		samples []runrecord.Sample
		want    []string
	}{
		{"no samples", nil, nil},
		{"one method", []runrecord.Sample{s("a", "u1/0", "4")}, nil},
		{"identical pair", []runrecord.Sample{s("a", "u1/0", "4"), s("b", "u1/0", "4"), s("a", "u1/1", "No"), s("b", "u1/1", "No")},
			[]string{"methods a and b gave identical answers to all 2 samples: check that each method's memory reaches the prompt and the reader"}},
		{"one answer differs", []runrecord.Sample{s("a", "u1/0", "4"), s("b", "u1/0", "4"), s("a", "u1/1", "No"), s("b", "u1/1", "Yes")}, nil},
		{"different samples", []runrecord.Sample{s("a", "u1/0", "4"), s("b", "u1/1", "4")}, nil},
		{"invalid answers count as answers", []runrecord.Sample{s("a", "u1/0", ""), s("b", "u1/0", "")},
			[]string{"methods a and b gave identical answers to all 1 samples: check that each method's memory reaches the prompt and the reader"}},
		{"three methods, one pair", []runrecord.Sample{s("a", "x", "1"), s("b", "x", "2"), s("c", "x", "1")},
			[]string{"methods a and c gave identical answers to all 1 samples: check that each method's memory reaches the prompt and the reader"}},
	} {
		if got := IdenticalAnswers(c.samples); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
