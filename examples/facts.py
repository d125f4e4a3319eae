"""A small memory method written with memharness_method: per-user statistics
of the past, written as fact lines, shown after a short recent window.

While preparing a user it counts, for each answer field and each attribute
value of the records (genre=Drama, scene=...), how many records had it and
their mean outcome. For a question it shows the most recent records that fit
history_tokens (2000 unless set) and, as memory, the user's overall mean and
the facts whose attribute values the target shares:

    - [movie_rating] all: mean 3.70 over 240 records
    - [movie_rating] genre=Drama: mean 4.21 over 31 records

    methods:
      - name: facts
        kind: external
        command: [python3, examples/facts.py]
        options: {history_tokens: 2000, min_records: 3}
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from memharness_method import Method, serve, window  # noqa: E402


class Facts(Method):
    name = "facts"
    version = "1.0"

    def prepare(self, user):
        u = self.users[user]
        stats = {}  # (field, key, value) -> [count, sum]
        for r in u["records"]:
            attrs = dict(r.get("attrs") or {})
            attrs_values = [("all", "")] + [("scene", r["scene"])]
            for k, v in attrs.items():
                attrs_values += [(k, x) for x in v.split("|") if x]
            for field, y in (r.get("outcomes") or {}).items():
                for k, v in attrs_values:
                    s = stats.setdefault((field, k, v), [0, 0.0])
                    s[0] += 1
                    s[1] += y
        # The state is the statistics only: records are not needed again.
        u["facts"] = [[f, k, v, n, total] for (f, k, v), (n, total) in sorted(stats.items())]
        u["costs"] = [r["tokens"] for r in u["records"]]
        del u["records"]
        return {"memory": "\n".join(self.line(*f) for f in u["facts"]), "meta": {"facts": len(u["facts"])}}

    @staticmethod
    def line(field, key, value, n, total):
        scope = "all" if key == "all" else "%s=%s" % (key, value)
        return "- [%s] %s: mean %.2f over %d records (sum %g)" % (field, scope, total / n, n, total)

    def predict(self, params):
        u = self.users[params["user"]]
        field = params["question"]["field"]
        target = params["target"]
        have = {("all", ""), ("scene", target["scene"])}
        for k, v in (target.get("attrs") or {}).items():
            have |= {(k, x) for x in v.split("|") if x}
        least = int(self.options.get("min_records", 3))
        lines = [self.line(*f) for f in u["facts"] if f[0] == field and (f[1], f[2]) in have and f[3] >= least]
        costs = u["costs"][: params["prepared"]] + [r["tokens"] for r in params["recent"]]
        budget = int(self.options.get("history_tokens", 2000))
        start, used = len(costs), 0
        for i in range(len(costs) - 1, -1, -1):
            if used + costs[i] > budget:
                break
            used += costs[i]
            start = i
        return window(start, "\n".join(lines))


if __name__ == "__main__":
    serve(Facts())
