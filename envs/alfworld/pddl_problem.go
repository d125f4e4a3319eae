package alfworld

import "fmt"

// problem is a parsed PDDL problem, still in s-expressions.
type problem struct {
	name    string
	domain  string
	objects []typedName
	init    []*sexpr
	goal    *sexpr
}

func parseProblem(text string) (*problem, error) {
	root, err := parseSexpr(text)
	if err != nil {
		return nil, err
	}
	if root.head() != "define" {
		return nil, fmt.Errorf("line %d: want (define (problem ...) ...)", root.line)
	}
	p := &problem{}
	for _, part := range root.list[1:] {
		if !part.isList() || len(part.list) == 0 {
			return nil, fmt.Errorf("line %d: unexpected %q in problem", part.line, part.String())
		}
		switch part.head() {
		case "problem":
			if len(part.list) == 2 {
				p.name = part.list[1].atom
			}
		case ":domain":
			if len(part.list) == 2 {
				p.domain = part.list[1].atom
			}
		case ":objects":
			objs, err := typedList(part.list[1:], part.line)
			if err != nil {
				return nil, fmt.Errorf("objects: %w", err)
			}
			p.objects = append(p.objects, objs...)
		case ":init":
			p.init = append(p.init, part.list[1:]...)
		case ":goal":
			if len(part.list) != 2 {
				return nil, fmt.Errorf("line %d: (:goal F) takes one formula", part.line)
			}
			p.goal = part.list[1]
		case ":requirements", ":metric":
		default:
			return nil, fmt.Errorf("line %d: unsupported problem section %q", part.line, part.head())
		}
	}
	if p.goal == nil {
		return nil, fmt.Errorf("problem %q has no goal", p.name)
	}
	return p, nil
}
