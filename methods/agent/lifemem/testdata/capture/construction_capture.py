#!/usr/bin/env python3
"""Capture for TestReleaseConstructionMatchesSource (release_capture_test.go).

Imports the LifeMem release's memory/prompts.py from a pack folder (never
copied) and formats its three construction prompts the way the release's
code does, on neutral inputs the Go test wrote:

  * cluster_trajectory.format(trajectories=..., existing_clusters=...) as in
    memory/build_memory.py: the new trajectories are training-file lines
    (dicts with 'task_id', 'task', 'messages': the keys the code reads; the
    real file's other keys and their order are unknown), the candidates a
    dict {cluster_id: {"summary": ..., "trajectories": [messages, ...]}};
  * get_summary.format(trajectories=[messages, ...], summary=...) as in
    ClusterDB.add_summary (summary None before the first one);
  * get_split.format(cluster_id=..., summary=..., examples=[exemplar, ...],
    old_cluster_id=[every cluster id]) as in ClusterDB.split_cluster, the
    exemplars as edit_memory.py stores them ({"message": ..., "id": ...}).

Usage: construction_capture.py --pack PACK --inputs IN.json --out OUT.json
"""
import argparse
import json
import os
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--pack", required=True)
ap.add_argument("--inputs", required=True)
ap.add_argument("--out", required=True)
a = ap.parse_args()

sys.path.insert(0, os.path.join(a.pack, "memory"))
import prompts  # noqa: E402  (the release's memory/prompts.py)

with open(a.inputs, encoding="utf-8") as f:
    inp = json.load(f)


def msgs(ms):
    return [{"role": m["role"], "content": m["content"]} for m in ms]


out = {}
asg = inp["assign"]
trajectory = [{"task_id": t["id"], "task": t["task"], "messages": msgs(t["messages"])} for t in asg["new"]]
clusters = {}
for c in asg["candidates"]:
    clusters[c["name"]] = {"summary": c["summary"], "trajectories": [msgs(m) for m in c["examples"]]}
out["assign"] = prompts.cluster_trajectory.format(trajectories=trajectory, existing_clusters=clusters)

sm = inp["summary"]
out["summary"] = prompts.get_summary.format(trajectories=[msgs(m) for m in sm["members"]], summary=sm["previous"])

sp = inp["split"]
examples = [{"message": msgs(m["messages"]), "id": m["id"]} for m in sp["members"]]
out["split"] = prompts.get_split.format(cluster_id=sp["cluster"], summary=sp["summary"], examples=examples,
                                        old_cluster_id=sp["all_clusters"])

with open(a.out, "w", encoding="utf-8") as f:
    json.dump(out, f, ensure_ascii=False, indent=1)
