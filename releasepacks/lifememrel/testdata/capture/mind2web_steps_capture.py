#!/usr/bin/python3
"""Capture the requests Synapse's own Mind2Web agent builds for the embedded
suite's records (TestSynapseMind2webStepsAsSource).

Usage (needs lxml: apt-get install -y python3-lxml, then /usr/bin/python3):
  mind2web_steps_capture.py --synapse SYNAPSE --records RECORDS --out OUT

SYNAPSE is a checkout of github.com/ltzheng/Synapse at the commit
releasepacks/lifememrel pins; RECORDS is envs/mind2web's embedded
test_task folder (our records). synapse/agents/mind2web.py eval_sample runs
as is, in its trajectory mode with create_parser's defaults (run_mind2web.py),
on every record; what it cannot have here is stubbed:

  * the memory: load_memory / retrieve_exemplar_name return one exemplar,
    ours (EXEMPLAR below), read from exemplars.json as eval_sample does;
  * the model: generate_response records the messages and answers with the
    step's first positive candidate clicked; token counting returns 0.

OUT gets, per record and per request, the messages after the system
message and the exemplar: what eval_sample built from the record. Nothing of
Synapse's own text (its system message) is written.
"""
import argparse
import importlib
import json
import os
import sys
import tempfile
import types

EXEMPLAR = [
    {"role": "user", "content": "Task: an earlier task\nTrajectory:\nObservation: `<html> <a id=7 home> Home </a> </html>`"},
    {"role": "assistant", "content": "Action: `CLICK [7]` ([link] Home -> CLICK)"},
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--synapse", required=True)
    ap.add_argument("--records", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    sys.path.insert(0, a.synapse)

    requests = []

    def generate_response(messages, model, temperature, stop_tokens):
        requests.append(messages)
        return "`CLICK [0]`", {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}

    def extract_from_response(response, backtick):
        return response.strip(backtick)

    llm = types.ModuleType("synapse.utils.llm")
    llm.generate_response = generate_response
    llm.num_tokens_from_messages = lambda messages, model: 0
    llm.MAX_TOKENS = {"gpt-3.5-turbo-16k-0613": 16384}
    llm.extract_from_response = extract_from_response
    mem = types.ModuleType("synapse.memory.mind2web.build_memory")
    mem.load_memory = lambda path: None
    mem.retrieve_exemplar_name = lambda memory, specifier, k: (["earlier"], [1.0])
    mem.get_specifiers_from_sample = lambda sample: ""
    importlib.import_module("synapse")
    for name, mod in [("synapse.utils", types.ModuleType("synapse.utils")), ("synapse.utils.llm", llm),
                      ("synapse.memory", types.ModuleType("synapse.memory")),
                      ("synapse.memory.mind2web", types.ModuleType("synapse.memory.mind2web")),
                      ("synapse.memory.mind2web.build_memory", mem)]:
        sys.modules[name] = mod
    agent = importlib.import_module("synapse.agents.mind2web")
    env_utils = importlib.import_module("synapse.envs.mind2web.env_utils")

    src = open(os.path.join(a.synapse, "run_mind2web.py"), encoding="utf-8").read()
    parser_ns = {}
    start = src.index("def create_parser")
    end = src.index("\ndef ", start + 1) if "\ndef " in src[start + 1:] else len(src)
    exec("import argparse\n" + src[start:end], parser_ns)
    samples = env_utils.load_json(os.path.dirname(a.records.rstrip("/")), os.path.basename(a.records.rstrip("/")))

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "exemplars.json"), "w") as f:
            json.dump({"earlier": EXEMPLAR}, f)
        args = parser_ns["create_parser"]().parse_args(["--benchmark", "test_task"])
        args.memory_path, args.log_dir = tmp, tmp  # set by run_mind2web.py's main
        for i, sample in enumerate(samples):
            requests.clear()
            agent.eval_sample(i, args, sample)
            out[sample["annotation_id"]] = [r[1 + len(EXEMPLAR):] for r in requests]
        out["_settings"] = {"top_k_elements": args.top_k_elements, "previous_top_k_elements": args.previous_top_k_elements}
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
