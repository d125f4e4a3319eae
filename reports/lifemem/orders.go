package lifemem

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/render"
)

// lmOrderKey is one method on one backbone model across the orders.
type lmOrderKey struct{ method, model string }

// lmOrders is the order study's data: each method's OP and BwT in each
// order, the orders in sweep order.
type lmOrders struct {
	labels []string // order labels ("similarity", "random #2")
	runs   map[string]string
	// streams are the orders' stream kinds, by label.
	streams map[string]string
	keys    []lmOrderKey
	op      map[lmOrderKey]map[string]float64
	bwt     map[lmOrderKey]map[string]float64
	models  []string
}

// gatherOrders collects the runs that are orders of one config
// (lifelong.orders above 1 or lifelong.named_orders); nil without any.
func gatherOrders(runs []*lmRun) (*lmOrders, error) {
	o := &lmOrders{runs: map[string]string{}, streams: map[string]string{}, op: map[lmOrderKey]map[string]float64{}, bwt: map[lmOrderKey]map[string]float64{}}
	for _, r := range runs {
		if !r.info.Config.InOrderStudy() {
			continue
		}
		lab := r.info.Config.OrderLabel()
		if !slices.Contains(o.labels, lab) {
			o.labels = append(o.labels, lab)
		}
		if !slices.Contains(o.models, r.info.Model) {
			o.models = append(o.models, r.info.Model)
		}
		for _, m := range r.methods {
			k := lmOrderKey{m.Spec.Name, r.info.Model}
			if o.op[k] == nil {
				o.keys = append(o.keys, k)
				o.op[k], o.bwt[k] = map[string]float64{}, map[string]float64{}
			}
			if _, dup := o.op[k][lab]; dup {
				return nil, fmt.Errorf("method %s (model %s) has two runs of order %s: %s and %s", k.method, k.model, lab, o.runs[lab], lmRunLabel(r))
			}
			o.op[k][lab], o.bwt[k][lab] = lmAvgOP(m), metrics.BwT(m.Matrix).Value
		}
		o.runs[lab] = lmRunLabel(r)
		o.streams[lab] = render.OrDefault(r.info.Config.Stream, "similarity")
	}
	if len(o.labels) == 0 {
		return nil, nil
	}
	return o, nil
}

func (o *lmOrders) values(vals map[string]float64) []float64 {
	out := make([]float64, len(o.labels))
	for i, l := range o.labels {
		out[i] = lmLookup(vals, l)
	}
	return out
}

// lmRanking is whether the orders rank one model's methods alike.
type lmRanking struct {
	methods []string
	// orders are the orders ranked: those where every method has a value
	// (BwT has none in a random or buffer order).
	orders []string
	same   bool
	w      float64
	// why is set when no ranking is defined, and says why.
	why string
}

// ranking ranks model's methods by metric (o.op or o.bwt) in every order
// that gives each of them a value.
func (o *lmOrders) ranking(model string, metric map[lmOrderKey]map[string]float64) lmRanking {
	rk := lmRanking{w: math.NaN()}
	var keys []lmOrderKey
	for _, k := range o.keys {
		if k.model == model {
			keys = append(keys, k)
			rk.methods = append(rk.methods, k.method)
		}
	}
	var scores [][]float64
	for _, l := range o.labels {
		var row []float64
		for _, k := range keys {
			row = append(row, lmLookup(metric[k], l))
		}
		if !slices.ContainsFunc(row, math.IsNaN) {
			scores = append(scores, row)
			rk.orders = append(rk.orders, l)
		}
	}
	if len(scores) == 0 {
		rk.why = "no order gives every method a value"
		return rk
	}
	var err error
	if rk.same, err = metrics.SameRanking(scores); err == nil {
		rk.w, err = metrics.KendallW(scores)
	}
	if err != nil {
		rk.why, rk.w = err.Error(), math.NaN()
	}
	return rk
}

// text says a ranking in a table note; all is the number of orders.
func (rk lmRanking) text(metric string, all int) string {
	over := fmt.Sprintf("the %d orders", len(rk.orders))
	if len(rk.orders) < all {
		over = fmt.Sprintf("the %d of %d orders that give every method a value (%s)", len(rk.orders), all, strings.Join(rk.orders, ", "))
	}
	switch {
	case rk.why != "":
		return fmt.Sprintf("Ranking by %s: undefined (%s).", metric, rk.why)
	case len(rk.methods) < 2:
		return fmt.Sprintf("Ranking by %s: one method, nothing to rank.", metric)
	case len(rk.orders) == 1:
		return fmt.Sprintf("Ranking by %s: only %s, nothing to compare.", metric, over)
	case rk.same:
		return fmt.Sprintf("Ranking by %s: the same in all of %s (Kendall's W %s over %d methods).", metric, over, lmW(rk.w), len(rk.methods))
	}
	return fmt.Sprintf("Ranking by %s: differs between %s; Kendall's W %s over %d methods (1 = every order ranks them alike, 0 = no agreement).", metric, over, lmW(rk.w), len(rk.methods))
}

func lmW(w float64) string {
	if math.IsNaN(w) {
		return "undefined (every order ties every method)"
	}
	return strconv.FormatFloat(w, 'f', 3, 64)
}

func lmCSVBool(rk lmRanking) string {
	if rk.why != "" {
		return ""
	}
	return strconv.FormatBool(rk.same)
}

// lmRange is "min–max" of a spread, "–" when undefined.
func lmRange(s metrics.Spread) string {
	if s.N == 0 {
		return "–"
	}
	return lmF2(s.Min) + "–" + lmF2(s.Max)
}

// lmWriteOrders is the stream-order study: per method (and backbone
// model), OP and BwT under each order of the stream and their mean, SD
// and min–max across the orders; whether every order ranks the methods
// alike (with Kendall's W); and a figure of the spread. It reads the runs
// of a sweep that are orders of one config (lifelong.orders,
// lifelong.named_orders) and writes nothing for a sweep without them.
func lmWriteOrders(dir string, runs []*lmRun) ([]render.Artefact, error) {
	o, err := gatherOrders(runs)
	if err != nil || o == nil {
		return nil, err
	}
	k := len(o.labels)
	backbones := lmBackbones(runs)
	plural := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	t := render.Table{
		Title:   fmt.Sprintf("Stream-order sensitivity — OP and BwT (%%) across %s — backbone: %s", plural(k, "order"), backbones),
		Columns: []string{"Method", "Model", "Orders", "OP mean", "OP SD", "OP min–max", "BwT mean", "BwT SD", "BwT min–max"},
	}
	per := render.Table{
		Title:   fmt.Sprintf("OP / BwT (%%) in each of the %s — backbone: %s", plural(k, "order"), backbones),
		Columns: append([]string{"Method", "Model"}, o.labels...),
	}
	rankings := map[string][2]lmRanking{}
	for _, m := range o.models {
		rankings[m] = [2]lmRanking{o.ranking(m, o.op), o.ranking(m, o.bwt)}
	}
	var rows [][]string
	kText := strconv.Itoa(k)
	for _, key := range o.keys {
		opv, bwv := o.values(o.op[key]), o.values(o.bwt[key])
		ops, bws := metrics.OrderSpread(opv), metrics.OrderSpread(bwv)
		model := render.OrDefault(key.model, "–")
		t.Rows = append(t.Rows, []string{key.method, model, strconv.Itoa(ops.N),
			lmF2(ops.Mean), lmF2(ops.SD), lmRange(ops), lmF2(bws.Mean), lmF2(bws.SD), lmRange(bws)})
		cells := []string{key.method, model}
		for i := range o.labels {
			cells = append(cells, lmF2(opv[i])+" / "+lmF2(bwv[i]))
		}
		per.Rows = append(per.Rows, cells)
		rk := rankings[key.model]
		for mi, metric := range []struct {
			name   string
			vals   []float64
			spread metrics.Spread
		}{{"op", opv, ops}, {"bwt", bwv, bws}} {
			same, w := lmCSVBool(rk[mi]), lmCSVNum(rk[mi].w)
			for i, l := range o.labels {
				one := "1"
				if math.IsNaN(metric.vals[i]) {
					one = "0"
				}
				rows = append(rows, []string{key.method, key.model, metric.name, "value", l, o.runs[l], lmCSVNum(metric.vals[i]), render.UnitPercent, kText, one, same, w})
			}
			defined := strconv.Itoa(metric.spread.N)
			for _, st := range []struct {
				name string
				v    float64
			}{{"mean", metric.spread.Mean}, {"sd", metric.spread.SD}, {"min", metric.spread.Min}, {"max", metric.spread.Max}} {
				rows = append(rows, []string{key.method, key.model, metric.name, st.name, "", "", lmCSVNum(st.v), render.UnitPercent, kText, defined, same, w})
			}
		}
	}
	var runsText []string
	for _, l := range o.labels {
		runsText = append(runsText, l+" (run "+o.runs[l]+")")
	}
	t.Notes = []string{
		fmt.Sprintf("%s of the stream, each its own run: %s. Order 1 of a stream is the stream as configured; order k ≥ 2 draws its own seed (a random or buffer stream another global shuffle, a similarity stream another order of the environments); episodes keep the run's seed in every order.", plural(k, "order"), strings.Join(runsText, "; ")),
		"OP: mean final score over every environment. BwT: mean relative change of each earlier environment's final score against its score right after it was learned. SD: sample standard deviation across the orders (n − 1); Orders: how many orders define OP.",
	}
	t.Notes = append(t.Notes, o.undefinedBwT()...)
	for _, m := range o.models {
		prefix := ""
		if len(o.models) > 1 {
			prefix = render.OrDefault(m, "–") + ": "
		}
		t.Notes = append(t.Notes, prefix+rankings[m][0].text("OP", k), prefix+rankings[m][1].text("BwT", k))
	}
	t.Caption = fmt.Sprintf("Sensitivity of OP and BwT to the order of the task stream, over %s.", plural(k, "order"))
	t.Source = "Backbone: " + backbones + "."
	per.Caption = fmt.Sprintf("OP and BwT of every method in each of the %s of the stream.", plural(k, "order"))
	per.Source = t.Source
	d := lmDoc{
		base: "lifemem_orders", prov: "backbone: " + backbones, what: fmt.Sprintf("stream-order sensitivity over %s", plural(k, "order")),
		tables:  []render.Table{t, per},
		header:  []string{"method", "run_model", "metric", "statistic", "order", "run", "value", "unit", "orders", "orders_defined", "same_ranking", "kendall_w"},
		rows:    rows,
		csvDesc: fmt.Sprintf("OP and BwT per method in each of the %s and their mean, SD, min and max, with whether every order ranks the methods alike and Kendall's W", plural(k, "order")),
	}
	fig, err := o.figure(backbones)
	if err != nil {
		return nil, fmt.Errorf("lifemem_orders.png: %w", err)
	}
	d.pngs = []lmPNG{{name: "lifemem_orders", desc: fmt.Sprintf("OP and BwT of every method in each of the %s, with the mean and min–max range", plural(k, "order")), fig: fig}}
	return d.write(dir)
}

// figure draws each method's OP (and BwT where defined) in every order as
// dots, beside the mean with its min–max range.
func (o *lmOrders) figure(backbones string) (render.FigFiles, error) {
	k := len(o.labels)
	op := render.BarPanel{Title: "OP", YLabel: "OP (%)", Dots: true}
	bwt := render.BarPanel{Title: "BwT", YLabel: "BwT (%)", Dots: true}
	for _, key := range o.keys {
		g := key.method
		if len(o.models) > 1 {
			g += "\n" + render.OrDefault(key.model, "–")
		}
		op.Groups, bwt.Groups = append(op.Groups, g), append(bwt.Groups, g)
	}
	anyBwT := false
	for _, l := range o.labels {
		so, sb := render.BarSeries{Name: l}, render.BarSeries{Name: l}
		for _, key := range o.keys {
			so.Values = append(so.Values, lmLookup(o.op[key], l))
			v := lmLookup(o.bwt[key], l)
			anyBwT = anyBwT || !math.IsNaN(v)
			sb.Values = append(sb.Values, v)
		}
		op.Series, bwt.Series = append(op.Series, so), append(bwt.Series, sb)
	}
	mean := func(metric map[lmOrderKey]map[string]float64) render.BarSeries {
		s := render.BarSeries{Name: "mean (min–max)"}
		for _, key := range o.keys {
			sp := metrics.OrderSpread(o.values(metric[key]))
			s.Values, s.Lo, s.Hi = append(s.Values, sp.Mean), append(s.Lo, sp.Min), append(s.Hi, sp.Max)
		}
		return s
	}
	op.Series, bwt.Series = append(op.Series, mean(o.op)), append(bwt.Series, mean(o.bwt))
	spec := render.FigSpec{
		Title:   fmt.Sprintf("Stream-order sensitivity over %d orders", k),
		Caption: "LifeMem lifelong protocol · backbone: " + backbones,
		Notes:   []string{fmt.Sprintf("Each dot is one of the %d orders of the stream (each its own run); the last series is the mean across them with the min–max range.", k)},
		Width:   render.TwoColumn,
	}
	panels := []render.BarPanel{op}
	if anyBwT {
		panels = append(panels, bwt)
		if undef := o.undefinedBwT(); len(undef) > 0 {
			spec.Notes = append(spec.Notes, "BwT has no dot where it is undefined: "+strings.Join(undef, " "))
		}
	} else {
		spec.Notes = append(spec.Notes, "BwT is undefined in every order (random and buffer streams evaluate once, after the full stream), so only OP is drawn.")
		spec.Width = render.OneColumn
	}
	return render.BarFigure(spec, panels, 1, false)
}

// undefinedBwT says why BwT has no value where it has none: a random or
// buffer order has no environment boundaries, and in a similarity order
// every earlier environment scored 0 right after it was learned.
func (o *lmOrders) undefinedBwT() []string {
	var mixed, zero []string
	for _, l := range o.labels {
		if o.streams[l] != "similarity" {
			mixed = append(mixed, l)
			continue
		}
		for _, key := range o.keys {
			if math.IsNaN(lmLookup(o.bwt[key], l)) {
				zero = append(zero, key.method+" in "+l)
			}
		}
	}
	var out []string
	if len(mixed) > 0 {
		out = append(out, fmt.Sprintf("BwT is undefined in %s: a random or buffer stream has no environment boundaries and evaluates every test set once, after the full stream (the paper reports OP only there); BwT's spread is over the orders that define it.", strings.Join(mixed, ", ")))
	}
	if len(zero) > 0 {
		out = append(out, fmt.Sprintf("BwT is undefined for %s: every earlier environment scored 0 right after it was learned, and BwT's relative change divides by that score.", strings.Join(zero, "; ")))
	}
	return out
}
