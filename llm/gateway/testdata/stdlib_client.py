"""A child that reaches the harness's model gateway with Python's standard
library only, reading the variables the harness set for it. It prints one
JSON object with what it saw, for the Go test to check."""

import json
import os
import urllib.error
import urllib.request

BASE = os.environ["OPENAI_BASE_URL"].rstrip("/")
KEY = os.environ["OPENAI_API_KEY"]


def send(path, body=None, key=KEY, purpose=None):
    data = None if body is None else json.dumps(body).encode("utf-8")
    req = urllib.request.Request(BASE + path, data=data, method="GET" if body is None else "POST")
    req.add_header("Content-Type", "application/json")
    if key is not None:
        req.add_header("Authorization", "Bearer " + key)
    if purpose is not None:
        req.add_header("X-Memharness-Purpose", purpose)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)


out = {"env": dict(os.environ)}
out["models"] = send("/models")
out["chat"] = send(
    "/chat/completions",
    {
        "model": os.environ.get("OPENAI_MODEL", "any"),
        "messages": [
            {"role": "system", "content": "You keep notes about the user."},
            {"role": "user", "content": "Note: the user likes hiking. Answer Yes or No: does the user like hiking?"},
        ],
        "temperature": 0,
        "max_tokens": 16,
    },
    purpose="note",
)
out["embeddings"] = send("/embeddings", {"model": "any", "input": ["hiking", "the user likes hiking"]})
out["no_key"] = send("/chat/completions", {"messages": [{"role": "user", "content": "hi"}]}, key=None)
out["bad_json"] = send("/chat/completions", "not an object")
print(json.dumps(out))
