"""The built-in truncation baseline, written as an external method: show the
most recent records whose summed token cost fits history_tokens (8000 unless
the method's options set it), no memory.

    methods:
      - name: truncation_py
        kind: external
        command: [python3, examples/truncation.py]
        options: {history_tokens: 8000}
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from memharness_method import Method, first_chunk, serve, window  # noqa: E402


class Truncation(Method):
    name = "truncation"
    version = "1.0"

    def history(self, params):
        # Only the records' token costs are needed to choose a window.
        if first_chunk(params):  # the user's past starts (again)
            self.users[params["user"]] = []
        self.users[params["user"]].extend(r["tokens"] for r in params["records"])

    def predict(self, params):
        costs = self.users.get(params["user"], [])[: params["prepared"]]
        costs = costs + [r["tokens"] for r in params["recent"]]
        budget = int(self.options.get("history_tokens", 8000))
        # Walk from the newest record back, stopping at the first that does
        # not fit (no skipping ahead).
        start, used = len(costs), 0
        for i in range(len(costs) - 1, -1, -1):
            if used + costs[i] > budget:
                break
            used += costs[i]
            start = i
        return window(start)


if __name__ == "__main__":
    serve(Truncation())
