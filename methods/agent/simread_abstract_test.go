package agent

import (
	"testing"
)

func TestAbstractState(t *testing.T) {
	got := abstractState(StateAbstract{State: "<div id=\"wrap\">\n  <!-- note -->\n  <script>var x = 1;</script><style>p{}</style>\n  <p>Hi</p>\n</div>\n"})
	if want := `<div id="wrap"><p>Hi</p></div>`; got != want {
		t.Errorf("abstractState = %q, want %q", got, want)
	}
}

func TestInFence(t *testing.T) {
	for _, tc := range []struct{ action, fence, want string }{
		{"CLICK [3]", "", "CLICK [3]"},
		{"CLICK [3]", "`", "`CLICK [3]`"},
		{"Action: `CLICK [3]` ([a] -> CLICK)", "`", "Action: `CLICK [3]` ([a] -> CLICK)"},
		{`agent.click_xpath("//a")`, "```", "```\nagent.click_xpath(\"//a\")\n```"},
	} {
		if got := inFence(tc.action, tc.fence); got != tc.want {
			t.Errorf("inFence(%q, %q) = %q, want %q", tc.action, tc.fence, got, tc.want)
		}
	}
}
