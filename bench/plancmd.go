package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/runrecord"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/internal/prefixcache"
	"github.com/memharness/memharness/planner"
)

// PlanFile is the plan a run stores at its start, so its final line and a
// report rebuild can show planned against spent.
const PlanFile = runrecord.PlanFile

func cmdPlan(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "plan", "plan -c CONFIG [--profile P] [--set key=value ...] [--json] [--latency D] [--block N] [--cache-tokens N]",
		"Says what a run of the config will spend before it starts, without calling any endpoint:\n"+
			"per method and call purpose the calls, prompt tokens, an upper bound of completion tokens,\n"+
			"the cost under backbone.prices, the wall time at the configured concurrency, and the prompt\n"+
			"tokens a server's prefix cache could reuse (file order, the harness's order, the ideal).")
	cf := addConfigFlags(fs, "override a config key, e.g. --set dataset.max_users=2 (repeatable)")
	asJSON := fs.Bool("json", false, "print the plan as one JSON object on stdout")
	var pf family.PlanOptions
	fs.DurationVar(&pf.Latency, "latency", 2*time.Second, "assumed time of one model call, for the wall-time estimate")
	fs.IntVar(&pf.Block, "block", prefixcache.DefaultBlock, "prefix-cache block size in tokens")
	fs.IntVar(&pf.CacheTokens, "cache-tokens", 0, "prefix-cache size in tokens (0: the config's backbone.prefix_cache_tokens, else 1M)")
	fs.IntVar(&pf.Rehearse, "rehearse", family.DefaultRehearse, "users per method whose memory construction is played through on the offline sim backbone")
	fs.IntVar(&pf.RehearseTasks, "rehearse-tasks", family.DefaultRehearseTasks, "lifelong configs: test tasks per environment played through on the offline sim backbone")
	if err := cf.parse(fs, stdio, "plan", args); err != nil {
		return err
	}
	if err := checkPlanFlags(pf); err != nil {
		return err
	}
	env := stdio.env()
	cfg, err := config.Options{Getenv: stdio.Getenv, Profile: cf.profile, Known: env.Kinds.Known()}.Load(cf.path, cf.sets)
	if err != nil {
		return err
	}
	p, err := planConfig(ctx, stdio, cfg, cf.out, pf)
	if err != nil {
		return err
	}
	if *asJSON {
		b, err := json.MarshalIndent(p, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(stdio.Out, string(b))
		return err
	}
	writePlanTable(stdio.Out, p)
	return nil
}

// planConfig plans a resolved config through the family of its task.
func planConfig(ctx context.Context, stdio IO, cfg *config.Config, out string, pf family.PlanOptions) (planner.Plan, error) {
	env := stdio.env()
	f, err := env.Kinds.Family(cfg)
	if err != nil {
		return planner.Plan{}, err
	}
	return f.Plan(ctx, env, cfg, out, pf)
}

// writePlanTable prints the plan as a table, methods in config order.
func writePlanTable(w io.Writer, p planner.Plan) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "method\tpurpose\tcalls\tprompt tokens\tmax completion\tcost USD\t\n")
	row := func(m, purpose string, x planner.Purpose) {
		est := ""
		if x.Estimated {
			est = " ~"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d%s\t%d\t%s\t%s\t\n", m, purpose, x.Calls, est, x.PromptTokens, completionText(x), costText(x.CostUSD))
	}
	for _, m := range p.MethodOrder {
		mp := p.Methods[m]
		purposes := make([]string, 0, len(mp.ByPurpose))
		for k := range mp.ByPurpose {
			purposes = append(purposes, k)
		}
		sort.Strings(purposes)
		for _, k := range purposes {
			row(m, k, mp.ByPurpose[k])
		}
	}
	row("total", "", p.Purpose)
	tw.Flush()
	fmt.Fprintf(w, "wall time at concurrency %d, %.1fs per call: %s\n", p.Concurrency, p.LatencySec, (time.Duration(p.WallSec) * time.Second).String())
	pc := p.PrefixCache
	fmt.Fprintf(w, "prefix cache (%d-token blocks, %d-token cache) reusable prompt tokens of %d: ideal %d, file order %d (%s), harness order %d (%s)\n",
		pc.Block, pc.CacheTokens, pc.ModelledTokens, pc.Ideal, pc.FileOrder, share(pc.FileOrder, pc.Ideal), pc.HarnessOrder, share(pc.HarnessOrder, pc.Ideal))
	if len(pc.Unmodelled) > 0 {
		left := make([]string, len(pc.Unmodelled))
		for i, u := range pc.Unmodelled {
			left[i] = fmt.Sprintf("%s %s (%d calls)", u.Method, u.Purpose, u.Calls)
		}
		fmt.Fprintf(w, "prefix cache: calls whose prompts the plan does not know, left out of the model: %s\n", strings.Join(left, ", "))
	}
	for _, line := range p.CostLines() {
		fmt.Fprintln(w, line)
	}
	for _, e := range p.Estimates {
		fmt.Fprintf(w, "~ estimate: %s\n", e)
	}
}

func completionText(x planner.Purpose) string {
	if x.CompletionUnbounded && x.MaxCompletionTokens == 0 {
		return "unbounded"
	}
	s := fmt.Sprint(x.MaxCompletionTokens)
	if x.CompletionUnbounded {
		s += "+"
	}
	return s
}

func costText(c *float64) string {
	if c == nil {
		return "not priced"
	}
	return fmt.Sprintf("%.2f", *c)
}

// share is a of b as a percentage ("-" when b is 0).
func share(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%% of ideal", 100*float64(a)/float64(b))
}
