"""Capture the whole first request bodies tau-bench's own code sends.

Usage:
  python3 bodies_capture.py --packs PACKS --tasks DIR --opening TEXT --out CAPTURES/bodies

For retail and airline: the customer's first request
(LLMUserSimulationEnv.reset with the first task of DIR/<domain>/tasks_test.jsonl,
our embedded tasks) and ChatReActAgent's first step (its default
temperature, tools_info from ALL_TOOLS, the wiki, the customer's opening
TEXT), with litellm's completion replaced by a recorder. Each body is the
keyword arguments completion got, less model and custom_llm_provider
(litellm's OpenAI path sends the rest as the JSON body). Writes
taubench-<domain>.json: {"customer": body, "act": body}.
"""
import argparse
import copy
import importlib
import json
import os
import sys
import types


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packs", required=True)
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--opening", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    root = os.path.join(a.packs, "tau-bench")
    sys.path.insert(0, root)
    calls = []

    class _Res:
        def __init__(self, text):
            msg = types.SimpleNamespace(content=text, model_dump=lambda: {"role": "assistant", "content": text})
            self.choices = [types.SimpleNamespace(message=msg)]
            self._hidden_params = {"response_cost": 0.0}

    def completion(**kw):
        # a deep copy: the source goes on appending to the same message list
        calls.append(copy.deepcopy({k: v for k, v in kw.items() if k not in ("model", "custom_llm_provider")}))
        return _Res(a.opening)

    litellm = types.ModuleType("litellm")
    litellm.completion = completion
    sys.modules["litellm"] = litellm
    for pkg in ["tau_bench", "tau_bench.agents", "tau_bench.envs", "tau_bench.envs.retail", "tau_bench.envs.airline"]:
        m = types.ModuleType(pkg)
        m.__path__ = [os.path.join(root, *pkg.split("."))]
        sys.modules[pkg] = m
    for name, attr in [("tau_bench.agents.base", "Agent"), ("tau_bench.envs.base", "Env")]:
        m = types.ModuleType(name)
        setattr(m, attr, object)
        sys.modules[name] = m
    agent_mod = importlib.import_module("tau_bench.agents.chat_react_agent")
    user_mod = importlib.import_module("tau_bench.envs.user")
    os.makedirs(a.out, exist_ok=True)
    for domain in ["retail", "airline"]:
        tools = importlib.import_module("tau_bench.envs.%s.tools" % domain)
        wiki = open(os.path.join(root, "tau_bench", "envs", domain, "wiki.md"), encoding="utf-8").read()
        task = json.loads(open(os.path.join(a.tasks, domain, "tasks_test.jsonl"), encoding="utf-8").readline())
        user = user_mod.LLMUserSimulationEnv(model="m", provider="p")  # its __init__ resets once, unseeded
        calls.clear()
        opening = user.reset(instruction=task["instruction"])
        agent = agent_mod.ChatReActAgent(tools_info=[t.get_info() for t in tools.ALL_TOOLS], wiki=wiki, model="m", provider="p")
        agent.generate_next_step([{"role": "system", "content": agent.prompt}, {"role": "user", "content": opening}])
        with open(os.path.join(a.out, "taubench-%s.json" % domain), "w", encoding="utf-8") as f:
            json.dump({"customer": calls[0], "act": calls[1]}, f, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
