package miniwob

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// agentError is a failure caused by the agent's action (no such element, bad
// xpath); it becomes an invalid-action observation, not an env error.
type agentError struct{ msg string }

func (e *agentError) Error() string { return e.msg }

// maxTypeRunes bounds one agent.type call.
const maxTypeRunes = 2000

type located struct {
	Error string  `json:"error"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Tag   string  `json:"tag"`
}

// exec performs one agent call through CDP input events.
func (e *Episode) exec(ctx context.Context, a Action) error {
	what := string(a.Kind)
	switch a.Kind {
	case ClickXPath, MoveMouse:
		return e.pointAt(ctx, a)
	case ClickOption:
		var res string
		err := e.within(ctx, e.suite.cfg.ActionTimeout, what, func(c context.Context) error {
			var err error
			res, err = chromedp.Run(c, callJS[string](jsSelectOption, a.Arg))
			return err
		})
		switch {
		case err != nil:
			return err
		case res == "click":
			return e.pointAt(ctx, Action{Kind: ClickXPath, Arg: a.Arg})
		case res != "":
			return &agentError{res}
		}
		return nil
	case TypeText:
		if n := len([]rune(a.Arg)); n > maxTypeRunes {
			return &agentError{fmt.Sprintf("text of %d characters (limit %d)", n, maxTypeRunes)}
		}
		return e.within(ctx, e.suite.cfg.ActionTimeout, what, func(c context.Context) error {
			return chromedp.Do(c, chromedp.KeyEvent(a.Arg))
		})
	case Press:
		ks, err := parseKey(a.Arg)
		if err != nil {
			return &agentError{err.Error()}
		}
		return e.within(ctx, e.suite.cfg.ActionTimeout, what, func(c context.Context) error {
			return chromedp.Do(c, pressKey(ks))
		})
	}
	return &agentError{"unknown action " + what}
}

// pointAt clicks (or hovers) the centre of the element an xpath names.
func (e *Episode) pointAt(ctx context.Context, a Action) error {
	var loc located
	err := e.within(ctx, e.suite.cfg.ActionTimeout, string(a.Kind), func(c context.Context) error {
		var err error
		loc, err = chromedp.Run(c, callJS[located](jsLocate, a.Arg))
		return err
	})
	if err != nil {
		return err
	}
	if loc.Error != "" {
		return &agentError{loc.Error}
	}
	return e.within(ctx, e.suite.cfg.ActionTimeout, string(a.Kind), func(c context.Context) error {
		move := chromedp.MouseEvent(chromedp.MouseMoved, loc.X, loc.Y)
		if a.Kind == MoveMouse {
			return chromedp.Do(c, move)
		}
		return chromedp.Do(c, move, chromedp.MouseClickXY(loc.X, loc.Y))
	})
}

// pressKey sends one key with modifiers; Ctrl shortcuts carry their editing
// command and no char event.
func pressKey(ks keySpec) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, p := range kb.Encode(ks.key) {
			p.Modifiers |= int64(ks.mods)
			if p.Type == kb.KeyChar && ks.mods&^kb.ModifierShift != 0 {
				continue
			}
			if p.Type == kb.KeyDown || p.Type == kb.KeyRawDown {
				p.Commands = ks.commands
			}
			if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, *p); err != nil {
				return err
			}
		}
		return nil
	})
}
