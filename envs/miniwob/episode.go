package miniwob

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/memharness/memharness/envs"
)

// pageState is what jsState returns.
type pageState struct {
	Ready     bool    `json:"ready"`
	Done      bool    `json:"done"`
	Reward    float64 `json:"reward"`
	Raw       float64 `json:"raw"`
	Reason    string  `json:"reason"`
	Utterance string  `json:"utterance"`
	HTML      string  `json:"html"`
}

// Episode is one MiniWoB++ episode in its own tab.
type Episode struct {
	suite *Suite
	task  taskData
	br    *browser
	tab   context.Context
	close context.CancelFunc
	limit int

	obs   string
	turns int
	done  bool
	st    pageState

	mu     sync.Mutex
	thrown []string // uncaught page exceptions, filled by the tab listener
	closed bool
}

var _ envs.Episode = (*Episode)(nil)

// openEpisode opens a tab, loads the page and starts the seeded episode.
func (s *Suite) openEpisode(ctx context.Context, d taskData) (*Episode, error) {
	srv, br, err := s.ensure()
	if err != nil {
		return nil, err
	}
	tab, cancel := chromedp.NewContext(br.ctx)
	e := &Episode{suite: s, task: d, br: br, tab: tab, close: cancel, limit: s.TurnLimit(envs.Task{ID: taskID(d.Page, d.Seed)})}
	if err := chromedp.Listen(tab, e.onEvent); err != nil { // opens the tab
		e.Close()
		return nil, fmt.Errorf("miniwob: %s: open tab: %w", d.Page, err)
	}
	if err := e.start(ctx, srv.pageURL(d.Page)); err != nil {
		e.Close()
		return nil, fmt.Errorf("miniwob: %s seed %d: %w", d.Page, d.Seed, err)
	}
	return e, nil
}

func (e *Episode) onEvent(ev any) {
	if x, ok := ev.(*runtime.EventExceptionThrown); ok {
		e.mu.Lock()
		e.thrown = append(e.thrown, exceptionText(x.ExceptionDetails))
		e.mu.Unlock()
	}
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "unknown exception"
	}
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg = d.Exception.Description
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return fmt.Sprintf("%s (line %d)", msg, d.LineNumber+1)
}

// pageError returns the first uncaught exception the page threw, if any.
func (e *Episode) pageError() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.thrown) == 0 {
		return nil
	}
	return fmt.Errorf("page threw: %s", e.thrown[0])
}

// within runs f on the tab with a timeout, also stopping when ctx ends. A
// timeout means the page's script is stuck.
func (e *Episode) within(ctx context.Context, d time.Duration, what string, f func(context.Context) error) error {
	tctx, cancel := context.WithTimeout(e.tab, d)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	err := f(tctx)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(tctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%s: page did not respond within %s (hung script?)", what, d)
	}
	return fmt.Errorf("%s: %w", what, err)
}

func (e *Episode) start(ctx context.Context, url string) error {
	cfg := e.suite.cfg
	err := e.within(ctx, cfg.LoadTimeout, "load "+url, func(c context.Context) error {
		if err := chromedp.Do(c, chromedp.Navigate(url)); err != nil {
			return err
		}
		ok, err := chromedp.Run(c, callJS[bool](jsHasCore))
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("the page defines no core runtime or genProblem")
		}
		return nil
	})
	if err == nil {
		err = e.pageError()
	}
	if err != nil {
		return err
	}
	err = e.within(ctx, cfg.LoadTimeout, "start episode", func(c context.Context) error {
		_, err := chromedp.Run(c, callJS[bool](jsStart, e.task.Seed, cfg.EpisodeTime.Milliseconds()))
		return err
	})
	if err == nil {
		err = e.pageError()
	}
	if err != nil {
		return err
	}
	deadline := time.Now().Add(cfg.LoadTimeout)
	for {
		if err := e.refresh(ctx); err != nil {
			return err
		}
		if e.st.Ready {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("WOB_TASK_READY still false after %s", cfg.LoadTimeout)
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return err
		}
	}
	e.obs = fmt.Sprintf("Task: %s\nObservation:\n%s", e.st.Utterance, e.st.HTML)
	return nil
}

// refresh reads the page state into e.st.
func (e *Episode) refresh(ctx context.Context) error {
	err := e.within(ctx, e.suite.cfg.ActionTimeout, "read page state", func(c context.Context) error {
		st, err := chromedp.Run(c, callJS[pageState](jsState))
		e.st = st
		return err
	})
	if err == nil {
		err = e.pageError()
	}
	return err
}

// Utterance is the instruction the page generated for this episode.
func (e *Episode) Utterance() string { return e.st.Utterance }

// Observation implements envs.Episode: the utterance and the page's HTML.
func (e *Episode) Observation() string { return e.obs }

// Done implements envs.Episode.
func (e *Episode) Done() bool { return e.done }

// Score implements envs.Episode: 1 when the page gave a positive raw reward
// (Synapse's success criterion), else 0.
func (e *Episode) Score() float64 {
	if e.st.Done && e.st.Raw > 0 {
		return 1
	}
	return 0
}

// Step implements envs.Episode. One step is one model turn, which may hold
// many agent calls; they run in order and stop at the first that fails.
func (e *Episode) Step(ctx context.Context, action string) (envs.Step, error) {
	if e.done {
		return envs.Step{Observation: "The episode is over.", Done: true, Invalid: true}, nil
	}
	e.turns++
	var acts []Action
	var perr, runErr error
	if e.suite.synapseExec {
		acts, runErr, perr = ExecProgram(action)
	} else {
		acts, perr = ParseActions(action)
	}
	var agentErr error
	if perr == nil {
		for i, a := range acts {
			err := e.exec(ctx, a)
			var ae *agentError
			if errors.As(err, &ae) {
				agentErr = fmt.Errorf("action %d (%s): %s", i+1, clip(a.String(), 120), ae.msg)
				break
			}
			if err != nil {
				return e.fail(err)
			}
			if err := e.refresh(ctx); err != nil {
				return e.fail(err)
			}
			if e.st.Done {
				break
			}
		}
		if agentErr == nil && runErr != nil && !e.st.Done {
			// The statement that raised in Synapse's exec: the calls
			// before it ran, the rest did not.
			agentErr = runErr
		}
	}
	settle := e.settle
	if perr != nil { // nothing ran: one read is enough
		settle = e.refresh
	}
	if err := settle(ctx); err != nil {
		return e.fail(err)
	}
	step := envs.Step{Info: map[string]any{"raw_reward": e.st.Raw, "reason": e.st.Reason, "turn": e.turns}}
	switch {
	case e.st.Done:
		e.done = true
		step.Reward = e.st.Reward
		step.Observation = fmt.Sprintf("The episode ended with reward %.3f (raw %.3f)%s.", e.st.Reward, e.st.Raw, reasonSuffix(e.st.Reason))
	case perr != nil && e.suite.synapseExec:
		// run_miniwob.py logs the failed exec and asks again on the
		// page as it stands: the next prompt shows the state.
		step.Invalid = true
		step.Observation = "Action failed: " + perr.Error() + "\nObservation:\n" + e.st.HTML
	case perr != nil:
		step.Invalid = true
		step.Observation = "Invalid action: " + perr.Error()
	case agentErr != nil:
		step.Invalid = true
		step.Observation = "Action failed: " + agentErr.Error() + "\nObservation:\n" + e.st.HTML
	default:
		step.Observation = "Observation:\n" + e.st.HTML
	}
	if !e.done && e.turns >= e.limit {
		e.done = true
		step.Observation += fmt.Sprintf("\nThe episode ended: the turn limit of %d was reached.", e.limit)
	}
	step.Done = e.done
	return step, nil
}

// settle gives the page a moment to finish what the last action started
// (animations, delayed rewards) before the state is read.
func (e *Episode) settle(ctx context.Context) error {
	for range 4 {
		if err := e.refresh(ctx); err != nil {
			return err
		}
		if e.st.Done {
			return nil
		}
		if err := sleep(ctx, 25*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

// fail ends the episode on an environment failure (hung or throwing page,
// dead browser) and frees the tab.
func (e *Episode) fail(err error) (envs.Step, error) {
	e.done = true
	e.st = pageState{}
	_ = e.Close()
	return envs.Step{}, fmt.Errorf("miniwob: %s seed %d: %w", e.task.Page, e.task.Seed, err)
}

func reasonSuffix(r string) string {
	if r == "" {
		return ""
	}
	return ": " + r
}

// Close implements envs.Episode: it closes the tab. When the tab does not
// close (a renderer stuck in a loop), the shared browser is replaced.
func (e *Episode) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	e.mu.Unlock()
	done := make(chan struct{})
	go func() {
		_ = chromedp.Cancel(e.tab) // closes the tab and waits for it
		e.close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(min(e.suite.cfg.ActionTimeout, 5*time.Second)):
		e.suite.dropBrowser(e.br)
		<-done
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
