"""Run the releases' own answer parsers on our corpora (our script).

Usage:
  python3 parser_capture.py --pramem PRAMEM_CHECKOUT --omnibehavior OMNI_CHECKOUT \
      --parsers methods/predict/testdata/parsers

Loads ModelCaller from the PraMem release's model_caller.py and from
OmniBehavior's src/models/model_caller.py (with stand-in modules for the
packages they import but these functions do not use), builds instances
without __init__, and writes, per reply of our corpora, only what each
parser returned:

  yesno.source.jsonl  _call_binary_direct_mapping on yesno.inputs.jsonl (its
                      _call_openai_compatible returns the reply): "1", "0"
                      or null (invalid)
  text.source.jsonl   _clean_text_output on text.inputs.jsonl
"""
import argparse
import importlib.util
import json
import os
import sys
import tempfile

STUBS = {
    "openai.py": "class OpenAI:\n    def __init__(self, **kw): pass\n",
    "requests.py": "",
    "numpy.py": "",
    "tqdm.py": "def tqdm(x=None, *a, **k): return x\n",
}


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def instance(mod, reply):
    c = object.__new__(mod.ModelCaller)
    c.model_type, c.model_name = "openai", "stub"
    c._direct_mapping_debug_done, c.enable_thinking, c.use_logprobs = True, False, False
    c._log_error = lambda *a, **k: None
    c._call_openai_compatible = lambda *a, **k: {"content": reply, "usage": {}}
    return c


def rows(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pramem", required=True)
    ap.add_argument("--omnibehavior", required=True)
    ap.add_argument("--parsers", required=True)
    args = ap.parse_args()
    stubs = tempfile.mkdtemp(prefix="parser-capture-")
    for name, text in STUBS.items():
        with open(os.path.join(stubs, name), "w") as f:
            f.write(text)
    sys.path[:0] = [stubs, args.pramem, os.path.join(args.omnibehavior, "src")]
    callers = {"pramem": load("pramem_mc", os.path.join(args.pramem, "model_caller.py")),
               "omnibehavior": load("omni_mc", os.path.join(args.omnibehavior, "src", "models", "model_caller.py"))}
    with open(os.path.join(args.parsers, "yesno.source.jsonl"), "w", encoding="utf-8") as f:
        for r in rows(os.path.join(args.parsers, "yesno.inputs.jsonl")):
            res = {}
            for name, mod in callers.items():
                got = instance(mod, r["reply"])._call_binary_direct_mapping("prompt")
                res[name] = str(got["predicted_label"]) if got["success"] else None
            f.write(json.dumps(res, ensure_ascii=False) + "\n")
    with open(os.path.join(args.parsers, "text.source.jsonl"), "w", encoding="utf-8") as f:
        for r in rows(os.path.join(args.parsers, "text.inputs.jsonl")):
            res = {name: object.__new__(mod.ModelCaller)._clean_text_output(r["reply"]) for name, mod in callers.items()}
            f.write(json.dumps(res, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
