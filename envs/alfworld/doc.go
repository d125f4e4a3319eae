// Package alfworld is a native Go engine for ALFWorld's text games (the
// TextWorld version of the ALFRED household tasks), as used by ReAct, ExpeL
// and LifeMem.
//
// It reads the official game files (game.tw-pddl: JSON holding the PDDL
// domain, the PDDL problem and the TextWorld grammar that words all
// feedback) and plays them with the pre-December-2024 command set: "go to X",
// "take X from Y", "put X in/on Y", "open X", "close X", "use X",
// "heat/cool/clean X with Y", "slice X with Y", "examine X", "inventory" and
// "look". Like TextWorld, an action is valid only when it is one of the
// grounded PDDL actions applicable in the current state (the admissible
// commands); anything else answers "Nothing happens.".
//
// The engine is an interpreter over the game's own domain and grammar
// rather than hand-written rules: pddl*.go parse the PDDL subset the ALFRED
// domain uses (typing, and/or/not/=, exists/forall, conditional effects),
// solve.go enumerates satisfying bindings, grammar.go and textgen.go expand
// the TextWorld grammar, and names.go numbers entities the way ALFWorld's
// demangler does ("cabinet 3", "loc 12").
//
// On top of the engine sit the envs.Suite (suite.go, episode.go): ReAct's
// "think: ..." answers "OK.", "put X in Y"/"put X on Y" are read as
// "put X in/on Y" (ExpeL's normalisation) and "toggle X" as "use X". The
// oracle (oracle.go) plans with full knowledge of the state for the six
// task types, read from the PDDL goal.
package alfworld
