package scienceworld

import "fmt"

// Family is an AgentGym protocol family.
type Family string

// The two AgentGym protocol families.
const (
	// FamilyA keys environments by "id" and answers JSON objects.
	FamilyA Family = "A"
	// FamilyB keys environments by "env_idx" and answers bare values.
	FamilyB Family = "B"
)

// Kind names an AgentGym environment server.
type Kind string

// Environment servers the adapter knows.
const (
	SciWorld Kind = "sciworld"
	ALFWorld Kind = "alfworld"
	WebShop  Kind = "webshop"
	SQLGym   Kind = "sqlgym"
	SearchQA Kind = "searchqa"
)

// Name is the registry name of the ScienceWorld suite.
const Name = "scienceworld"

// MaxSteps is LifeMem's ScienceWorld limit on agent actions.
const MaxSteps = 35

// kindSpec is what differs between servers of the same family.
type kindSpec struct {
	family   Family
	name     string // default suite name
	maxSteps int    // LifeMem paper; sqlgym/searchqa are not in it (our choice)
	resetKey string // field of /reset that carries the task index
	// hasClose: the server defines POST /close (webshop's does not, though
	// its client calls it).
	hasClose bool
	// createBody is sent to /create (searchqa wants an object).
	createBody any
	// stripAngle: the LifeMem prompt asks for actions wrapped in <...>.
	stripAngle bool
}

func specFor(k Kind) (kindSpec, error) {
	switch k {
	case SciWorld:
		return kindSpec{family: FamilyA, name: Name, maxSteps: MaxSteps, resetKey: "data_idx", hasClose: true, stripAngle: true}, nil
	case ALFWorld:
		return kindSpec{family: FamilyA, name: "alfworld", maxSteps: 20, resetKey: "game"}, nil
	case WebShop:
		return kindSpec{family: FamilyB, name: "webshop", maxSteps: 15, resetKey: "session_id"}, nil
	case SQLGym:
		return kindSpec{family: FamilyB, name: "sqlgym", maxSteps: 20, resetKey: "item_id"}, nil
	case SearchQA:
		return kindSpec{family: FamilyB, name: "searchqa", maxSteps: 10, resetKey: "id", hasClose: true, createBody: map[string]any{"id": 0}}, nil
	}
	return kindSpec{}, fmt.Errorf("unknown AgentGym environment kind %q (known: sciworld, alfworld, webshop, sqlgym, searchqa)", k)
}

// idKey is the request field that names an environment instance.
func (f Family) idKey() string {
	if f == FamilyB {
		return "env_idx"
	}
	return "id"
}
