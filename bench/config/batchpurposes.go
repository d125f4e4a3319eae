package config

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// CallPurposes are the purposes the calls of a run of c can carry, which
// backbone.batch.purposes may name: the task's own (TaskShape.Purposes:
// answering, judging, acting, an environment's), and those of the kinds
// of its methods (predict.Entry.Purposes; agent.Entry.Calls), sorted. A
// method whose kind serves its process a model gateway also makes calls
// whose purposes the process names, "<method>.<name>": open lists those
// prefixes ("<method>."), in the methods' order.
func (k Known) CallPurposes(c *Config) (names, open []string) {
	task := k.task(c.Task)
	names = slices.Clone(task.Purposes)
	gateway := func(name string) { open = append(open, name+".") }
	if task.Lifelong {
		if c.Lifelong != nil {
			for _, m := range c.Lifelong.WithDefaults().Methods {
				e, err := k.agentMethods().Lookup(m.Kind)
				if err != nil {
					continue
				}
				names = append(names, e.Calls...)
				if e.GatewayPurposes {
					gateway(cmp.Or(m.Name, m.Kind))
				}
			}
		}
	} else {
		for _, m := range c.Methods {
			e, err := k.methods().Lookup(m.Kind)
			if err != nil {
				continue
			}
			for _, p := range e.Purposes {
				names = append(names, p.Name)
			}
			if e.GatewayPurposes {
				gateway(cmp.Or(m.Name, m.Kind))
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names), open
}

// validateBatchPurposes checks that each of backbone.batch.purposes is a
// purpose a call of the run carries: a name no call carries would leave
// every call live without a word.
func (k Known) validateBatchPurposes(v *validator, c *Config) {
	bt := c.Backbone.Batch
	if bt == nil {
		return
	}
	names, open := k.CallPurposes(c)
	for i, p := range bt.Purposes {
		if strings.TrimSpace(p) == "" || slices.Contains(names, p) ||
			slices.ContainsFunc(open, func(pre string) bool { return strings.HasPrefix(p, pre) && len(p) > len(pre) }) {
			continue
		}
		msg := fmt.Sprintf("no call of task %s and its methods has purpose %q", c.Task, p)
		if s := closest(p, names); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		known := strings.Join(names, ", ")
		if len(open) > 0 {
			known += "; or <name> after " + strings.Join(open, ", ") + " for the calls a method's process names"
		}
		v.add(fmt.Sprintf("backbone.batch.purposes[%d]", i), "%s (the run's purposes: %s)", msg, known)
	}
}
