package pramem

import "github.com/memharness/memharness/llm/hint"

// PraMem practice stages. Every stage request carries one of the hints
// below, each read by its own reader in SimReaders (simread.go); all of them
// implement PraMemStage, which names the stage in the round's record.

// PraMemStage is implemented by the hints of PraMem's practice calls.
type PraMemStage interface {
	// PraMemStage names the stage ("trial", "reflect", ...).
	PraMemStage() string
}

// PraMemQuestion is one question of a practice task.
type PraMemQuestion struct {
	Field   string   // e.g. "live_sent_gift", "movie_rating"
	Kind    string   // "binary" or "multi_class"
	Classes []string // answer labels for multi_class
}

// PraMemTask is what a practice input shows: the visible history (with
// outcomes, as the history block renders reactions), the target scene
// (without outcomes) and the questions asked about it.
type PraMemTask struct {
	Visible   []hint.Event
	Target    hint.Event
	Questions []PraMemQuestion
}

// PraMemTrial asks for the deep-thinking trial prediction of a practice
// task under the current memory (Memory holds the memory entries, one per
// line, as the rendered memory shows them). Direct is the "w/o deep-thinking
// trial" ablation: predict each task without consulting the memory entries.
type PraMemTrial struct {
	Task   PraMemTask
	Memory string
	Direct bool
}

// PraMemReflect asks for the reflection on a trial: the task, the trial's
// free-text response, the practice answer (Label: field -> true value) and
// the memory. N > 0 asks for exactly N proposals. Direct is the "w/o
// reflective proposal" ablation: proposals straight from comparing the
// prediction with the label, without analysing the history.
type PraMemReflect struct {
	Task   PraMemTask
	Trial  string
	Label  map[string]float64
	Memory string
	N      int
	Direct bool
}

// PraMemScenes asks for M virtual variants of the real practice scene
// (RealText, already cut) with its key entities replaced. Real is the
// structured view of the same scene.
type PraMemScenes struct {
	RealText string
	Real     hint.Event
	M        int
}

// PraMemGeneralize asks, for each proposal, whether its content alone
// singles out option A (Options[0], the real scene) among the options.
type PraMemGeneralize struct {
	Options   []string
	Proposals []string
}

// PraMemPerturb asks for N perturbation plans that flip the response signals
// of the shown history.
type PraMemPerturb struct {
	History []hint.Event
	N       int
}

// PraMemPerturbJudge asks whether each proposal would still hold after the
// perturbation plan (Desc, Details) is applied to History.
type PraMemPerturbJudge struct {
	History   []hint.Event
	Desc      string
	Details   string
	Proposals []string
}

// PraMemReview asks for the consensual adjustment of the memory: the whole
// new memory (user_exp, model_exp, proposal) given the current one. Support
// is the number of agreeing proposals needed to change the memory.
type PraMemReview struct {
	UserExp, ModelExp, Proposal []string
	Support                     int
}

// PraMemStage implements PraMemStage.
func (PraMemTrial) PraMemStage() string { return "trial" }

// PraMemStage implements PraMemStage.
func (PraMemReflect) PraMemStage() string { return "reflect" }

// PraMemStage implements PraMemStage.
func (PraMemScenes) PraMemStage() string { return "scenes" }

// PraMemStage implements PraMemStage.
func (PraMemGeneralize) PraMemStage() string { return "generalize" }

// PraMemStage implements PraMemStage.
func (PraMemPerturb) PraMemStage() string { return "perturb" }

// PraMemStage implements PraMemStage.
func (PraMemPerturbJudge) PraMemStage() string { return "perturb_judge" }

// PraMemStage implements PraMemStage.
func (PraMemReview) PraMemStage() string { return "review" }
