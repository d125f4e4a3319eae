package agent

import (
	"reflect"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/webshop"
)

func TestOfferedIn(t *testing.T) {
	shop, none := webshop.SimActing(), envs.SimActing{Env: "alfworld"}
	for _, c := range []struct {
		env  envs.SimActing
		obs  string
		want []string
	}{
		{shop, "WebShop\nInstruction:\nboots\n[Search]", nil},
		{shop, "[Back to Search]\n[< Prev]\ncolor [brown][[black]]\n[Buy Now]",
			[]string{"click[Back to Search]", "click[< Prev]", "click[brown]", "click[black]", "click[Buy Now]"}},
		{none, "You see a desk.\nAvailable actions: go to desk 1, look, inventory", []string{"go to desk 1", "look", "inventory"}},
		{none, "Paris is [the capital].", nil},
	} {
		if got := offeredIn(c.env, c.obs); !reflect.DeepEqual(got, c.want) {
			t.Errorf("offeredIn(%s, %q) = %q, want %q", c.env.Env, c.obs, got, c.want)
		}
	}
}
