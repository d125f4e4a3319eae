"""A ReAct agent written as an external lifelong method: no memory, each
action asked of the run's model (through the harness's model gateway) from
the environment's instructions, the solved examples the run offers for the
environment, and the episode so far.

    lifelong:
      methods:
        - name: react_py
          kind: external
          command: [python3, examples/react.py]

It learns nothing, so its state is empty and save/learn keep the defaults.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from memharness_method import Method, action, serve  # noqa: E402


def transcript(heading, examples):
    """Solved examples as numbered transcripts under a heading word."""
    out = []
    for i, ex in enumerate(examples, 1):
        out.append("\n%s %d\nTask: %s" % (heading, i, ex["task"]))
        for m in ex["messages"]:
            who = "Assistant" if m["role"] == "assistant" else "User"
            out.append("%s: %s" % (who, m["content"]))
    return "\n".join(out)


def clean(reply):
    """The action in a reply: without surrounding space or the speaker
    label a chat model may copy from the transcripts."""
    text = reply.strip()
    for label in ("Assistant:", "assistant:"):
        if text.startswith(label):
            text = text[len(label):].strip()
    return text


class ReAct(Method):
    name = "react"
    version = "1.0"

    def begin_task(self, params):
        self.task = params["task"]
        self.hidden = params["hides_instruction"]
        self.sampling = params["sampling"]
        system = params["instructions"].strip()
        if params["few_shots"]:
            system += "\n\nSolved tasks of this environment, for reference:\n" + transcript("Solved task", params["few_shots"])
        system += "\n\nNow your task. Answer with the next action and nothing else."
        self.system = system
        return None  # no experience: this agent shows none

    def act(self, params):
        messages = [{"role": "system", "content": self.system}]
        instruction = self.task["instruction"].strip()
        for i, turn in enumerate(params["turns"]):
            if turn["role"] == "agent":
                messages.append({"role": "assistant", "content": turn["text"]})
                continue
            text = turn["text"]
            if i == 0 and not self.hidden and instruction and instruction.lower() not in text.lower():
                text = "Task: " + instruction + "\n" + text
            messages.append({"role": "user", "content": text})
        return action(clean(self.chat(messages, **self.sampling)))


serve(ReAct())
