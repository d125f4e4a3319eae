"""Run the release's practice reply parsers on our corpus (our script).

Usage (first `go test ./methods/pramem -run TestPracticeParserParity -update`,
which writes the corpus from its generator):
  python3 practice_parsers_capture.py --release CHECKOUT \
      --corpus methods/pramem/testdata/parsers/practice.inputs.jsonl \
      --out methods/pramem/testdata/parsers/practice.source.jsonl

Each reply goes through the release's own SelfPractice method (an instance
built without __init__, call_llm returning the reply): proposals through
step_reflect_and_extract, scenes through generate_virtual_scenes, the
verdicts on three proposals through check_generalization_batch and
check_perturbation_sensitivity_batch, the plans through
generate_perturbations, the memory through
parse_reviewed_memory (null when it keeps the old memory; each section as
the release lists it next, str() of every element). Only what the release
took from each reply is written.
"""
import argparse
import contextlib
import io
import json
import os
import sys
import tempfile

STUBS = {
    "openai.py": "class OpenAI:\n    def __init__(self, **kw): pass\n",
    "tqdm.py": "def tqdm(x=None, *a, **k): return x\ndef trange(*a, **k): return range(*a)\n",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    stubs = tempfile.mkdtemp(prefix="practice-parsers-")
    for name, text in STUBS.items():
        with open(os.path.join(stubs, name), "w") as f:
            f.write(text)
    sys.path[:0] = [stubs, args.release]
    import z_5_practice_with_self_check as z5

    sp = object.__new__(z5.SelfPractice)
    sp.num_virtual_scenes, sp.choices_per_question, sp.num_perturbations = 7, 8, 1
    with open(args.corpus, encoding="utf-8") as f:
        rows = [json.loads(l) for l in f]
    props = ["p0", "p1", "p2"]
    with open(args.out, "w", encoding="utf-8") as out:
        for r in rows:
            sp.call_llm = lambda prompt, reply=r["reply"]: reply
            res = {}
            with contextlib.redirect_stdout(io.StringIO()):
                if r["parser"] == "proposals":
                    item = {"simulated_input": "in", "simulated_label": "label"}
                    mem = {"user_exp": [], "model_exp": [], "proposal": []}
                    res["proposals"] = sp.step_reflect_and_extract(item, mem, "trial")[2]
                elif r["parser"] == "scenes":
                    res["scenes"] = sp.generate_virtual_scenes("real")
                elif r["parser"] == "generalize":
                    res["pass"] = sp.check_generalization_batch(props, "real", ["v"] * 7)[0]
                elif r["parser"] == "judge":
                    res["pass"] = sp.check_perturbation_sensitivity_batch(props, "d", "x", "h")[0]
                elif r["parser"] == "perturb":
                    res["plans"] = [[str(p["perturbation_desc"]), str(p["perturbation_details"])] for p in sp.generate_perturbations("h")]
                elif r["parser"] == "review":
                    old = {"user_exp": [], "model_exp": [], "proposal": []}
                    got = sp.parse_reviewed_memory(r["reply"], old)
                    if got is old:
                        res["memory"] = None
                    else:
                        # What the release lists of each section next.
                        try:
                            res["memory"] = {k: [str(e) for e in list(got[k])] for k in ("user_exp", "model_exp", "proposal")}
                        except Exception:
                            res["memory"] = "unmodelled"
            out.write(json.dumps(res, ensure_ascii=False) + "\n")
    print(len(rows))


if __name__ == "__main__":
    main()
