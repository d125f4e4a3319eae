package miniwob

import (
	"strings"
	"testing"
)

func TestParseActions(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string // Action.String() of each
	}{
		{"single", `agent.click_xpath("//button[text()='Go']")`, []string{`agent.click_xpath("//button[text()='Go']")`}},
		{"single quotes", `agent.type('it\'s')`, []string{`agent.type("it's")`}},
		{"keyword arg", `agent.press(key="enter")`, []string{`agent.press("enter")`}},
		{"fenced with comments", "Thought: easy.\n```python\n# click it\nagent.click_xpath(\"//*[@id='a']\")  # trailing # comment\nagent.type(\"x#y\")\n```\nDone.",
			[]string{`agent.click_xpath("//*[@id='a']")`, `agent.type("x#y")`}},
		{"fence glued to comment", "```# Select\nagent.press(\"space\")```", []string{`agent.press("space")`}},
		{"loop", "for _ in range(3):\n    agent.click_xpath(\"//*[@title='Prev']\")\nagent.click_xpath(\"//a[text()='5']\")",
			[]string{`agent.click_xpath("//*[@title='Prev']")`, `agent.click_xpath("//*[@title='Prev']")`, `agent.click_xpath("//*[@title='Prev']")`, `agent.click_xpath("//a[text()='5']")`}},
		{"inline loop", "for i in range(2): agent.press('arrowdown')", []string{`agent.press("arrowdown")`, `agent.press("arrowdown")`}},
		{"nested loop", "for _ in range(2):\n  for _ in range(2):\n    agent.press('a')\n  agent.press('b')",
			[]string{`agent.press("a")`, `agent.press("a")`, `agent.press("b")`, `agent.press("a")`, `agent.press("a")`, `agent.press("b")`}},
		{"zero loop", "for _ in range(0):\n    agent.press('a')\nagent.press('b')", []string{`agent.press("b")`}},
		{"escapes", `agent.type("a\nb\t\u00e9\x41")`, []string{`agent.type("a\nb\té` + `A")`}},
		{"raw string", `agent.click_xpath(r"//a[\d]")`, []string{`agent.click_xpath("//a[\\d]")`}},
		{"prose around unfenced calls", "I will click.\nagent.click_option(\"//option[2]\");\nThat's it.", []string{`agent.click_option("//option[2]")`}},
		{"modifier key", `agent.press("command+a")`, []string{`agent.press("command+a")`}},
		{"movemouse", `agent.movemouse("//div")`, []string{`agent.movemouse("//div")`}},
		{"crlf", "```\r\nagent.press(\"enter\")\r\n```", []string{`agent.press("enter")`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acts, err := ParseActions(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range acts {
				got = append(got, a.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestParseActionsErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "no agent call"},
		{"prose only", "I think we should click the button.", "no agent call"},
		{"unknown fn", `agent.execute_script("alert(1)")`, "unknown call"},
		{"no string", `agent.type(x)`, "string literal"},
		{"two args", `agent.type("a", "b")`, "exactly one string"},
		{"concat", `agent.type("a" + "b")`, "exactly one string"},
		{"unterminated", `agent.type("abc)`, "unterminated"},
		{"bad key", `agent.press("warp")`, "unknown key"},
		{"bad modifier", `agent.press("hyper+a")`, "unknown modifier"},
		{"fenced python", "```\nimport os\n```", "line 1: unsupported statement"},
		{"fenced assignment", "```\nagent.press('a')\nx = 1\n```", "line 2: unsupported statement"},
		{"huge loop", "for _ in range(101):\n    agent.press('a')", "must be an integer"},
		{"loop expansion", "for _ in range(100):\n for _ in range(100):\n  agent.press('a')", "expands to"},
		{"deep loops", "for _ in range(1):\n for _ in range(1):\n  for _ in range(1):\n   for _ in range(1):\n    agent.press('a')", "nested deeper"},
		{"loop over list", "for x in [1,2]:\n    agent.press('a')", "range(n)"},
		{"empty loop", "for _ in range(2):\nagent.press('a')", "no body"},
		{"bad indent", "```\nagent.press('a')\n    agent.press('b')\n```", "unexpected indentation"},
		{"short hex", `agent.type("\x4")`, "escape"},
		{"too long", strings.Repeat("a", maxTextBytes+1), "limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseActions(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestParseKey(t *testing.T) {
	for _, tc := range []struct {
		in       string
		commands string
		ok       bool
	}{
		{"enter", "", true}, {"ArrowDown", "", true}, {"space", "", true}, {"a", "", true},
		{"command+a", "selectAll", true}, {"ctrl+c", "copy", true}, {"cmd+v", "paste", true}, {"shift+tab", "", true},
		{"", "", false}, {"f13", "", false}, {"+", "", false}, {"meta+", "", false},
	} {
		ks, err := parseKey(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("parseKey(%q) err = %v, want ok=%v", tc.in, err, tc.ok)
			continue
		}
		if got := strings.Join(ks.commands, ","); got != tc.commands {
			t.Errorf("parseKey(%q) commands = %q, want %q", tc.in, got, tc.commands)
		}
	}
}

func TestXPathLiteral(t *testing.T) {
	for in, want := range map[string]string{
		`plain`: `'plain'`,
		`it's`:  `"it's"`,
		`a'b"c`: `concat('a', "'", 'b"c')`,
		`'"`:    `concat('', "'", '"')`,
	} {
		if got := xpathLiteral(in); got != want {
			t.Errorf("xpathLiteral(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestSolvers(t *testing.T) {
	for _, tc := range []struct{ page, utterance, want string }{
		{"click-test", "Click the button.", `//button[@id='subbtn']`},
		{"click-button", `Click on the "Okay" button.`, `//button[text()='Okay']`},
		{"click-tab", "Click on Tab #3.", `#tabs-3`},
		{"enter-text", `Enter "Deja" into the text field and press Submit.`, `agent.type("Deja")`},
		{"enter-password", `Enter the password "Xo9" into both text fields and press submit.`, `//input[@id='verify']`},
		{"login-user", `Enter the username "kanesha" and the password "iq" into the text fields and press login.`, `agent.type("iq")`},
		{"click-checkboxes", "Select XK, 8Z, and kFTq and click Submit.", `normalize-space(.)='kFTq'`},
		{"click-checkboxes", "Select nothing and click Submit.", `agent.click_xpath("//button[@id='subbtn']")`},
	} {
		turns, err := officialSolvers[tc.page](tc.utterance)
		if err != nil {
			t.Errorf("%s: %v", tc.page, err)
			continue
		}
		if len(turns) != 1 || !strings.Contains(turns[0], tc.want) {
			t.Errorf("%s(%q) = %q, want it to contain %q", tc.page, tc.utterance, turns, tc.want)
		}
		if _, err := ParseActions(turns[0]); err != nil {
			t.Errorf("%s: gold does not parse: %v", tc.page, err)
		}
	}
	if _, err := officialSolvers["enter-text"]("no quotes here"); err == nil {
		t.Error("enter-text solver accepted an utterance without a quoted word")
	}
}

func TestTaskFromObservation(t *testing.T) {
	s := &Suite{}
	for in, want := range map[string]string{
		"Task: Click the OK button.\nObservation:\n<div id=\"wrap\"></div>": "Click the OK button.",
		"Task: Enter \"a\nb\".\nObservation:\n<p/>":                         "Enter \"a\nb\".",
		"no task line": "no task line",
	} {
		if got := s.TaskFromObservation(in); got != want {
			t.Errorf("TaskFromObservation(%q) = %q, want %q", in, got, want)
		}
	}
}
