#!/usr/bin/env python3
"""Step 2 of the LifeMem capture (see TestFirstPromptsMatchSources in
releasepacks/lifememrel/capture_test.go).

Runs the LifeMem release's own code -- api-bank/evaluator.py,
ScienceWorld/examples/evaluator.py and ToolQA/benchmark/ReAct/code/
agents_chatgpt.py, read from a pack folder, never copied -- on the inputs
step 1 wrote, and records the first request each one sends to its model.
What the release needs but cannot have here is stubbed:

  * the retrieval service (requests.post) answers with what the release's
    own memory/server.py retrieve returns for the inputs' two trajectories,
    both in one cluster whose rules memory/insight_extraction.py my_main
    wrote (its model answering one ADD per input rule); the service's
    rules come out of a Python set, so the capture lists the inputs' rules
    in the order the service gave them;
  * the model (get_response) records the request and stops the run (ToolQA:
    answers the thought request with a fixed reply first, to record the
    step's second request too; ScienceWorld: answers with the gold path's
    next action, to record the second step's request);
  * the ScienceWorld simulator answers "look around" with the gold
    sequence's recorded observation and the goal with its task
    description (from the ScienceWorld fixture);
  * libraries that are not installed (langchain, tiktoken, openai, rouge,
    tqdm, numpy, ToolQA's tools, API-Bank's ToolManager) by empty modules.

Usage: lifemem_capture.py --pack PACK --inputs DIR --fixtures FIX --out OUT
Writes OUT/<env>.json for toolqa, scienceworld and apibank.
"""

import argparse
import contextlib
import io
import json
import os
import runpy
import sys
import tempfile
import types


class Stop(Exception):
    """Raised by the stubbed model once the wanted request is recorded."""


def install(name, **attrs):
    """Registers an empty module (and its parents) with attrs."""
    parts = name.split(".")
    for i in range(1, len(parts) + 1):
        n = ".".join(parts[:i])
        if n not in sys.modules:
            sys.modules[n] = types.ModuleType(n)
        if i > 1:
            setattr(sys.modules[".".join(parts[: i - 1])], parts[i - 1], sys.modules[n])
    for k, v in attrs.items():
        setattr(sys.modules[name], k, v)
    return sys.modules[name]


class Anything:
    """Answers every attribute and call with itself (unused tools)."""

    def __init__(self, *a, **k):
        pass

    def __getattr__(self, name):
        return Anything()

    def __call__(self, *a, **k):
        return Anything()


class PromptTemplate:
    """langchain's PromptTemplate for plain {name} templates."""

    def __init__(self, input_variables=None, template="", **kwargs):
        self.input_variables = input_variables
        self.template = template

    def format(self, **kwargs):
        return self.template.format(**kwargs)


def isolated(run):
    """Runs run() with the modules it installs dropped afterwards (each
    release folder has its own utils)."""
    saved = dict(sys.modules)
    try:
        return run()
    finally:
        for k in list(sys.modules):
            if k not in saved:
                del sys.modules[k]
        sys.modules.update(saved)


def service(pack, inp):
    """The memory service's answer to a query with top_k 2, computed by the
    release's memory/insight_extraction.py and memory/server.py."""
    mem = os.path.join(pack, "memory")
    messages = [[{"role": m["role"], "content": m["content"]} for m in ex["messages"]] for ex in inp["exemplars"]]
    ops = "\n".join("ADD %d: %s" % (i + 1, r) for i, r in enumerate(inp["rules"]))

    def extract():
        install("utils", get_response=lambda prompt, **k: ops)
        mod = runpy.run_path(os.path.join(mem, "insight_extraction.py"), run_name="insight_extraction")
        return mod["my_main"](messages)

    with contextlib.redirect_stdout(io.StringIO()):
        representations = isolated(extract)

    class Model:
        def __init__(self, **kw):
            self.__dict__.update(kw)

    class App:
        def __init__(self, **kw):
            pass

        def post(self, *a, **k):
            return lambda f: f

    class DB:
        def __init__(self, **kw):
            pass

        def search_cluster(self, ids):
            return {i: {"cluster_id": "c", "summary": "s", "representations": representations} for i in ids}

    def answer(query):
        install("fastapi", FastAPI=App, HTTPException=Exception)
        install("pydantic", BaseModel=Model)
        install("uvicorn")
        install("edit_memory", load_memory=lambda path: None,
                retrieve_exemplar_name=lambda memory, q, k: list(range(k)),
                get_exemplar_by_names=lambda path, idx: (["t%d" % i for i in idx], [messages[i] for i in idx]))
        install("cluster_sqlite", ClusterDB=DB)
        install("utils", get_response=None)
        mod = runpy.run_path(os.path.join(mem, "server.py"), run_name="server")
        r = mod["retrieve"](mod["RetrieveRequest"](query=query, top_k=2))
        return {"rules": r.rules, "messages": r.messages}

    def at(rule):
        # Where the service put the rule: the cut of its numbered line.
        line = "1. " + rule
        cut = max(line.find(":"), line.find("."))
        return got["rules"].find(line[cut + 1:] + "\n")

    with contextlib.redirect_stdout(io.StringIO()):
        got = isolated(lambda: answer(inp["instruction"]))
    order = sorted(inp["rules"], key=at)
    assert all(at(r) >= 0 for r in order), got["rules"]
    return got, order


def retrieval(answer, calls):
    """A requests module whose post answers as LifeMem's memory service."""

    class Response:
        def raise_for_status(self):
            pass

        def json(self):
            return answer

    def post(url, json=None, timeout=None, **kwargs):
        calls.append(json)
        return Response()

    return post


def common_stubs(inp, calls):
    install("requests", post=retrieval(inp["service"], calls))
    install("tqdm", tqdm=lambda it, **k: it)
    install("rouge", Rouge=Anything)
    install("numpy")


def load_inputs(d, env):
    with open(os.path.join(d, env + ".json"), encoding="utf-8") as f:
        return json.load(f)


def capture_toolqa(pack, inp):
    code = os.path.join(pack, "ToolQA", "benchmark", "ReAct", "code")
    calls, requests_seen = [], []
    reply = "We should load the coffee database first.\nAction 1: LoadDB[coffee]"

    def get_response(messages, *a, **k):
        requests_seen.append([dict(m) for m in messages])
        if len(requests_seen) == 1:
            return reply
        raise Stop()

    common_stubs(inp, calls)
    install("tiktoken", encoding_for_model=lambda name: Anything())
    install("openai.error", RateLimitError=type("RateLimitError", (Exception,), {}))
    install("utils", get_response=get_response)
    install("langchain.agents.react.base", DocstoreExplorer=Anything)
    install("langchain.docstore.base", Docstore=Anything)
    install("langchain.prompts", PromptTemplate=PromptTemplate)
    install("tools.math", calculator=Anything())
    install("tools.text", agenda_retriever=Anything(), scirex_retriever=Anything())
    install("tools.table", tabtools=Anything())
    install("tools.graph", graphtools=Anything())
    install("tools.code", sql_interpreter=Anything(), python_interpreter=Anything())
    sys.path.insert(0, code)
    try:
        mod = runpy.run_path(os.path.join(code, "agents_chatgpt.py"), run_name="agents_chatgpt")
    finally:
        sys.path.remove(code)
    args = types.SimpleNamespace(path="/nonexistent")
    agent = mod["ReactAgent"](args, inp["instruction"], "unused")
    try:
        agent.run()
    except Stop:
        pass
    assert calls and calls[0]["query"] == inp["instruction"], calls
    assert len(requests_seen) == 2, len(requests_seen)
    return {"messages": requests_seen[0], "thought_reply": reply, "action_messages": requests_seen[1]}


def gold_look(fixtures, task_id):
    """The recorded "look around" observation and goal of a ScienceWorld
    task "<task name>_<variation>" from the gold-sequence fixture."""
    name, var = task_id.rsplit("_", 1)
    with open(os.path.join(fixtures, "scienceworld", "goldsequences-23-24.json"), encoding="utf-8") as f:
        gold = json.load(f)
    for t in gold.values():
        if t["taskName"] != name:
            continue
        for seq in t["goldActionSequences"]:
            if seq["variationIdx"] == int(var):
                step = seq["path"][0]
                assert step["action"] == "look around", step["action"]
                return name, int(var), step["observation"], seq["taskDescription"], seq["path"][1]
    raise KeyError(task_id)


def capture_scienceworld(pack, inp, fixtures):
    code = os.path.join(pack, "ScienceWorld", "examples")
    calls, requests_seen = [], []
    name, var, look, goal, nxt = gold_look(fixtures, inp["task"])
    # The model's first reply is the gold path's next action with a line
    # break, which the evaluator removes.
    reply = nxt["action"] + "\n"

    class Env:
        def __init__(self, *a, **k):
            pass

        def load(self, task_name, var_num, *a, **k):
            assert (task_name, var_num) == (name, var)

        def reset(self):
            return look, {}

        def step(self, action):
            if action == nxt["action"]:
                return nxt["observation"], 0, False, {"score": nxt["score"]}
            assert action == "look around", action
            return look, 0, False, {"score": 0}

        def get_task_description(self):
            return goal

        def get_possible_action_object_combinations(self):
            return [], {}

        def __getattr__(self, attr):
            return lambda *a, **k: []

    def get_response(messages, *a, **k):
        requests_seen.append([dict(m) for m in messages])
        if len(requests_seen) == 1:
            return reply
        raise Stop()

    common_stubs(inp, calls)
    install("llm", get_response=get_response)
    install("scienceworld", ScienceWorldEnv=Env)
    mod = runpy.run_path(os.path.join(code, "evaluator.py"), run_name="evaluator")
    args = {"task_num": 0, "simplification_str": "", "jar_path": None, "env_step_limit": 100,
            "task_name": name, "var_num": var, "model_name": "stub", "file": io.StringIO()}
    try:
        mod["userConsole"](args)
    except Stop:
        pass
    assert calls and calls[0]["query"] == goal, calls
    assert len(requests_seen) == 2
    return {"messages": requests_seen[0], "second_reply": reply, "second_messages": requests_seen[1]}


def capture_apibank(pack, inp, fixtures):
    code = os.path.join(pack, "api-bank")
    calls, requests_seen = [], []
    stem = inp["task"].split("/", 1)[1]
    record = None
    with open(os.path.join(fixtures, "apibank", "lifemem_style_lv1_lv2_test.jsonl"), encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["file"] == stem + ".jsonl":
                record = d
    assert record is not None, stem
    assert record["instruction"] == inp["instruction"]

    def get_response(messages, *a, **k):
        requests_seen.append([dict(m) for m in messages])
        raise Stop()

    common_stubs(inp, calls)
    install("tool_manager", ToolManager=Anything)
    install("utils", get_response=get_response)
    install("api_call_extraction", parse_api_call=lambda s: ("", {}))
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "test")
        os.mkdir(data)
        with open(os.path.join(data, record["file"]), "w", encoding="utf-8") as f:
            f.write(json.dumps({"instruction": record["instruction"], "message": record["message"]}) + "\n")
        out = os.path.join(tmp, "out.jsonl")
        open(out, "w").close()
        argv = sys.argv
        sys.argv = ["evaluator.py", "--output_file", out, "--data_dir", data]
        sys.path.insert(0, code)
        try:
            runpy.run_path(os.path.join(code, "evaluator.py"), run_name="__main__")
        except Stop:
            pass
        finally:
            sys.argv = argv
            sys.path.remove(code)
    assert calls and calls[0]["query"] == inp["instruction"], calls
    assert len(requests_seen) == 1
    return {"messages": requests_seen[0]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pack", required=True, help="the lifemem-release folder")
    ap.add_argument("--inputs", required=True, help="step 1's folder")
    ap.add_argument("--fixtures", required=True, help="shared/fixtures/envs")
    ap.add_argument("--out", required=True, help="the captures folder")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    runs = {
        "toolqa": lambda inp: capture_toolqa(a.pack, inp),
        "scienceworld": lambda inp: capture_scienceworld(a.pack, inp, a.fixtures),
        "apibank": lambda inp: capture_apibank(a.pack, inp, a.fixtures),
    }
    for env, run in runs.items():
        inp = load_inputs(a.inputs, env)
        inp["service"], rules = service(a.pack, inp)
        with contextlib.redirect_stdout(io.StringIO()):
            got = isolated(lambda: run(inp))
        out = {"task": inp["task"], "exemplars": inp["exemplars"], "rules": rules}
        out.update(got)
        with open(os.path.join(a.out, env + ".json"), "w", encoding="utf-8") as f:
            json.dump(out, f, ensure_ascii=False, indent=1)
        print(env, "captured", len(out["messages"]), "messages")


if __name__ == "__main__":
    main()
