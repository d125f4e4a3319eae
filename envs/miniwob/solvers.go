package miniwob

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

// solver turns an official page's utterance into gold model turns.
type solver func(utterance string) ([]string, error)

// officialSolvers are scripted solutions for the official MiniWoB++ pages
// whose goal can be read from the utterance alone. Other official pages have
// no oracle (Gold returns an error for them).
var officialSolvers = map[string]solver{
	"click-test":       constSolver(`agent.click_xpath("//button[@id='subbtn']")`),
	"click-test-2":     quotedButton(`(?i)click (?:on )?button ([A-Z]+)`),
	"click-button":     quotedButton(`(?i)click on the "(.+?)" button`),
	"focus-text":       constSolver(`agent.click_xpath("//input[@id='tt']")`),
	"click-tab":        solveClickTab,
	"enter-text":       solveEnterText,
	"enter-password":   solveEnterPassword,
	"login-user":       solveLogin,
	"click-checkboxes": solveCheckboxes,
	"use-spinner":      solveSpinner,
}

func constSolver(code string) solver {
	return func(string) ([]string, error) { return []string{code}, nil }
}

func quotedButton(pattern string) solver {
	re := lazyre.New(pattern)
	return func(u string) ([]string, error) {
		m := re.FindStringSubmatch(u)
		if m == nil {
			return nil, fmt.Errorf("utterance does not match %s", re)
		}
		return []string{call(ClickXPath, "//button[text()="+xpathLiteral(m[1])+"]")}, nil
	}
}

var (
	reTab      = lazyre.New(`Click on Tab #(\d+)`)
	reQuoted   = lazyre.New(`"([^"]*)"`)
	reSelect   = lazyre.New(`(?i)^Select (.*?) and click Submit\.?$`)
	reListSplt = lazyre.New(`\s*,\s*(?:and\s+)?|\s+and\s+`)
	reSpinner  = lazyre.New(`Select (-?\d+) with the spinner`)
)

func solveClickTab(u string) ([]string, error) {
	m := reTab.FindStringSubmatch(u)
	if m == nil {
		return nil, fmt.Errorf("no tab number in utterance")
	}
	return []string{call(ClickXPath, "//a[@href='#tabs-"+m[1]+"']")}, nil
}

func solveEnterText(u string) ([]string, error) {
	q := reQuoted.FindStringSubmatch(u)
	if q == nil {
		return nil, fmt.Errorf("no quoted text in utterance")
	}
	return []string{lines(
		call(ClickXPath, "//input[@id='tt']"),
		call(TypeText, q[1]),
		call(ClickXPath, "//button[@id='subbtn']"),
	)}, nil
}

func solveEnterPassword(u string) ([]string, error) {
	q := reQuoted.FindStringSubmatch(u)
	if q == nil {
		return nil, fmt.Errorf("no quoted password in utterance")
	}
	return []string{lines(
		call(ClickXPath, "//input[@id='password']"),
		call(TypeText, q[1]),
		call(ClickXPath, "//input[@id='verify']"),
		call(TypeText, q[1]),
		call(ClickXPath, "//button[@id='subbtn']"),
	)}, nil
}

func solveLogin(u string) ([]string, error) {
	q := reQuoted.FindAllStringSubmatch(u, -1)
	if len(q) < 2 {
		return nil, fmt.Errorf("want a quoted username and password")
	}
	return []string{lines(
		call(ClickXPath, "//input[@id='username']"),
		call(TypeText, q[0][1]),
		call(ClickXPath, "//input[@id='password']"),
		call(TypeText, q[1][1]),
		call(ClickXPath, "//button[@id='subbtn']"),
	)}, nil
}

func solveCheckboxes(u string) ([]string, error) {
	m := reSelect.FindStringSubmatch(strings.TrimSpace(u))
	if m == nil {
		return nil, fmt.Errorf("utterance is not 'Select ... and click Submit.'")
	}
	var out []string
	if body := strings.TrimSpace(m[1]); !strings.EqualFold(body, "nothing") {
		for _, w := range reListSplt.Split(body, -1) {
			if w = strings.TrimSpace(w); w != "" {
				out = append(out, call(ClickXPath, "//label[normalize-space(.)="+xpathLiteral(w)+"]/input"))
			}
		}
	}
	out = append(out, call(ClickXPath, "//button[@id='subbtn']"))
	return []string{lines(out...)}, nil
}

// solveSpinner clicks the jQuery UI spinner's up or down arrow |n| times
// (typing is blocked by the page) in a loop, then submits.
func solveSpinner(u string) ([]string, error) {
	m := reSpinner.FindStringSubmatch(u)
	if m == nil {
		return nil, fmt.Errorf("no spinner target in utterance")
	}
	n, _ := strconv.Atoi(m[1])
	arrow := "ui-spinner-up"
	if n < 0 {
		n, arrow = -n, "ui-spinner-down"
	}
	code := ""
	if n > 0 {
		code = fmt.Sprintf("for _ in range(%d):\n    %s\n", n, call(ClickXPath, "//a[contains(@class, '"+arrow+"')]"))
	}
	return []string{code + call(ClickXPath, "//button[@id='subbtn']")}, nil
}

// call renders one agent call with a Python string literal.
func call(k Kind, arg string) string {
	return "agent." + string(k) + "(" + strconv.Quote(arg) + ")"
}

func lines(calls ...string) string { return strings.Join(calls, "\n") }

// xpathLiteral quotes s for XPath 1.0 (which has no escapes).
func xpathLiteral(s string) string {
	switch {
	case !strings.Contains(s, "'"):
		return "'" + s + "'"
	case !strings.Contains(s, `"`):
		return `"` + s + `"`
	}
	parts := strings.Split(s, "'")
	return "concat('" + strings.Join(parts, `', "'", '`) + "')"
}
