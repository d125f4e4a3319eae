package pramem

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
)

// detailLimit is the reference's --detail_truncate_len (scene text and
// history details shown to the self-review calls).
const detailLimit = 128

// Call is one stage call of a round: the prompt and the answer.
type Call struct {
	Prompt   string `json:"user_prompt"`
	Response string `json:"response"`
}

// Check is one self-review check of a round.
type Check struct {
	// Skipped says why the check did not judge (and what followed), e.g.
	// "scenes_unparsable: all pass".
	Skipped string `json:"skipped,omitempty"`
	// Generate is the scene or perturbation generation call; Judge the
	// judging call.
	Generate *Call         `json:"generate,omitempty"`
	Scenes   []string      `json:"virtual_scenes,omitempty"`
	Plan     *Perturbation `json:"perturbation,omitempty"`
	Judge    *Call         `json:"judge,omitempty"`
	Pass     []bool        `json:"results,omitempty"`
}

// Verify is the self-review of a round's new proposals.
type Verify struct {
	Before    []string `json:"new_proposals_before_verify"`
	Verified  []string `json:"verified_proposals"`
	Passed    int      `json:"num_passed"`
	Rejected  int      `json:"num_rejected"`
	Check1    *Check   `json:"check1,omitempty"`
	Check2    *Check   `json:"check2,omitempty"`
	PoolAfter []string `json:"proposal_pool_after"`
}

// Review is the consensual adjustment of a round.
type Review struct {
	Call
	Accepted bool      `json:"accepted"`
	Before   ExpMemory `json:"memory_before_review"`
	After    ExpMemory `json:"memory_after_review"`
}

// Round is the record of one practice round, as the reference's progress
// file keeps it (round_<i>), plus Events: what happened where a stage's
// output was bad or a stage was skipped (spec §4.8), one code each.
type Round struct {
	Round           int       `json:"round_idx"`
	PracticeIdx     int       `json:"practice_idx"`
	Before          ExpMemory `json:"memory_snapshot_before"`
	Predict         *Call     `json:"step1_predict,omitempty"`
	Reflect         *Call     `json:"step2_reflect_and_extract,omitempty"`
	NewProposals    []string  `json:"new_proposals_before_verify"`
	Verify          *Verify   `json:"step2_5_self_verify,omitempty"`
	ReviewTriggered bool      `json:"review_triggered"`
	Review          *Review   `json:"step3_review,omitempty"`
	After           ExpMemory `json:"memory_snapshot_after"`
	Events          []string  `json:"events,omitempty"`
	// Error is set when a call failed for good: the round was skipped
	// (round_<i>_error); mutations made before the failure are kept.
	Error string `json:"error,omitempty"`
	// Calls and Usage are this round's model calls.
	Calls int       `json:"calls"`
	Usage llm.Usage `json:"usage"`
}

// Event codes of Round.Events (the §4.8 table, plus what the ablations
// skip).
const (
	EvNoProposals       = "reflect_no_proposals"        // 0 proposals: self-review skipped
	EvSceneNotFound     = "scene_not_found"             // check1 skipped: all pass
	EvScenesUnparsable  = "scenes_unparsable"           // check1 skipped: all pass
	EvGeneralizeBad     = "generalize_unparsable"       // all pass
	EvGeneralizeDefault = "generalize_missing_index"    // one per defaulted proposal: passes
	EvHistoryNotFound   = "perturb_history_not_found"   // check2 skipped: all pass
	EvPerturbUnparsable = "perturb_unparsable"          // check2 skipped: all pass
	EvJudgeBad          = "perturb_judge_unparsable"    // all rejected
	EvJudgeDefault      = "perturb_judge_missing_index" // one per defaulted proposal: rejected
	EvReviewUnparsable  = "review_unparsable"           // old memory kept, pool included
	EvRoundError        = "round_error"                 // a call failed twice: round skipped
	EvDirectAdoption    = "direct_adoption"             // no_consensus: verified proposals adopted
)

// errCallFailed wraps a call that failed on both attempts.
var errCallFailed = errors.New("practice call failed")

// practiceAttempts is the practice client's attempts per call.
const practiceAttempts = 2

// roundRunner runs the rounds of one user.
type roundRunner struct {
	m     *method
	env   predict.Env
	sp    *stagePrompts
	user  string
	total int // rounds in this user's construction
}

// call sends one stage request, trying twice on a transport error as the
// reference's practice client does (the llm stack below already retries and
// backs off, so no extra sleep). A cancelled context ends the build.
func (r *roundRunner) call(ctx context.Context, rec *Round, stage, prompt string, h PraMemStage) (*Call, error) {
	req := llm.Request{
		Purpose:  Purpose(stage),
		Messages: []llm.Message{{Role: "user", Content: prompt}},
		Params:   r.m.cfg.stageParams[stage],
		SampleID: "pramem/" + r.m.cfg.ns + "/" + r.user + "/" + strconv.Itoa(rec.Round) + "/" + stage,
		Affinity: r.user,
		Hint:     h,
	}
	var last error
	for a := range practiceAttempts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		resp, err := r.env.Builder().Generate(ctx, req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			last = fmt.Errorf("%s attempt %d: %w", req.SampleID, a, err)
			continue
		}
		rec.Calls++
		rec.Usage = rec.Usage.Add(resp.Usage)
		text := resp.Text
		if r.m.cfg.sourceParsers {
			// The release's practice client returns message.content as
			// it came, reasoning blocks included, to its parsers.
			text = resp.Reply()
		}
		return &Call{Prompt: prompt, Response: text}, nil
	}
	return nil, fmt.Errorf("%w: %w", errCallFailed, last)
}

// run plays round i on item it starting from mem. It returns the round
// record (its After is the memory to continue from) or an error when the
// context ends; a failed call is recorded in the round, not returned.
func (r *roundRunner) run(ctx context.Context, i int, it practiceItem, mem ExpMemory) (Round, error) {
	rec := Round{Round: i, PracticeIdx: it.idx, Before: mem.Clone()}
	cur := mem.Clone()
	err := r.play(ctx, &rec, it, &cur)
	if err != nil {
		if !errors.Is(err, errCallFailed) {
			return Round{}, err
		}
		rec.Error = err.Error()
		rec.Events = append(rec.Events, EvRoundError)
	}
	rec.After = cur.normalize()
	return rec, nil
}

func (r *roundRunner) play(ctx context.Context, rec *Round, it practiceItem, cur *ExpMemory) error {
	cfg := r.m.cfg
	memText, err := r.sp.render(*cur, SectionsBoth, false)
	if err != nil {
		return err
	}
	task := it.task()

	// 1. Trial.
	name := "trial"
	if cfg.noTrial {
		name = "trial_direct"
	}
	prompt, err := r.sp.exec(name, struct{ Input, Memory string }{it.input, memText})
	if err != nil {
		return err
	}
	trial, err := r.call(ctx, rec, "trial", prompt, PraMemTrial{Task: task, Memory: plainEntries(memText), Direct: cfg.noTrial})
	if err != nil {
		return err
	}
	rec.Predict = trial

	// 2. Reflection.
	name = "reflect"
	if cfg.noReflection {
		name = "reflect_direct"
	}
	prompt, err = r.sp.exec(name, struct {
		Memory, Input, Trial, Label string
		N                           int
	}{memText, it.input, trial.Response, it.label, cfg.n})
	if err != nil {
		return err
	}
	refl, err := r.call(ctx, rec, "reflect", prompt, PraMemReflect{
		Task: task, Trial: trial.Response, Label: it.truth(), Memory: plainEntries(memText), N: cfg.n, Direct: cfg.noReflection,
	})
	if err != nil {
		return err
	}
	rec.Reflect = refl
	props := r.parseProposals(refl.Response)
	rec.NewProposals = props

	// 3. Self-review of the new proposals, then into the pool.
	if len(props) == 0 {
		rec.Events = append(rec.Events, EvNoProposals)
	} else {
		v := &Verify{Before: props}
		rec.Verify = v
		survivors := props
		if !cfg.noGeneralization {
			if survivors, err = r.check1(ctx, rec, it, survivors); err != nil {
				return err
			}
		}
		if !cfg.noGroundedness && len(survivors) > 0 {
			if survivors, err = r.check2(ctx, rec, it, survivors); err != nil {
				return err
			}
		}
		v.Verified = survivors
		v.Passed, v.Rejected = len(survivors), len(props)-len(survivors)
		if cfg.noConsensus {
			adopt(cur, survivors)
			if len(survivors) > 0 {
				rec.Events = append(rec.Events, EvDirectAdoption)
			}
		} else {
			cur.Proposal = append(cur.Proposal, survivors...)
		}
		v.PoolAfter = append([]string{}, cur.Proposal...)
	}

	// 4. Consensual adjustment every T rounds and on the last round.
	if cfg.noConsensus || !((rec.Round+1)%cfg.t == 0 || rec.Round == r.total-1) {
		return nil
	}
	rec.ReviewTriggered = true
	return r.review(ctx, rec, cur)
}

// check1 is the generalizability review: virtual scenes, then the judge.
func (r *roundRunner) check1(ctx context.Context, rec *Round, it practiceItem, props []string) ([]string, error) {
	cfg := r.m.cfg
	c := &Check{}
	rec.Verify.Check1 = c
	real := realScene(it.input, r.sp.marker("marker_scene"), detailLimit)
	if real == "" {
		// No current scene in the input (a text-question target): the
		// release skips the check and every proposal passes.
		c.Skipped = EvSceneNotFound + ": all pass"
		rec.Events = append(rec.Events, EvSceneNotFound)
		return props, nil
	}
	prompt, err := r.sp.exec("scenes", struct {
		RealText string
		M        int
	}{real, cfg.m})
	if err != nil {
		return nil, err
	}
	gen, err := r.call(ctx, rec, "scenes", prompt, PraMemScenes{RealText: real, Real: predict.HintEvent(it.target, false), M: cfg.m})
	if err != nil {
		return nil, err
	}
	c.Generate = gen
	scenes, ok := r.parseScenes(gen.Response, cfg.m)
	if !ok {
		c.Skipped = EvScenesUnparsable + ": all pass"
		rec.Events = append(rec.Events, EvScenesUnparsable)
		return props, nil
	}
	c.Scenes = scenes
	options := append([]string{real}, scenes...)
	var ob strings.Builder
	for i, o := range options {
		fmt.Fprintf(&ob, "%c. %s\n", 'A'+i, o)
	}
	prompt, err = r.sp.exec("generalize", struct{ Options, Proposals string }{ob.String(), numbered(props, 0)})
	if err != nil {
		return nil, err
	}
	jc, err := r.call(ctx, rec, "generalize", prompt, PraMemGeneralize{Options: options, Proposals: props})
	if err != nil {
		return nil, err
	}
	c.Judge = jc
	j := r.parseGeneralization(jc.Response, len(props))
	if !j.Parsed {
		rec.Events = append(rec.Events, EvGeneralizeBad)
	}
	for range j.Defaulted {
		rec.Events = append(rec.Events, EvGeneralizeDefault)
	}
	c.Pass = j.Pass
	return keep(props, j.Pass), nil
}

// check2 is the groundedness review: a perturbation plan, then the judge.
func (r *roundRunner) check2(ctx context.Context, rec *Round, it practiceItem, props []string) ([]string, error) {
	cfg := r.m.cfg
	c := &Check{}
	rec.Verify.Check2 = c
	hist := historyText(it.input, r.sp.marker("marker_history"), r.sp.marker("marker_details"), r.sp.marker("marker_task"), detailLimit, cfg.noopGrounding)
	if hist == "" {
		c.Skipped = EvHistoryNotFound + ": all pass"
		rec.Events = append(rec.Events, EvHistoryNotFound)
		return props, nil
	}
	visible := it.task().Visible
	prompt, err := r.sp.exec("perturb", struct {
		History string
		N       int
	}{hist, perturbations})
	if err != nil {
		return nil, err
	}
	gen, err := r.call(ctx, rec, "perturb", prompt, PraMemPerturb{History: visible, N: perturbations})
	if err != nil {
		return nil, err
	}
	c.Generate = gen
	plans, ok := r.parsePerturbations(gen.Response)
	if !ok {
		c.Skipped = EvPerturbUnparsable + ": all pass"
		rec.Events = append(rec.Events, EvPerturbUnparsable)
		return props, nil
	}
	plan := plans[0]
	c.Plan = &plan
	prompt, err = r.sp.exec("perturb_judge", struct{ History, Desc, Details, Proposals string }{hist, plan.Desc, plan.Details, numbered(props, 0)})
	if err != nil {
		return nil, err
	}
	jc, err := r.call(ctx, rec, "perturb_judge", prompt, PraMemPerturbJudge{History: visible, Desc: plan.Desc, Details: plan.Details, Proposals: props})
	if err != nil {
		return nil, err
	}
	c.Judge = jc
	j := r.parsePerturbationJudge(jc.Response, len(props))
	if !j.Parsed {
		rec.Events = append(rec.Events, EvJudgeBad)
	}
	for range j.Defaulted {
		rec.Events = append(rec.Events, EvJudgeDefault)
	}
	c.Pass = j.Pass
	return keep(props, j.Pass), nil
}

// perturbations is the reference's num_perturbations (only the first plan
// is used).
const perturbations = 1

// review asks for the whole new memory; an unparsable answer keeps the old
// memory, pool included.
func (r *roundRunner) review(ctx context.Context, rec *Round, cur *ExpMemory) error {
	memText, err := r.sp.render(*cur, SectionsBoth, false)
	if err != nil {
		return err
	}
	pool := "(none)"
	if len(cur.Proposal) > 0 {
		pool = numbered(cur.Proposal, 1)
	}
	prompt, err := r.sp.exec("review", struct {
		Memory, Pool string
		Support      int
	}{memText, pool, r.m.cfg.support})
	if err != nil {
		return err
	}
	before := cur.Clone()
	c, err := r.call(ctx, rec, "review", prompt, PraMemReview{
		UserExp: before.UserExp, ModelExp: before.ModelExp, Proposal: before.Proposal, Support: r.m.cfg.support,
	})
	if err != nil {
		return err
	}
	rv := &Review{Call: *c, Before: before}
	rec.Review = rv
	if m, ok := r.parseReview(c.Response); ok {
		*cur = m
		rv.Accepted = true
	} else {
		rec.Events = append(rec.Events, EvReviewUnparsable)
	}
	rv.After = cur.Clone()
	return nil
}

// numbered lists items one per line as "<k>. item", k from start.
func numbered(items []string, start int) string {
	var b strings.Builder
	for i, s := range items {
		fmt.Fprintf(&b, "%d. %s\n", start+i, s)
	}
	return strings.TrimRight(b.String(), "\n")
}

func keep(props []string, pass []bool) []string {
	out := []string{}
	for i, p := range props {
		if pass[i] {
			out = append(out, p)
		}
	}
	return out
}

// adopt is the no_consensus ablation: each verified proposal goes straight
// into user_exp or model_exp by its type tag (calibration types into
// model_exp, everything else into user_exp), as its content field; the pool
// is emptied.
func adopt(m *ExpMemory, props []string) {
	for _, p := range props {
		kind, content := splitProposal(p)
		if isCalibration(kind) {
			m.ModelExp = append(m.ModelExp, content)
		} else {
			m.UserExp = append(m.UserExp, content)
		}
	}
	m.Proposal = []string{}
}

// splitProposal returns the type and content fields of
// "<scene> | <type> | <content>"; a proposal without pipes is all content.
func splitProposal(p string) (kind, content string) {
	parts := strings.SplitN(p, "|", 3)
	switch len(parts) {
	case 3:
		return strings.TrimSpace(parts[1]), strings.TrimSpace(parts[2])
	case 2:
		return strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	}
	return "", strings.TrimSpace(p)
}

func isCalibration(kind string) bool {
	k := strings.ToLower(kind)
	return strings.Contains(k, "calibration") || strings.Contains(k, "bias") ||
		strings.Contains(kind, "校准") || strings.Contains(kind, "偏差")
}

// The practice reply parsers: the release's readings under parser
// "source" (parse_source.go), else our own.
func (r *roundRunner) parseProposals(resp string) []string {
	if r.m.cfg.sourceParsers {
		return ParseProposalsSource(resp)
	}
	return ParseProposals(resp)
}

func (r *roundRunner) parseScenes(resp string, m int) ([]string, bool) {
	if r.m.cfg.sourceParsers {
		return ParseScenesSource(resp, m)
	}
	return ParseScenes(resp, m)
}

func (r *roundRunner) parseGeneralization(resp string, n int) Judgement {
	if r.m.cfg.sourceParsers {
		return ParseGeneralizationSource(resp, n)
	}
	return ParseGeneralization(resp, n)
}

func (r *roundRunner) parsePerturbations(resp string) ([]Perturbation, bool) {
	if r.m.cfg.sourceParsers {
		return ParsePerturbationsSource(resp)
	}
	return ParsePerturbations(resp)
}

func (r *roundRunner) parsePerturbationJudge(resp string, n int) Judgement {
	if r.m.cfg.sourceParsers {
		return ParsePerturbationJudgeSource(resp, n)
	}
	return ParsePerturbationJudge(resp, n)
}

func (r *roundRunner) parseReview(resp string) (ExpMemory, bool) {
	if r.m.cfg.sourceParsers {
		return ParseReviewSource(resp)
	}
	return ParseReview(resp)
}
