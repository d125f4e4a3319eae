"""A memory method that asks the run's model, through the harness's model
gateway, for a short summary of each user's past, and answers every
question with the harness's answer prompt over a recent window and that
summary as memory.

    methods:
      - name: summarize
        kind: external
        command: [python3, examples/summarize.py]
        options: {records: 40, history_tokens: 2000}

The summary call is the method's own: it is metered, cached and recorded by
the harness as "summarize.summarise" (the method's name and the purpose it
names), attributed to the user it was made for.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from memharness_method import Method, serve, window  # noqa: E402


class Summarize(Method):
    name = "summarize"
    version = "1.0"

    def prepare(self, user):
        u = self.users[user]
        recent = u["records"][-int(self.options.get("records", 40)):]
        lines = "\n".join(r["text"] for r in recent)
        summary = self.chat(
            [{"role": "user", "content": "Summarise in a few lines what this user tends to do and like, "
                                         "from their most recent records:\n\n" + lines}],
            purpose="summarise")
        # The state is the summary and the records' token costs only.
        u["summary"] = summary
        u["costs"] = [r["tokens"] for r in u["records"]]
        del u["records"]
        return {"memory": summary, "meta": {"summarised": len(recent)}}

    def predict(self, params):
        u = self.users[params["user"]]
        costs = u["costs"][: params["prepared"]] + [r["tokens"] for r in params["recent"]]
        budget = int(self.options.get("history_tokens", 2000))
        start, used = len(costs), 0
        for i in range(len(costs) - 1, -1, -1):
            if used + costs[i] > budget:
                break
            used += costs[i]
            start = i
        return window(start, "Summary of the user's past:\n" + u["summary"])


if __name__ == "__main__":
    serve(Summarize())
