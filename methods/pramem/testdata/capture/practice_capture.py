"""Capture what the PraMem release sends in its practice stage (our script).

Usage:
  python3 practice_capture.py --release CHECKOUT --experiment EXP.json \
      --out CAPTURE.json [--user 0] [--rounds 20] [--alter]

Runs the release's own z_1 draw (single process: random.seed(42)), z_2
inputs (random.seed(1024) shuffle; an item whose input cannot be built is
skipped, as z_2's main does) and z_5 rounds (argparse defaults), with the
model stubbed: an openai module written to a temporary folder records every
chat.completions.create call and answers by stage (reflection: two 【提议】
lines; scenes: seven; generalisation: the first proposal passes; review: a
memory). Writes {user, dropped, targets, calls: [{round, stage, body,
reply}]}: the request bodies hold the authors' prompts, so keep CAPTURE.json
outside the repository. --alter first blanks every third search keyword and
shortens the user turns of every second customer-service chat, so the draw
meets records the release asks nothing of.

EXP.json is an experiment_data.json, e.g. of generated users (the harness's
synthetic OmniBehavior data written with omnibehavior.WriteExperiment); the
user practised (altered or not) is written alone to
CAPTURE.json.experiment.json. Then:

  MEMHARNESS_PRAMEM_RELEASE=CHECKOUT \
  MEMHARNESS_PRAMEM_EXPERIMENT=CAPTURE.json.experiment.json \
  MEMHARNESS_PRAMEM_PRACTICE_CAPTURE=CAPTURE.json \
  go test ./methods/pramem -run TestReleasePracticeCapture -v
"""
import argparse
import contextlib
import io
import json
import os
import random
import sys
import tempfile

STUBS = {
    "openai.py": '''CALLS = []
REPLY = None
class _Msg:
    def __init__(self, c): self.content = c
class _Choice:
    def __init__(self, c): self.message = _Msg(c)
class _Resp:
    def __init__(self, c): self.choices = [_Choice(c)]
class _Completions:
    def create(self, **kw):
        reply = REPLY(kw)
        CALLS.append({"body": dict(kw), "reply": reply})
        return _Resp(reply)
class _Chat:
    def __init__(self): self.completions = _Completions()
class OpenAI:
    def __init__(self, **kw): self.chat = _Chat()
''',
    "tqdm.py": "def tqdm(x=None, *a, **k): return x\ndef trange(*a, **k): return range(*a)\n",
    "numpy.py": "",
    "pytz.py": "def timezone(*a, **k): return None\n",
    "requests.py": "",
    "sklearn/__init__.py": "",
    "sklearn/metrics.py": "def f1_score(*a, **k): return 0\ndef precision_recall_curve(*a, **k): return 0\ndef auc(*a, **k): return 0\n",
}


def alter(user):
    ns = nc = 0
    for part in ("base_history", "test_time_all_actions"):
        for a in user[part]:
            if a["type"] == "搜索行为":
                ns += 1
                if ns % 3 == 0:
                    for act in a["action"]:
                        if act.get("type") == "search":
                            act["keyword"] = ""
            elif a["type"] == "电商客服对话":
                nc += 1
                if nc % 2 == 0:
                    for act in a["action"]:
                        if act.get("type") == "dialogue":
                            for m in act.get("content", []):
                                if m.get("role") == "user":
                                    m["content"] = "好"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", required=True)
    ap.add_argument("--experiment", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--user", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--alter", action="store_true")
    args = ap.parse_args()

    scratch = tempfile.mkdtemp(prefix="pramem-capture-")
    for name, text in STUBS.items():
        path = os.path.join(scratch, "stubs", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    sys.path[:0] = [os.path.join(scratch, "stubs"), args.release]
    os.chdir(args.release)
    import openai
    import z_1_get_practice_source as z1
    import z_2_get_practice_data as z2
    import z_5_practice_with_self_check as z5

    d = json.load(open(args.experiment, encoding="utf-8"))
    u = d["users"][args.user]
    if args.alter:
        alter(u)
    # The harness practises the first user of its experiment file.
    d["users"] = [u]
    with open(args.out + ".experiment.json", "w", encoding="utf-8") as f:
        json.dump(d, f, ensure_ascii=False)

    random.seed(42)
    entry, _, _, filtered = z1.process_single_user((u, 100, 10, False))
    test_idx = list(entry["practice_questions"].keys())[0]
    qs = entry["practice_questions"][test_idx]
    random.seed(1024)
    random.shuffle(qs)
    items, kept, dropped = [], [], 0
    for pi, q in enumerate(qs):
        hist = entry["base_history"] + entry["test_time_all_actions"][:q["test_time_index"]]
        try:
            items.append({"idx": f"{u['user_id']}_{test_idx}_{pi}",
                          "simulated_input": z2.get_simulated_input(entry["user_profile"], hist, [q["action"]], 12000),
                          "simulated_label": z2.get_simulated_label([q["action"]]),
                          "target_actions": [q["action"]]})
            kept.append(q)
        except Exception:
            dropped += 1
    work = os.path.join(scratch, "work")
    os.makedirs(work + "/data")
    with open(f"{work}/data/{u['user_id']}_0.jsonl", "w", encoding="utf-8") as f:
        for it in items:
            f.write(json.dumps(it, ensure_ascii=False) + "\n")

    stage, rnd = [""], [0]
    for meth, st in [("step_predict", "trial"), ("step_reflect_and_extract", "reflect"),
                     ("generate_virtual_scenes", "scenes"), ("check_generalization_batch", "generalize"),
                     ("generate_perturbations", "perturb"), ("check_perturbation_sensitivity_batch", "perturb_judge"),
                     ("step_review_memory", "review")]:
        def wrap(f, st=st):
            def g(*a, **k):
                if st == "trial":
                    rnd[0] += 1
                stage[0] = st
                return f(*a, **k)
            return g
        setattr(z5.SelfPractice, meth, wrap(getattr(z5.SelfPractice, meth)))
    count, meta = {}, []

    def reply(kw):
        st = stage[0]
        meta.append((rnd[0], st))
        n = count[st] = count.get(st, 0) + 1
        if st == "trial":
            return f"stub trial {n}: 是"
        if st == "reflect":
            return f"分析 {n}\n【提议】 stub proposal {n}a\n【提议】 stub proposal {n}b\n"
        if st == "scenes":
            return "```json\n" + json.dumps([f"virtual scene {n}.{i}" for i in range(7)], ensure_ascii=False) + "\n```"
        if st == "generalize":
            return '```json\n[{"proposal_idx": 0, "generalization_passed": true}, {"proposal_idx": 1, "generalization_passed": false}]\n```'
        if st == "review":
            return '```json\n{"user_exp": ["stub pattern %d"], "model_exp": ["stub calibration %d"], "proposal": []}\n```' % (n, n)
        return "```json\n[]\n```"
    openai.REPLY = reply
    sp = z5.SelfPractice(user_id=u["user_id"], test_id="0", practice_data_dir=work + "/data",
                         exp_memory_dir=work + "/mem", practice_progress_dir=work + "/prog", review_interval=5,
                         model_name="http://stub/v1", temperature=0.7, max_tokens=16000, total_rounds=args.rounds,
                         num_perturbations=1, detail_truncate_len=128, num_virtual_scenes=7, choices_per_question=8)
    with contextlib.redirect_stdout(io.StringIO()):
        sp.run()
    calls = [{"round": r, "stage": st, "body": c["body"], "reply": c["reply"]} for (r, st), c in zip(meta, openai.CALLS)]
    targets = [{"timestamp": q["action"]["timestamp"], "type": q["action"]["type"], "test_time_index": q["test_time_index"]}
               for q in kept[:args.rounds]]
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"user": u["user_id"], "filtered": filtered, "dropped": dropped, "targets": targets, "calls": calls},
                  f, ensure_ascii=False, indent=1)
    print("user", u["user_id"], "dropped", dropped, "rounds", len(targets), "calls", len(calls))


if __name__ == "__main__":
    main()
