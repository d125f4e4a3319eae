package omnibehavior

import (
	"slices"
	"strings"
)

// Attrs returns structured context attributes of a record for retrieval
// keys and the sim backbone (multi-valued attributes '|'-separated). They
// come from the context only, never from the acts, so a target's Attrs
// never reveal its labels.
//
//	video: fans_range, verified, verification_type, photo_type, duration_band, hashtag
//	live:  live_category, live_game_name, shop_live, items
//	ad:    product, industry (main|sub), photo_type, fans_range
//	shop:  product_id, product_source, category (l1|l2|l3), industry (l1|l2|l3), price_band
//	customer service: ticket_category, product_category, product_name
func Attrs(r *Record) map[string]string {
	c := r.Context
	a := attrs{}
	switch r.Scene {
	case SceneVideo:
		if v := c.V("fans_user_num_range"); truthy(v) {
			a.set("fans_range", pyStr(v))
		} else if n, ok := positive(c, "fans_user_num"); ok {
			a.set("fans_range", fansBand(n.float()))
		}
		if v, ok := c.Get("is_verified"); ok && v.Kind() != KindNull {
			a.set("verified", boolText(truthy(v)))
		}
		a.str(c, "verification_type", "verification_type")
		a.str(c, "photo_type", "photo_type")
		if d, ok := secondsOf(c.V("duration")); ok && d.float() > 0 {
			a.set("duration_band", durationBand(d.float()))
		}
		// Hashtags are the caption's own topic labels (the rest of a caption
		// is free text, which no attribute can hold).
		if v := c.V("caption"); v.Kind() == KindString {
			a.set("hashtag", joinAttr(hashtags(pyStr(v))))
		}
	case SceneLive:
		a.str(c, "live_category", "live_category")
		a.str(c, "live_game_name", "live_game_name")
		if v, ok := c.Get("is_shop_live"); ok && v.Kind() != KindNull {
			a.set("shop_live", boolText(truthy(v)))
		}
		if items := c.V("items"); items.Kind() == KindArray {
			var titles []string
			for _, it := range items.Elems() {
				if t := it.Val.Fields().V("title"); truthy(t) {
					titles = append(titles, pyStr(t))
				}
			}
			a.set("items", joinAttr(titles))
		}
	case SceneAd:
		a.str(c, "product", "product")
		a.set("industry", joinAttr(joinTruthy(c, "industry_main", "industry_sub")))
		a.str(c, "photo_type", "photo_type")
		a.str(c, "fans_user_num_op_range", "fans_range")
	case SceneShop:
		a.str(c, "product_id", "product_id")
		a.str(c, "product_source", "product_source")
		a.set("category", joinAttr(joinTruthy(c, "category_level1_name", "category_level2_name", "category_level3_name")))
		a.set("industry", joinAttr(joinTruthy(c, "industry_level1_name", "industry_level2_name", "industry_level3_name")))
		if p, ok := positive(c, "item_price"); ok {
			a.set("price_band", priceBand(p.float()))
		}
	case SceneCustomerService:
		a.str(c, "ticket_category", "ticket_category")
		a.str(c, "product_category_info", "product_category")
		a.str(c, "product_name", "product_name")
	}
	return a.m
}

type attrs struct{ m map[string]string }

func (a *attrs) set(k, v string) {
	if v == "" {
		return
	}
	if a.m == nil {
		a.m = make(map[string]string, 6)
	}
	a.m[k] = v
}

func (a *attrs) str(c Fields, key, name string) {
	if v := c.V(key); truthy(v) {
		a.set(name, pyStr(v))
	}
}

// joinAttr joins values with '|', dropping repeats and any '|' inside.
func joinAttr(vals []string) string {
	var out []string
	for _, v := range vals {
		v = strings.ReplaceAll(v, "|", "/")
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return strings.Join(out, "|")
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func fansBand(n float64) string {
	switch {
	case n < 1e4:
		return "<1w"
	case n < 1e5:
		return "1w-10w"
	case n < 1e6:
		return "10w-100w"
	case n < 5e6:
		return "100w-500w"
	}
	return "500w+"
}

func durationBand(s float64) string {
	switch {
	case s < 15:
		return "<15s"
	case s < 60:
		return "15-60s"
	case s < 180:
		return "1-3min"
	case s < 600:
		return "3-10min"
	}
	return "10min+"
}

func priceBand(p float64) string {
	switch {
	case p < 20:
		return "<20"
	case p < 50:
		return "20-50"
	case p < 100:
		return "50-100"
	case p < 300:
		return "100-300"
	case p < 1000:
		return "300-1000"
	}
	return "1000+"
}

// hashtags returns the #tags of a caption in order, without duplicates.
func hashtags(caption string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(caption, func(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == '，' || r == ',' }) {
		if !strings.HasPrefix(f, "#") {
			continue
		}
		tag := strings.TrimLeft(f, "#")
		if i := strings.IndexRune(tag, '#'); i >= 0 {
			tag = tag[:i]
		}
		if tag != "" && !slices.Contains(out, tag) {
			out = append(out, tag)
		}
	}
	return out
}
