package dbbench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memharness/memharness/envs"
)

// episode is one task run in its own database.
type episode struct {
	cfg     Config
	entry   *Entry
	sess    session
	db      string
	dialect dialect

	steps  int
	done   bool
	score  float64
	closed bool
}

// Observation shows the protocol, then the question with the table's name
// and headers.
func (ep *episode) Observation() string {
	return Protocol(ep.cfg.MaxSteps) + "\n\n" + ep.entry.Question()
}

func (ep *episode) Done() bool { return ep.done }

// Step implements envs.Episode. Bad actions and failing SQL come back as
// Invalid steps; an action that matches neither pattern ends the episode,
// as upstream does.
func (ep *episode) Step(ctx context.Context, text string) (envs.Step, error) {
	if ep.done || ep.closed {
		return envs.Step{Observation: "The task has already ended.", Done: true, Invalid: true}, nil
	}
	ep.steps++
	act, err := ParseAction(text)
	if err != nil {
		ep.finish(ctx, "")
		return envs.Step{Observation: "Invalid action: " + err.Error() + ". The task has failed.",
			Done: true, Invalid: true, Reward: ep.score}, nil
	}
	if act.Kind == Answer {
		ep.finish(ctx, act.Final)
		return envs.Step{Observation: "Your answer has been recorded.", Done: true, Reward: ep.score,
			Info: map[string]any{"answer": act.Final}}, nil
	}
	obs, invalid, err := ep.run(ctx, act.SQL)
	if err != nil {
		return envs.Step{}, err
	}
	st := envs.Step{Observation: obs, Invalid: invalid}
	if ep.steps >= ep.cfg.MaxSteps {
		// Upstream judges a task that ran out of rounds on its default
		// output: the table fingerprint, or an empty answer.
		ep.finish(ctx, "")
		st.Done, st.Reward = true, ep.score
	}
	return st, nil
}

// run executes an Operation's statements in order and shows the last
// result, stopping at the first refusal or error. The returned error is
// set only when the harness's context ended.
func (ep *episode) run(ctx context.Context, sql string) (obs string, invalid bool, err error) {
	stmts, err := splitStatements(sql)
	if err != nil {
		return errText(err), true, nil
	}
	if len(stmts) == 0 {
		return errText(syntaxError(errors.New("empty statement"))), true, nil
	}
	var res result
	for _, stmt := range stmts {
		if res, err = ep.runOne(ctx, stmt); err != nil {
			if ctx.Err() != nil {
				return "", false, ctx.Err()
			}
			return errText(err), true, nil
		}
	}
	return ep.render(res), false, nil
}

// runOne prepares and runs one statement. Subqueries run while preparing
// (see materialize.go) share the statement's time budget, a little over
// the per-query timeout so a server's own timeout fires first.
func (ep *episode) runOne(ctx context.Context, stmt string) (result, error) {
	if r, ok := ep.sess.(restarter); ok {
		if err := r.ready(ctx); err != nil {
			return result{}, err
		}
	}
	sctx, cancel := context.WithTimeout(ctx, ep.cfg.Timeout+time.Second)
	defer cancel()
	p, err := prepare(stmt, ep.db, ep.dialect, ep.entry.columnTypes(), ep.evaluator(sctx))
	if err != nil {
		return result{}, err
	}
	res, err := ep.sess.exec(sctx, p.sql, ep.cfg.MaxRows)
	if err != nil {
		if ctx.Err() == nil && sctx.Err() != nil {
			return result{}, errTimeout()
		}
		return result{}, err
	}
	return p.finish(res), nil
}

// evaluator runs subqueries for materialisation.
func (ep *episode) evaluator(ctx context.Context) evalFunc {
	return func(sql string) (result, error) { return ep.sess.exec(ctx, sql, ep.cfg.MaxRows) }
}

func (ep *episode) render(res result) string {
	if !res.hasRows {
		return "[]"
	}
	s := renderRows(res.rows)
	note := ""
	if res.truncated {
		note = fmt.Sprintf("\n(result truncated to the first %d rows)", ep.cfg.MaxRows)
	}
	if len(s) > ep.cfg.MaxObservation {
		s = strings.ToValidUTF8(s[:ep.cfg.MaxObservation], "")
		note = fmt.Sprintf("\n(result truncated to %d bytes)", ep.cfg.MaxObservation)
	}
	return s + note
}

// errText is the observation for a failed statement.
func errText(err error) string {
	var se *sqlError
	if errors.As(err, &se) {
		return se.Error()
	}
	return err.Error()
}

// finish ends the episode and judges it: SELECT tasks on the answer,
// modifying tasks on the table's fingerprint now.
func (ep *episode) finish(ctx context.Context, answer string) {
	ep.done = true
	ep.score = ep.judge(ctx, answer)
}

func (ep *episode) judge(ctx context.Context, answer string) float64 {
	if ep.entry.IsSelect() {
		if MatchDirect(answer, ep.entry.Answer.Direct) {
			return 1
		}
		return 0
	}
	if ep.closed {
		return 0
	}
	if ctx.Err() != nil {
		ctx = context.Background()
	}
	fctx, cancel := context.WithTimeout(ctx, ep.cfg.Timeout+5*time.Second)
	defer cancel()
	got, err := fingerprint(fctx, ep.sess, ep.entry.Table)
	if err == nil && got == *ep.entry.Answer.MD5 {
		return 1
	}
	return 0
}

// Score implements envs.Episode: the final score once the episode is done;
// before that, what ending now would score (the fingerprint for modifying
// tasks, 0 for SELECT tasks, which need an answer).
func (ep *episode) Score() float64 {
	if ep.done {
		return ep.score
	}
	return ep.judge(context.Background(), "")
}

// Close drops the episode's database.
func (ep *episode) Close() error {
	if ep.closed {
		return nil
	}
	ep.closed = true
	if err := ep.sess.close(); err != nil {
		return fmt.Errorf("dbbench: close episode: %w", err)
	}
	return nil
}
