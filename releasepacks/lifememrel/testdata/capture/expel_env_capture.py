"""Run ExpeL's HotpotQA and FEVER environments' reading of an action on
our corpus (environment parity through the agent's parser).

Usage:
  python3 expel_env_capture.py --packs PACKS --parity testdata/parity

Only functions are taken from the pinned ExpeL files (located with ast,
their text written to a scratch module under a temporary folder and
imported there, with stand-ins for what they call); nothing of the source
is written under --parity, only what it did with each of our replies.

For each reply of expel_env_replies.json ([{reply, step}]):

  action    what ReactAgent.step hands the environment: prompts/hotpotQA.py
            LLM_PARSER on the reply as GPTWrapper leaves it
            (strip("\\n").strip(), newlines removed); the same reply comes
            back on every call, so a thought three times gives "N/A".
  hotpotqa  envs/hotpotqa/hotpotqa.py QAEnv.step's branch: utils.py
            parse_action's verb when it is Finish, Search or Lookup (with
            the argument), else "invalid".
  fever     envs/fever/fever.py FeverEnv.step run with its WikiEnv the
            class of envs/fever/wikienv.py whose step is the source's and
            whose search_step and construct_lookup_list record instead of
            fetching: the branch taken (search, lookup, finish, think,
            invalid), its argument, FeverEnv's terminated flag, or the
            exception's class name.

Writes expel_env.json.
"""
import argparse
import ast
import importlib.util
import json
import os
import tempfile
import textwrap


def segment(path, cls, names):
    src = open(path, encoding="utf-8").read()
    tree = ast.parse(src)
    body = tree.body
    if cls:
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    out = []
    for node in body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            out.append(textwrap.dedent(ast.get_source_segment(src, node, padded=True)))
    if len(out) != len(names):
        raise SystemExit("%s: found %d of %s" % (path, len(out), names))
    return "\n\n".join(out)


def scratch_module(name, text):
    d = tempfile.mkdtemp(prefix="parity-")
    path = os.path.join(d, name + ".py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


HEADER = """import re
from typing import Tuple, Dict, Any, List
class _Msg:
    def __init__(self, content):
        self.content = content
class AIMessage(_Msg): pass
class HumanMessage(_Msg): pass
ChatMessage = _Msg
class _Timeout(Exception): pass
class requests:
    class exceptions:
        Timeout = _Timeout
"""

CLASSES = """
class WikiEnv:
    def __init__(self):
        self.answer = None
        self.obs = None
        self.steps = 0
        self.lookup_keyword = None
        self.lookup_list = None
        self.lookup_cnt = None
        self.taken = None
    def _get_info(self):
        return {"answer": self.answer}
    def search_step(self, entity):
        self.taken = ("search", entity)
        self.obs = "page"
    def construct_lookup_list(self, keyword):
        self.taken = ("lookup", keyword)
        return ["hit"]
WikiEnv.step = _wiki_step

class _Wrapper:
    def __init__(self, env):
        self.env = env
    def step(self, action):
        obs, _, done, info = self.env.step(action)
        return obs, 0, done, info

class FeverEnv:
    def __init__(self):
        self.env = _Wrapper(WikiEnv())
        self.terminated = False
        self.curr_step = 1
        self.max_steps = 6
    def is_terminated(self):
        return self.terminated
    def is_truncated(self):
        return self.curr_step > self.max_steps
FeverEnv.step = _fever_step
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packs", required=True)
    ap.add_argument("--parity", required=True)
    a = ap.parse_args()
    root = os.path.join(a.packs, "expel")
    text = HEADER
    text += segment(os.path.join(root, "prompts/hotpotQA.py"), None, {"LLM_PARSER"}) + "\n\n"
    text += segment(os.path.join(root, "utils.py"), None, {"parse_action"}) + "\n\n"
    text += segment(os.path.join(root, "envs/fever/wikienv.py"), "WikiEnv", {"step"}).replace("def step(", "def _wiki_step(", 1) + "\n\n"
    text += segment(os.path.join(root, "envs/fever/fever.py"), "FeverEnv", {"step"}).replace("def step(", "def _fever_step(", 1) + "\n\n"
    text += CLASSES
    mod = scratch_module("expel_env", text)
    cases = json.load(open(os.path.join(a.parity, "expel_env_replies.json"), encoding="utf-8"))
    res = []
    for c in cases:
        clean = c["reply"].strip("\n").strip().replace("\n", "")
        action = None
        for _ in range(3):  # ReactAgent.step: up to three calls
            _, kind, others = mod.LLM_PARSER(clean, c["step"], False)
            if kind != "thought":
                action = others["action"]
                break
        if action is None:
            action = "N/A"
        verb, arg = mod.parse_action(action)
        hotpot = {"kind": verb, "arg": arg} if verb in ("Finish", "Search", "Lookup") else {"kind": "invalid", "arg": None}
        env = mod.FeverEnv()
        fever = {"kind": "invalid", "arg": None, "terminated": False, "error": None}
        try:
            env.step(action)
            w = env.env.env
            if w.taken is not None:
                fever["kind"], fever["arg"] = w.taken
            elif w.answer is not None:
                fever["kind"], fever["arg"] = "finish", w.answer
            elif w.obs == "Nice thought.":
                fever["kind"] = "think"
            fever["terminated"] = env.terminated
        except Exception as e:  # what the source's step raises
            fever["error"] = type(e).__name__
            fever["terminated"] = env.terminated
        res.append({"action": action, "hotpotqa": hotpot, "fever": fever})
    with open(os.path.join(a.parity, "expel_env.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, ensure_ascii=False, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
