"""Run LifelongAgentBench's DB task reply parser and Synapse's reply
handling on our corpora (parser parity), like parity_capture.py.

Usage:
  python3 parity_capture_db_synapse.py --packs PACKS --parity testdata/parity

Only the parser functions are taken from the pinned source files (located
with ast, their text written to a scratch module under a temporary folder
and imported there, with stand-ins for the types they return); nothing of
the sources is written under --parity, only what they returned for each
of our replies.

  LifelongAgentBench (PACKS/lifelongagentbench):
  src/tasks/instance/db_bench/task.py DBBench._parse_agent_response on the
  raw reply (openai_language_model.py hands choice.message.content over as
  it came). Reads dbbench_replies.json, writes dbbench.json:
  [{action, content, finish_reason}].

  Synapse Mind2Web (PACKS/synapse): synapse/utils/llm.py
  extract_from_response(reply, "`"), then synapse/envs/mind2web/
  env_utils.py parse_act_str, as synapse/agents/mind2web.py eval_sample
  does. Reads synapse_mind2web_replies.json, writes synapse_mind2web.json:
  [{act, op, id, value}] (None as null).

  Synapse MiniWoB++ (PACKS/synapse, when synapse_replies.json exists):
  synapse/utils/llm.py extract_from_response(reply, "```"), then run_miniwob.py's exec(actions) with `agent` an object that
  records the calls of synapse/agents/miniwob.py's Agent (type, click_xpath,
  press, click_option, movemouse; press's key check taken from the source,
  its step() recording instead of acting). Reads synapse_replies.json,
  writes synapse.json: [{code, calls: [[method, arg]], error}] where error is
  the exception's class name (SyntaxError: nothing ran) or null.
"""
import argparse
import contextlib
import io
import ast
import importlib.util
import json
import os
import tempfile
import textwrap


def scratch_module(name, text):
    d = tempfile.mkdtemp(prefix="parity-")
    path = os.path.join(d, name + ".py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def segment(path, cls, names):
    """The source text of the named functions (methods of cls when cls is
    set), dedented to top level."""
    src = open(path, encoding="utf-8").read()
    tree = ast.parse(src)
    body = tree.body
    if cls:
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    out = []
    for node in body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            seg = ast.get_source_segment(src, node, padded=True)
            out.append(textwrap.dedent(seg).replace("@staticmethod\n", ""))
    if len(out) != len(names):
        raise SystemExit("%s: found %d of %s" % (path, len(out), names))
    return "\n\n".join(out)


DB_HEADER = """import re
from enum import Enum
class AgentAction(Enum):
    EXECUTE = "execute"
    FINISH = "finish"
    INVALID = "invalid"
class AgentResponseParserResult:
    def __init__(self, action, content, finish_reason):
        self.action, self.content, self.finish_reason = action, content, finish_reason
"""


def dbbench(packs, parity):
    path = os.path.join(packs, "lifelongagentbench", "src/tasks/instance/db_bench/task.py")
    # the method's decorator line is kept out by dedent+replace; the body
    # starts with "def _parse_agent_response(agent_response: str) -> ..."
    mod = scratch_module("db_parse", DB_HEADER + "\n" + segment(path, "DBBench", {"_parse_agent_response"}))
    replies = json.load(open(os.path.join(parity, "dbbench_replies.json"), encoding="utf-8"))
    res = []
    for r in replies:
        p = mod._parse_agent_response(r)
        res.append({"action": p.action.value, "content": p.content, "finish_reason": p.finish_reason})
    with open(os.path.join(parity, "dbbench.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, ensure_ascii=False, indent=0)
        f.write("\n")


SYN_HEADER = """import re
class Keys:
    LEFT, RIGHT, BACKSPACE, UP, DOWN = "\\ue012", "\\ue014", "\\ue003", "\\ue013", "\\ue015"
CALLS = []
def MiniWoBType(x): return ("type", x)
def MiniWoBElementClickXpath(x): return ("click_xpath", x)
def MiniWoBElementClickOption(x): return ("click_option", x)
def MiniWoBMoveXpath(x): return ("movemouse", x)
class Agent:
    def step(self, action):
        CALLS.append(list(action))
"""


def synapse_mind2web(packs, parity):
    root = os.path.join(packs, "synapse")
    extract = segment(os.path.join(root, "synapse/utils/llm.py"), None, {"extract_from_response"})
    parse = segment(os.path.join(root, "synapse/envs/mind2web/env_utils.py"), None, {"parse_act_str"})
    mod = scratch_module("syn_m2w", "import re\n\n" + extract + "\n\n" + parse + "\n")
    replies = json.load(open(os.path.join(parity, "synapse_mind2web_replies.json"), encoding="utf-8"))
    res = []
    for r in replies:
        act = mod.extract_from_response(r, "`")
        op, eid, val = mod.parse_act_str(act)
        res.append({"act": act, "op": op, "id": eid, "value": val})
    with open(os.path.join(parity, "synapse_mind2web.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, ensure_ascii=False, indent=0)
        f.write("\n")


def synapse(packs, parity):
    root = os.path.join(packs, "synapse")
    extract = segment(os.path.join(root, "synapse/utils/llm.py"), None, {"extract_from_response"})
    methods = segment(os.path.join(root, "synapse/agents/miniwob.py"), "Agent", {"type", "click_xpath", "press", "click_option", "movemouse"})
    mod = scratch_module("syn_parse", SYN_HEADER + textwrap.indent(methods, "    ") + "\n\n" + extract + "\n")
    replies = json.load(open(os.path.join(parity, "synapse_replies.json"), encoding="utf-8"))
    res = []
    for r in replies:
        code = mod.extract_from_response(r, "```")
        del mod.CALLS[:]
        err = None
        try:
            # run_miniwob.py: exec(actions) in main(), where `agent` is the
            # Agent; other names resolve to nothing of ours.
            with contextlib.redirect_stdout(io.StringIO()):  # print() in the code
                exec(code, {"__builtins__": __builtins__}, {"agent": mod.Agent()})
        except BaseException as e:  # noqa: the source's bare except
            err = type(e).__name__
        res.append({"code": code, "calls": [[k, v if isinstance(v, str) else repr(v)] for k, v in mod.CALLS], "error": err})
    with open(os.path.join(parity, "synapse.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, ensure_ascii=False, indent=0)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packs", required=True)
    ap.add_argument("--parity", required=True)
    a = ap.parse_args()
    if os.path.isdir(os.path.join(a.packs, "lifelongagentbench")):
        dbbench(a.packs, a.parity)
    if os.path.isdir(os.path.join(a.packs, "synapse")):
        synapse_mind2web(a.packs, a.parity)
        if os.path.exists(os.path.join(a.parity, "synapse_replies.json")):
            synapse(a.packs, a.parity)


if __name__ == "__main__":
    main()
