"""A client for memharness's method protocol (docs/PROTOCOL.md), with no
dependency beyond Python's standard library.

Write a subclass of Method, override what your method does, and end your
script with serve(YourMethod()). The harness starts the script as a child
process and speaks JSON-RPC 2.0 with it, one JSON object per line on stdin
and stdout. Print your own logs to stderr (sys.stderr, or the logging
module): stdout carries the protocol only, and anything else written there
stops the run. serve_http(YourMethod(), port) serves the same method over
HTTP for a config's `url:` instead.

A lifelong agent method (family "lifelong") overrides begin_task, act and,
when it learns, learn, end_task and save/load of its whole state; see
examples/react.py.

A Method keeps each user's records by default (self.users[user]["records"],
oldest first, each with its rendered "text", its token cost "tokens" and
its raw fields) and saves and loads them as its state; override save/load
to keep less or more.

While the harness waits on a request, the method may ask the run's model
through the harness's model gateway: self.chat(messages, purpose="...")
returns the reply's text. The call is metered, cached, budgeted and recorded
like the harness's own, attributed to the method, the user and the purpose
named ("<method>.<purpose>" in usage.json and `bench calls`).
"""

import io
import json
import os
import sys
import urllib.error
import urllib.request

PROTOCOL_VERSION = "1.1"


def window(history_from, memory=""):
    """A predict reply: the harness asks the run's model with its own
    answer prompt, showing the records from index history_from on (the
    history length shows none) and memory appended after the question."""
    return {"history_from": history_from, "memory": memory}


def prompt(text):
    """A predict reply: the harness sends text as the one user message."""
    return {"prompt": text}


def answer(text):
    """A predict reply: the method's own answer (it asked a model itself,
    through the run's gateway). An answer that cannot be read is asked
    again with params["attempt"] one higher."""
    return {"answer": text}


class MethodError(Exception):
    """Raised by a method to answer a request with an error: the sample
    records it and a re-run retries it; the session goes on."""

    def __init__(self, message, code=-32000):
        super().__init__(message)
        self.code = code


class Method:
    """The protocol's requests as methods; the defaults keep each user's
    records and answer nothing."""

    name = "method"
    version = "0"

    def __init__(self):
        self.options = {}
        self.run = {}
        self.users = {}
        # The gateway scope of the request being answered (its
        # gateway_scope param), sent with every model call made meanwhile.
        self.gateway_scope = None

    # The model, through the run's gateway.
    def chat(self, messages, purpose=None, **params):
        """Ask the run's model: messages are OpenAI chat messages
        ([{"role": "user", "content": "..."}]), params other request fields
        (temperature, max_tokens, ...). purpose names the call in the
        harness's reports (letters, digits, ".", "_", "-"). Returns the
        reply's text; raises MethodError when the gateway refuses or fails
        (a spending ceiling reached, the endpoint down)."""
        base = os.environ.get("OPENAI_BASE_URL")
        token = os.environ.get("OPENAI_API_KEY")
        if not base or not token:
            raise MethodError("no model gateway: the harness serves one to methods it starts (OPENAI_BASE_URL is not set)")
        body = dict(params)
        body["model"] = os.environ.get("MEMHARNESS_MODEL", "memharness-backbone")
        body["messages"] = messages
        req = urllib.request.Request(base.rstrip("/") + "/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST")
        req.add_header("Content-Type", "application/json")
        req.add_header("Authorization", "Bearer " + token)
        if purpose:
            req.add_header("X-Memharness-Purpose", purpose)
        if self.gateway_scope:
            req.add_header("X-Memharness-Scope", self.gateway_scope)
        try:
            with urllib.request.urlopen(req, timeout=900) as resp:
                reply = json.load(resp)
        except urllib.error.HTTPError as e:
            detail = e.read().decode("utf-8", "replace")
            try:
                detail = json.loads(detail)["error"]["message"]
            except (ValueError, KeyError, TypeError):
                pass
            raise MethodError("model gateway: HTTP %d: %s" % (e.code, detail))
        return reply["choices"][0]["message"]["content"] or ""

    # Session.
    def init(self, params):
        """params: protocol_version, method, family, run, options."""
        self.options = params.get("options") or {}
        self.run = params.get("run") or {}

    def shutdown(self):
        pass

    # Behaviour prediction.
    def history(self, params):
        """One chunk of a user's past: user, profile, total, records, last.
        A chunk starting at record 0 starts the user over: a past may be
        sent again (a planner's probe stopped by a refused model call, then
        its rehearsal)."""
        if first_chunk(params):
            self.users[params["user"]] = {"profile": params.get("profile", ""), "records": []}
        u = self.users.setdefault(params["user"], {"profile": params.get("profile", ""), "records": []})
        u["records"].extend(params["records"])

    def prepare(self, user):
        """Build the user's memory once its whole past has arrived; return
        {"memory": text shown by `bench memory`, "meta": {counter: number}}."""
        return {"memory": ""}

    def predict(self, params):
        """Answer one test instance: return window(...), prompt(...) or
        answer(...). params: user, instance, history_length, prepared,
        recent (the records between the past and the target), scene,
        target, question {field, kind, text, allowed}, attempt."""
        raise MethodError("predict is not implemented")

    def save(self, user):
        """The user's state as any JSON value; the harness keeps it in the
        run directory and hands it to load in a resumed run."""
        return self.users.get(user)

    def load(self, user, state):
        self.users[user] = state

    # Lifelong agents.
    def begin_task(self, params):
        """A test episode starts: task {env, id, instruction}, instructions
        (the environment's, as the harness's own prompt opens), observation
        (the first one), max_steps, few_shots (solved examples you may
        show), sampling (the run's settings for acting calls: pass them to
        chat), hides_instruction. May return an experience(...) to declare
        the exemplars and rules your prompt shows."""
        return None

    def act(self, params):
        """The next action: env, task, step, observation, turns (the
        episode so far, each {role: "env" | "agent", text}). Return
        action(...) or stop()."""
        raise MethodError("act is not implemented")

    def end_task(self, params):
        """The episode ended: env, task, outcome {score, steps,
        invalid_actions, end}, trajectory (its turns)."""

    def learn(self, params):
        """One batch of a stage's training trajectories: batch,
        trajectories (each {id, env, task, messages, success})."""

    def end_stage(self, params):
        """A training stage is complete; its test episodes follow."""

    def save_state(self):
        """A lifelong method's whole state as any JSON value; the harness
        keeps it in the run directory and hands it to load_state in a
        resumed run."""
        return None

    def load_state(self, state):
        pass


def first_chunk(params):
    """Whether a history chunk is the first of a user's past (records from
    index 0, or the one empty chunk of a user with no past)."""
    records = params["records"]
    return not records or records[0]["index"] == 0


def action(text, shown=None):
    """An act reply: text is handed to the environment; shown (optional)
    is what the episode's transcript keeps of the turn instead (thoughts
    with the action)."""
    reply = {"action": text}
    if shown is not None:
        reply["text"] = shown
    return reply


def stop():
    """An act reply that ends the episode without an action."""
    return {"stop": True}


def experience(exemplars=(), rules=()):
    """A begin_task reply declaring what the method shows its model for the
    task: exemplar trajectories and rule lines. On the embedded sim
    backbone the method's acting calls are read with them."""
    return {"experience": {"exemplars": list(exemplars), "rules": list(rules)}}


def _call(method, name, params):
    method.gateway_scope = params.get("gateway_scope")
    if name == "init":
        method.init(params)
        return {"protocol_version": PROTOCOL_VERSION, "name": method.name, "version": str(method.version)}
    if name == "history":
        method.history(params)
        return {}
    if name == "prepare":
        return method.prepare(params["user"]) or {"memory": ""}
    if name == "predict":
        return method.predict(params)
    if name == "save":
        if "user" not in params:  # a lifelong method: its whole state
            return {"state": method.save_state()}
        return {"state": method.save(params["user"])}
    if name == "load":
        if "user" not in params:
            method.load_state(params["state"])
        else:
            method.load(params["user"], params["state"])
        return {}
    if name == "begin_task":
        return method.begin_task(params) or {}
    if name == "act":
        return method.act(params)
    if name in ("end_task", "learn", "end_stage"):
        getattr(method, name)(params)
        return {}
    if name == "shutdown":
        method.shutdown()
        return {}
    raise MethodError("unknown method %r" % name, code=-32601)


def handle(method, line):
    """One request line to one response object (None for a notification)."""
    return _handle(method, line)[0]


def _handle(method, line):
    try:
        req = json.loads(line)
    except ValueError as e:
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error: %s" % e}}, None
    name = req.get("method")
    return _answer(method, req), name


def _answer(method, req):
    rid = req.get("id")
    try:
        result = _call(method, req.get("method"), req.get("params") or {})
    except MethodError as e:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": e.code, "message": str(e)}}
    except Exception as e:  # the method's own failure: reported, the session goes on
        import traceback
        traceback.print_exc(file=sys.stderr)
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32000, "message": "%s: %s" % (type(e).__name__, e)}}
    if rid is None:
        return None
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def serve(method, stdin=None, stdout=None):
    """Answer requests from stdin on stdout until shutdown or end of input."""
    # The protocol is UTF-8 whatever the locale says.
    stdin = stdin or io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
    stdout = stdout or sys.stdout
    for line in stdin:
        if not line.strip():
            continue
        resp, name = _handle(method, line)
        if resp is not None:
            stdout.write(json.dumps(resp) + "\n")  # ASCII: safe under any locale
            stdout.flush()
        if name == "shutdown":
            return


def serve_http(method, port, host="127.0.0.1"):
    """Answer requests POSTed to http://host:port/ (a config's url:)."""
    from http.server import BaseHTTPRequestHandler, HTTPServer
    import threading

    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                resp = handle(method, body.decode("utf-8"))
            data = json.dumps(resp or {}, ensure_ascii=False).encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, fmt, *args):
            sys.stderr.write(fmt % args + "\n")

    HTTPServer((host, port), Handler).serve_forever()
