"""Capture the judges' request bodies and reply readings from the sources'
own Python, with a fake OpenAI client that records what would be sent.

  /usr/bin/python3 capture.py --mem0 DIR --lme DIR

DIR for --mem0 holds evaluation/metrics/llm_judge.py and mem0/memory/utils.py
of mem0ai/mem0@b3ede5b; DIR for --lme holds src/evaluation/evaluate_qa.py of
xiaowu0162/LongMemEval@9e0b455 (scratch copies outside this repository).

The sources' prompt texts are third-party and never written here. Their code
is run twice: once as is, recording each message's SHA-256 and length and
the other request fields; once with the prompt strings swapped for our own
wording (own_templates.json, written by the Go test with -update), recording
whole bodies. Either way the request is built, sent and read by their code.
"""
import argparse
import hashlib
import importlib.util
import json
import os
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))


class FakeClient:
    """Stands in for openai.OpenAI: records create(**kwargs) and answers
    with the queued reply texts."""

    def __init__(self, *a, **kw):
        self.sent = []
        self.replies = []
        client = self

        class Completions:
            def create(self, **kwargs):
                client.sent.append(kwargs)
                content = client.replies.pop(0) if client.replies else "{\"label\": \"CORRECT\"}"
                msg = types.SimpleNamespace(content=content)
                return types.SimpleNamespace(choices=[types.SimpleNamespace(message=msg)])

        self.chat = types.SimpleNamespace(completions=Completions())


def stub(name, **attrs):
    mod = types.ModuleType(name)
    for k, v in attrs.items():
        setattr(mod, k, v)
    sys.modules[name] = mod
    return mod


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


class APIError(Exception):
    pass


class RateLimitError(Exception):
    pass


def install_stubs():
    stub("openai", OpenAI=FakeClient, APIError=APIError, RateLimitError=RateLimitError, organization=None)
    stub("backoff", expo=None, on_exception=lambda *a, **k: (lambda f: f))
    stub("tqdm", tqdm=lambda x, **k: x)
    stub("mem0")
    stub("mem0.configs")
    stub("mem0.configs.prompts", AGENT_MEMORY_EXTRACTION_PROMPT="", FACT_RETRIEVAL_PROMPT="",
         USER_MEMORY_EXTRACTION_PROMPT="")
    stub("mem0.memory")


def digest(kwargs):
    out = dict(kwargs)
    out["messages"] = [{"role": m["role"], "content_sha256": hashlib.sha256(m["content"].encode()).hexdigest(),
                        "content_chars": len(m["content"])} for m in kwargs["messages"]]
    return out


def capture_mem0(args, inputs, own):
    load(os.path.join(args.mem0, "mem0", "memory", "utils.py"), "mem0.memory.utils")
    judge = load(os.path.join(args.mem0, "evaluation", "metrics", "llm_judge.py"), "llm_judge")
    real_prompt = judge.ACCURACY_PROMPT
    res = {"source": "mem0ai/mem0@b3ede5b evaluation/metrics/llm_judge.py evaluate_llm_judge",
           "release": [], "own": [], "replies": []}
    for wording, key in ((real_prompt, "release"), (own["locomo"], "own")):
        judge.ACCURACY_PROMPT = wording
        for c in inputs["locomo"]:
            judge.client.sent.clear()
            judge.evaluate_llm_judge(c["question"], c["gold"], c["generated"])
            kw = judge.client.sent[0]
            res[key].append(digest(kw) if key == "release" else kw)
    judge.ACCURACY_PROMPT = real_prompt
    for reply in inputs["locomo_replies"]:
        judge.client.replies = [reply]
        try:
            res["replies"].append({"label": judge.evaluate_llm_judge("q", "g", "a")})
        except Exception as e:  # the source's own failure
            res["replies"].append({"error": type(e).__name__})
    return res


def swap_strings(code, mapping):
    consts = []
    for c in code.co_consts:
        if isinstance(c, str) and c in mapping:
            consts.append(mapping[c])
        elif isinstance(c, types.CodeType):
            consts.append(swap_strings(c, mapping))
        else:
            consts.append(c)
    return code.replace(co_consts=tuple(consts))


def lme_templates(code):
    """The five template strings get_anscheck_prompt assigns, in order."""
    fn = [c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == "get_anscheck_prompt"][0]
    return [c for c in fn.co_consts if isinstance(c, str) and c.count("{}") == 3]


def run_lme(path, entries, replies, mapping=None):
    src = open(path, encoding="utf-8").read()
    code = compile(src, path, "exec")
    if mapping:
        code = swap_strings(code, mapping)
    with tempfile.TemporaryDirectory() as d:
        hyp = os.path.join(d, "hyp.jsonl")
        ref = os.path.join(d, "ref.json")
        with open(hyp, "w") as f:
            for e in entries:
                f.write(json.dumps({"question_id": e["question_id"], "hypothesis": e["hypothesis"]}) + "\n")
        json.dump([{k: e[k] for k in ("question_id", "question_type", "question", "answer")} for e in entries],
                  open(ref, "w"))
        clients = []

        class Recording(FakeClient):
            def __init__(self, *a, **kw):
                super().__init__()
                self.replies = list(replies)
                clients.append(self)

        sys.modules["openai"].OpenAI = Recording
        argv = sys.argv
        sys.argv = ["evaluate_qa.py", "gpt-4o", hyp, ref]
        old = sys.stdout
        sys.stdout = open(os.devnull, "w")
        try:
            exec(code, {"__name__": "__main__", "__file__": path})
        finally:
            sys.stdout.close()
            sys.stdout = old
            sys.argv = argv
        labels = [json.loads(l)["autoeval_label"]["label"]
                  for l in open(hyp + ".eval-results-gpt-4o").read().splitlines() if l]
        return clients[0].sent, labels


def capture_lme(args, inputs, own):
    path = os.path.join(args.lme, "src", "evaluation", "evaluate_qa.py")
    entries = inputs["longmemeval"]
    code = compile(open(path, encoding="utf-8").read(), path, "exec")
    real = lme_templates(code)
    assert len(real) == 5, len(real)
    mapping = dict(zip(real, own["longmemeval"]))
    res = {"source": "xiaowu0162/LongMemEval@9e0b455 src/evaluation/evaluate_qa.py (__main__)",
           "release": [], "own": [], "replies": []}
    sent, _ = run_lme(path, entries, ["yes"] * len(entries))
    res["release"] = [digest(kw) for kw in sent]
    sent, _ = run_lme(path, entries, ["yes"] * len(entries), mapping)
    res["own"] = sent
    # Reply reading: the same entry judged once per reply text.
    replies = inputs["longmemeval_replies"]
    _, labels = run_lme(path, [entries[0]] * len(replies), replies)
    res["replies"] = [{"label": l} for l in labels]
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mem0", required=True)
    ap.add_argument("--lme", required=True)
    args = ap.parse_args()
    install_stubs()
    inputs = json.load(open(os.path.join(HERE, "judge_inputs.json"), encoding="utf-8"))
    own = json.load(open(os.path.join(HERE, "own_templates.json"), encoding="utf-8"))
    out = {"mem0": capture_mem0(args, inputs, own), "longmemeval": capture_lme(args, inputs, own)}
    os.makedirs(os.path.join(HERE, "golden"), exist_ok=True)
    with open(os.path.join(HERE, "golden", "judges.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
