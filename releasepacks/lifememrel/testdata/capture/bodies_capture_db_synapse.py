"""Capture what the sources' own client code hands the OpenAI API for one
acting call, less model and messages (bodies test, TestActBodiesGolden).

Usage:
  python3 bodies_capture_db_synapse.py --packs PACKS --out testdata/bodies

Only the client functions are taken from the pinned files (located with
ast, written to a scratch module under a temporary folder, imported
there); the API client is a stand-in that keeps its keyword arguments.
Nothing of the sources is written under --out, only those arguments as
JSON.

  LifelongAgentBench (PACKS/lifelongagentbench):
  OpenaiLanguageModel._get_completion_content
  (src/language_models/instance/openai_language_model.py) with
  configs/components/agents/language_model_agent.yaml's
  inference_config_dict. Writes dbbench.json.

  Synapse (PACKS/synapse): utils/llm.py generate_response (chat mode) with
  --temperature's default of run_miniwob.py / run_mind2web.py
  (create_parser) and the stop_tokens literal of the acting call
  (agents/miniwob.py Agent.act, agents/mind2web.py eval_sample). Writes
  miniwob.json and mind2web.json; and Agent.filter's two calls (the
  state abstraction) as miniwob-abstract.json, a list in source order.
"""
import argparse
import ast
import json
import os
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity_capture_db_synapse import scratch_module, segment  # noqa: E402


class _Client:
    """client.chat.completions.create(**kw) keeps kw and answers "ok"."""

    def __init__(self):
        self.kwargs = None
        self.chat = types.SimpleNamespace(completions=types.SimpleNamespace(create=self._create))

    def _create(self, **kw):
        self.kwargs = kw
        msg = types.SimpleNamespace(content="ok")
        usage = types.SimpleNamespace(prompt_tokens=1, completion_tokens=1, total_tokens=2)
        return types.SimpleNamespace(choices=[types.SimpleNamespace(message=msg)], usage=usage)


def write(out, name, kwargs):
    kw = {k: v for k, v in kwargs.items() if k not in ("model", "messages")}
    with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(kw, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


def dbbench(packs, out):
    import yaml

    root = os.path.join(packs, "lifelongagentbench")
    cfg = yaml.safe_load(open(os.path.join(root, "configs/components/agents/language_model_agent.yaml"), encoding="utf-8"))
    inference = cfg["language_model_agent"]["parameters"]["inference_config_dict"]
    method = segment(os.path.join(root, "src/language_models/instance/openai_language_model.py"), "OpenaiLanguageModel", {"_get_completion_content"})
    header = ("from __future__ import annotations\nimport openai\nfrom typing import Any, Mapping, Sequence\n"
              "class LanguageModelContextLimitException(Exception): pass\n")
    stub = types.ModuleType("openai")
    stub.BadRequestError = type("BadRequestError", (Exception,), {})
    sys.modules["openai"] = stub
    mod = scratch_module("db_client", header + method + "\n")
    client = _Client()
    self = types.SimpleNamespace(client=client, model_name="m", maximum_prompt_token_count=None)
    mod._get_completion_content(self, [{"role": "user", "content": "x"}], inference)
    write(out, "dbbench", client.kwargs)


def all_stop_tokens(path, func):
    """The stop_tokens literals of the generate_response calls in func, in
    source order."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == func:
            calls = [c for c in ast.walk(node) if isinstance(c, ast.Call) and getattr(c.func, "id", "") == "generate_response"]
            for call in sorted(calls, key=lambda c: (c.lineno, c.col_offset)):
                for kw in call.keywords:
                    if kw.arg == "stop_tokens":
                        out.append(ast.literal_eval(kw.value))
    if not out:
        raise SystemExit("%s: no generate_response(stop_tokens=...) in %s" % (path, func))
    return out


def stop_tokens(path, func):
    """The stop_tokens literal of the (first) generate_response call in func."""
    return all_stop_tokens(path, func)[0]


def synapse(packs, out):
    root = os.path.join(packs, "synapse")
    code = segment(os.path.join(root, "synapse/utils/llm.py"), None, {"get_mode", "generate_response"})
    header = "from __future__ import annotations\nimport inspect, logging\nlogger = logging.getLogger('x')\nopenai = None\nclient = None\n"
    mod = scratch_module("syn_client", header + code + "\n")
    for env, runner, agent_file, func in [("miniwob", "run_miniwob.py", "synapse/agents/miniwob.py", "act"),
                                          ("mind2web", "run_mind2web.py", "synapse/agents/mind2web.py", "eval_sample")]:
        parser_mod = scratch_module("p_" + env, "import argparse\n" + segment(os.path.join(root, runner), None, {"create_parser"}) + "\n")
        args = parser_mod.create_parser().parse_args([])
        mod.client = _Client()
        mod.generate_response(messages=[{"role": "user", "content": "x"}], model="gpt-3.5-turbo-0613",
                              temperature=args.temperature, stop_tokens=stop_tokens(os.path.join(root, agent_file), func))
        write(out, env, mod.client.kwargs)
    # Agent.filter's calls (the state abstraction): the LLM filter, then
    # the fallback after failed code, in source order.
    parser_mod = scratch_module("p_abs", "import argparse\n" + segment(os.path.join(root, "run_miniwob.py"), None, {"create_parser"}) + "\n")
    args = parser_mod.create_parser().parse_args([])
    bodies = []
    for stop in all_stop_tokens(os.path.join(root, "synapse/agents/miniwob.py"), "filter"):
        mod.client = _Client()
        mod.generate_response(messages=[{"role": "user", "content": "x"}], model="gpt-3.5-turbo-0613",
                              temperature=args.temperature, stop_tokens=stop)
        bodies.append({k: v for k, v in mod.client.kwargs.items() if k not in ("model", "messages")})
    with open(os.path.join(out, "miniwob-abstract.json"), "w", encoding="utf-8") as f:
        json.dump(bodies, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packs", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if os.path.isdir(os.path.join(a.packs, "lifelongagentbench")):
        dbbench(a.packs, a.out)
    if os.path.isdir(os.path.join(a.packs, "synapse")):
        synapse(a.packs, a.out)


if __name__ == "__main__":
    main()
