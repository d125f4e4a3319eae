package lifememrel

import (
	"fmt"
	"strings"
)

// serviceRules is the rules text LifeMem's retrieval service
// (memory/server.py, retrieve) hands the ToolQA, ScienceWorld and API-Bank
// agents. A cluster's rules are stored numbered one per line ("1. rule\n",
// memory/insight_extraction.py, my_main); the service cuts every line
// after max(find(":"), find(".")) -- after the number's period, or after
// the rule's own first colon when it has one -- ends it with a line break,
// keeps each text once and passes at most five. Python's set gives those
// five in an arbitrary order (hash-seeded per process); the method's order
// is kept here.
func serviceRules(rules []string) string {
	const maxRules = 5
	var b strings.Builder
	seen := map[string]bool{}
	for i, r := range rules {
		for _, line := range strings.Split(fmt.Sprintf("%d. %s", i+1, r), "\n") {
			if line == "" {
				continue
			}
			cut := max(strings.IndexByte(line, ':'), strings.IndexByte(line, '.'))
			s := line[cut+1:] + "\n"
			if seen[s] || len(seen) >= maxRules {
				continue
			}
			seen[s] = true
			b.WriteString(s)
		}
	}
	return b.String()
}
