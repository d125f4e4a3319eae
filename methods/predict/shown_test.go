package predict

import (
	"reflect"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
)

func TestShownAttrs(t *testing.T) {
	e := behavior.Event{
		Context: "商品：不粘锅，价格 89.9 元，编号 77",
		Attrs:   map[string]string{"product_id": "150478033107", "item_id": "77", "price_band": "50-100", "category": "厨具"},
	}
	got := ShownAttrs(e)
	want := map[string]string{"item_id": "77", "price_band": "50-100", "category": "厨具"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ShownAttrs = %v, want %v (an ID the text does not show is dropped; shown IDs and derived bands stay)", got, want)
	}
	if e.Attrs["product_id"] == "" {
		t.Error("ShownAttrs modified the event's attributes")
	}
}
