"""Capture tau-bench's tool lists as its agents show them.

Usage: python3 tau_tools_capture.py --pack PACKS/tau-bench --out CAPTURES/sources/tau_tools.json

Imports each domain's tools package from the pinned checkout (the package
__init__ files, which pull in litellm, are replaced by empty modules) and
writes {"retail": json.dumps(tools_info), "airline": ...}, tools_info being
[tool.get_info() for tool in ALL_TOOLS] as tau_bench/envs/base.py builds it.
"""
import argparse
import importlib
import json
import os
import sys
import types


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pack", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    sys.path.insert(0, a.pack)
    for pkg in ["tau_bench", "tau_bench.envs", "tau_bench.envs.retail", "tau_bench.envs.airline"]:
        m = types.ModuleType(pkg)
        m.__path__ = [a.pack + "/" + pkg.replace(".", "/")]
        sys.modules[pkg] = m
    out = {}
    for d in ["retail", "airline"]:
        mod = importlib.import_module("tau_bench.envs.%s.tools" % d)
        out[d] = json.dumps([t.get_info() for t in mod.ALL_TOOLS])
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
