package hint

import (
	"reflect"
	"testing"
)

func TestAdmissibleIn(t *testing.T) {
	for _, c := range []struct {
		env, obs string
		want     []string
	}{
		{"webshop", "WebShop\nInstruction:\nboots\n[Search]", nil},
		{"webshop", "[Back to Search]\n[< Prev]\ncolor [brown][[black]]\n[Buy Now]",
			[]string{"click[Back to Search]", "click[< Prev]", "click[brown]", "click[black]", "click[Buy Now]"}},
		{"alfworld", "You see a desk.\nAvailable actions: go to desk 1, look, inventory", []string{"go to desk 1", "look", "inventory"}},
		{"hotpotqa", "Paris is [the capital].", nil},
	} {
		if got := AdmissibleIn(c.env, c.obs); !reflect.DeepEqual(got, c.want) {
			t.Errorf("AdmissibleIn(%s, %q) = %q, want %q", c.env, c.obs, got, c.want)
		}
	}
}
