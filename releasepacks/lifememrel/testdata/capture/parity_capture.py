"""Run the sources' reply parsers on our corpus (parser parity).

Usage:
  python3 parity_capture.py --packs PACKS --corpus testdata/parity/replies.json --out testdata/parity

For each parser, only the parser function is taken from the pinned source
file (located with ast, its text written to a scratch module under a
temporary folder and imported there, with stand-ins for the message
classes it returns); nothing of the sources is written under --out, only
what the parser returned for each of our replies.

  ExpeL (PACKS/expel): prompts/hotpotQA.py (HotpotQA, FEVER),
  prompts/alfworld.py, prompts/webshop.py LLM_PARSER, each on the reply as
  GPTWrapper.__call__ leaves it (strip("\\n").strip(), newlines removed).
  Writes expel_<bench>.json: [{clean, content, type, action}].

  LifeMem (PACKS/lifemem-release): ScienceWorld/examples/llm.py and
  api-bank/utils.py get_response (process, then "Assistant: " removed).
  Writes lifemem_<env>.json: [text].

  tau-bench (PACKS/tau-bench): ChatReActAgent.generate_next_step with
  litellm's completion stubbed to return the reply. Writes
  taubench.json: [{name, name_json, kwargs (json.dumps text, sorted keys,
  ASCII with Python's escapes)} or {error}], written as ASCII.
"""
import argparse
import ast
import importlib.util
import json
import os
import sys
import tempfile
import types


def extract(path, names, header):
    """Write header plus the named top-level definitions of path to a
    scratch module and import it."""
    src = open(path, encoding="utf-8").read()
    tree = ast.parse(src)
    parts = [header]
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names:
            parts.append(ast.get_source_segment(src, node))
    scratch = tempfile.mkdtemp(prefix="parity-")
    mod_path = os.path.join(scratch, "m.py")
    with open(mod_path, "w", encoding="utf-8") as f:
        f.write("\n\n".join(parts) + "\n")
    spec = importlib.util.spec_from_file_location("m_" + os.path.basename(path).replace(".", "_"), mod_path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


MESSAGES = """import re
from typing import Tuple, Dict, Any, List
class _Msg:
    def __init__(self, content):
        self.content = content
class AIMessage(_Msg): pass
class HumanMessage(_Msg): pass
ChatMessage = _Msg
"""


def expel(packs, cases, out):
    for bench, file in [("hotpotqa", "prompts/hotpotQA.py"), ("alfworld", "prompts/alfworld.py"), ("webshop", "prompts/webshop.py")]:
        mod = extract(os.path.join(packs, "expel", file), {"LLM_PARSER"}, MESSAGES)
        res = []
        for c in cases:
            clean = c["reply"].strip("\n").strip().replace("\n", "")
            msg, kind, others = mod.LLM_PARSER(clean, c["step"], False)
            res.append({"clean": clean, "content": msg.content, "type": kind, "action": others.get("action")})
        with open(os.path.join(out, "expel_%s.json" % bench), "w", encoding="utf-8") as f:
            json.dump(res, f, ensure_ascii=False, indent=0)
            f.write("\n")


def taubench(packs, cases, out):
    root = os.path.join(packs, "tau-bench")
    sys.path.insert(0, root)
    current = {}

    class _Res:
        def __init__(self, text):
            msg = types.SimpleNamespace(content=text, model_dump=lambda: {"role": "assistant", "content": text})
            self.choices = [types.SimpleNamespace(message=msg)]
            self._hidden_params = {"response_cost": 0.0}

    litellm = types.ModuleType("litellm")
    litellm.completion = lambda **kw: _Res(current["reply"])
    sys.modules["litellm"] = litellm
    for pkg in ["tau_bench", "tau_bench.agents", "tau_bench.envs"]:
        m = types.ModuleType(pkg)
        m.__path__ = [os.path.join(root, *pkg.split("."))]
        sys.modules[pkg] = m
    base = types.ModuleType("tau_bench.agents.base")
    base.Agent = object
    sys.modules["tau_bench.agents.base"] = base
    envbase = types.ModuleType("tau_bench.envs.base")
    envbase.Env = object
    sys.modules["tau_bench.envs.base"] = envbase
    agent_mod = importlib.import_module("tau_bench.agents.chat_react_agent")
    agent = agent_mod.ChatReActAgent.__new__(agent_mod.ChatReActAgent)
    agent.model, agent.provider, agent.temperature = "m", "p", 0.0
    res = []
    for c in cases:
        current["reply"] = c["reply"]
        try:
            _, action, _ = agent.generate_next_step([])
            # ASCII with Python's escapes: a lone surrogate stays \udXXXX
            # (it cannot be written as UTF-8).
            res.append({"name": action.name, "name_json": json.dumps(action.name), "kwargs": json.dumps(action.kwargs, sort_keys=True)})
        except Exception as e:  # the source's asserts, pydantic's checks, RecursionError
            res.append({"error": type(e).__name__})
    with open(os.path.join(out, "taubench.json"), "w", encoding="utf-8") as f:
        # ASCII: a lone surrogate cannot be written as UTF-8.
        json.dump(res, f, ensure_ascii=True, indent=0)
        f.write("\n")


CLIENT = """_CURRENT = [""]
openai_chat_model = "m"
def openai_chat(prompt, model):
    return process(_CURRENT[0])
"""


def lifemem(packs, cases, out):
    """The LifeMem release's get_response for ScienceWorld and API-Bank:
    process and get_response from the pinned files, the API call replaced
    by the reply (openai_chat returns process(reply), as the real one
    does with the model's text)."""
    for name, file in [("scienceworld", "ScienceWorld/examples/llm.py"), ("apibank", "api-bank/utils.py")]:
        path = os.path.join(packs, "lifemem-release", file)
        if not os.path.exists(path):
            continue
        mod = extract(path, {"process", "get_response"}, CLIENT)
        res = []
        for c in cases:
            mod._CURRENT[0] = c["reply"]
            res.append(mod.get_response([]))
        with open(os.path.join(out, "lifemem_%s.json" % name), "w", encoding="utf-8") as f:
            json.dump(res, f, ensure_ascii=False, indent=0)
            f.write("\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packs", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--tau-corpus", help="the tau-bench corpus (a list of replies); default: next to --corpus")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    cases = json.load(open(a.corpus, encoding="utf-8"))
    if os.path.isdir(os.path.join(a.packs, "expel")):
        expel(a.packs, cases, a.out)
    if os.path.isdir(os.path.join(a.packs, "lifemem-release")):
        lifemem(a.packs, cases, a.out)
    if os.path.isdir(os.path.join(a.packs, "tau-bench")):
        tau = a.tau_corpus or os.path.join(os.path.dirname(a.corpus), "taubench_replies.json")
        taubench(a.packs, [{"reply": r} for r in json.load(open(tau, encoding="utf-8"))], a.out)


if __name__ == "__main__":
    main()
