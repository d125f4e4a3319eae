"""Capture golden values from the sources' own scoring code.

Run with Debian's python3 (apt-get install -y python3-nltk python3-regex
python3-numpy) against scratch checkouts outside this repository:

  /usr/bin/python3 capture.py --locomo DIR --mem0 DIR \
      --fixture ../../../../shared/fixtures/memqa/locomo/locomo10_first2.json

  DIR for --locomo holds task_eval/evaluation.py and evaluation_stats.py of
  snap-research/LoCoMo@3eb6f2c; DIR for --mem0 holds
  evaluation/metrics/utils.py of mem0ai/mem0@b3ede5b (--lme is taken by
  releasepacks/memqarel/testdata/capture.py, the judges' script).

  The English Punkt model's goldens (golden/punkt_english.json) are a run
  of their own, since it patches nltk's sentence splitter:

  /usr/bin/python3 capture.py --mem0 DIR --punkt-tab ZIP --fixture FILE

  ZIP is nltk_data's packages/tokenizers/punkt_tab.zip (`bench data fetch
  nltk-punkt`); its inputs are punkt_english_texts.json, pairs.json and
  variants.json.

Our inputs are stem_words.txt, pairs.json, variants.json, tok_texts.json
and punkt_params.json; only the numbers, tokens and sentences the sources'
code returns are written (golden/*.json). No dataset text is: the
fixture's answers are referred to by sample_id and question index, and the
Go tests rebuild each prediction from the fixture with the same rule.
"""
import argparse
import importlib.util
import json
import os
import sys
import types


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def stub(name, **attrs):
    mod = types.ModuleType(name)
    for k, v in attrs.items():
        setattr(mod, k, v)
    sys.modules[name] = mod


def variant(rule, gold):
    """The prediction a variant rule makes from a gold answer (mirrored in
    variants_test.go)."""
    kind, _, text = rule.partition(":")
    if kind == "gold":
        return gold
    if kind == "upper":
        return gold.upper()
    if kind == "wrap":
        return text.replace("{}", gold)
    if kind == "half":
        parts = gold.split(" ")
        return " ".join(parts[: max(1, len(parts) // 2)])
    if kind == "reverse":
        return " ".join(reversed(gold.split(" ")))
    if kind == "own":
        return text
    raise ValueError(rule)


def contexts(rule, evidence):
    """The retrieved context a recall rule makes from the evidence list
    (None: no context recorded)."""
    if rule == "none":
        return None
    if rule == "dia_all":
        return list(evidence)
    if rule == "dia_first":
        return list(evidence[:1]) + ["D99:1"]
    if rule == "sessions_first":
        return ["S" + e.split(":")[0][1:] for e in evidence[:1]] + ["S99"]
    raise ValueError(rule)


def gold_text(qa):
    return str(qa["answer"] if "answer" in qa else qa.get("adversarial_answer", ""))


def capture_locomo(args, here, out):
    # bert_score is imported at the top of evaluation.py but not used by
    # the functions called here.
    stub("bert_score", score=None)
    ev = load(os.path.join(args.locomo, "task_eval", "evaluation.py"), "locomo_evaluation")

    words = [w for w in open(os.path.join(here, "stem_words.txt"), encoding="utf-8").read().split("\n") if w]
    json.dump({"stems": [ev.ps.stem(w) for w in words]}, open(os.path.join(out, "stems.json"), "w"),
              ensure_ascii=False, indent=0)

    pairs = json.load(open(os.path.join(here, "pairs.json"), encoding="utf-8"))["pairs"]
    lines = [{"category": p["category"], "answer": p["answer"], "prediction": p["prediction"], "evidence": []}
             for p in pairs]
    ems, _, _ = ev.eval_question_answering(lines, "prediction")
    res = []
    for p, s in zip(pairs, ems):
        res.append({
            "score": float(s),
            "token_f1": float(ev.f1_score(p["prediction"], p["answer"])),
            "multi_f1": float(ev.f1(p["prediction"], p["answer"])),
            "normalized_prediction": ev.normalize_answer(p["prediction"]),
        })
    json.dump({"pairs": res}, open(os.path.join(out, "pairs_locomo.json"), "w"), ensure_ascii=False, indent=0)

    if not args.fixture:
        return
    variants = json.load(open(os.path.join(here, "variants.json"), encoding="utf-8"))
    data = json.load(open(args.fixture, encoding="utf-8"))
    rows, lines = [], []
    for conv in data:
        for i, qa in enumerate(conv["qa"]):
            gold = gold_text(qa)
            for k, rule in enumerate(variants["predictions"]):
                # The context rule cycles with the prediction rule, so every
                # pair of (category, context rule) is met.
                crule = variants["contexts"][(i + k) % len(variants["contexts"])]
                line = {"category": qa["category"], "answer": gold, "evidence": qa["evidence"],
                        "prediction": variant(rule, gold)}
                ctx = contexts(crule, qa["evidence"])
                if ctx is not None:
                    line["prediction_context"] = ctx
                lines.append(line)
                rows.append([conv["sample_id"], i, k, (i + k) % len(variants["contexts"])])
    ems, _, recall = ev.eval_question_answering(lines, "prediction")
    for r, s, rc in zip(rows, ems, recall):
        r.extend([float(s), float(rc), round(float(s), 3)])
    aggregates = capture_aggregates(args, ev, data, rows, variants)
    with open(os.path.join(out, "locomo_aggregate.json"), "w") as f:
        json.dump({"source": "snap-research/LoCoMo@3eb6f2c task_eval/evaluation_stats.py analyze_aggr_acc (printout)",
                   "rules": aggregates}, f, indent=0)
    with open(os.path.join(out, "locomo_fixture.json"), "w") as f:
        f.write('{"source": "snap-research/LoCoMo@3eb6f2c task_eval/evaluation.py eval_question_answering",\n')
        f.write('"columns": ["sample_id", "qa", "prediction rule", "context rule", "score", "recall", "round3"],\n"rows": [\n')
        f.write(",\n".join(json.dumps(r, ensure_ascii=False) for r in rows))
        f.write("\n]}\n")




def capture_mem0(args, here, out):
    """BLEU-1 and F1 as mem0's evals.py records them, from its utils.py."""
    import nltk
    import nltk.tokenize
    nltk.download = lambda *a, **k: True  # no network here; the data it fetches is punkt (see below)

    class NoModel:
        def __init__(self, *a, **k):
            raise RuntimeError("no sentence-transformers model offline")

    stub("bert_score", score=None)
    stub("rouge_score", rouge_scorer=None)
    stub("sentence_transformers", SentenceTransformer=NoModel)
    stub("sentence_transformers.util", pytorch_cos_sim=None)
    # nltk.word_tokenize cuts sentences with the English Punkt model first;
    # that model (nltk_data) cannot be had offline, so the capture runs
    # Punkt untrained (PunktSentenceTokenizer()), which is what the Go
    # tokenizer does with zero PunktParams (see BLEU1).
    from nltk.tokenize.punkt import PunktSentenceTokenizer
    untrained = PunktSentenceTokenizer()
    nltk.tokenize.sent_tokenize = lambda text, language="english": untrained.tokenize(text)
    utils = load(os.path.join(args.mem0, "evaluation", "metrics", "utils.py"), "mem0_metrics_utils")

    texts = json.load(open(os.path.join(here, "tok_texts.json"), encoding="utf-8"))["texts"]
    pairs = json.load(open(os.path.join(here, "pairs.json"), encoding="utf-8"))["pairs"]
    from nltk.tokenize.punkt import PunktParameters
    pp = json.load(open(os.path.join(here, "punkt_params.json"), encoding="utf-8"))
    params = PunktParameters()
    params.abbrev_types = set(pp["abbrev_types"])
    params.collocations = set(tuple(c) for c in pp["collocations"])
    params.sent_starters = set(pp["sent_starters"])
    for typ, flags in pp["ortho_context"].items():
        params.add_ortho_context(typ, flags)
    trained = PunktSentenceTokenizer(params)
    trained_sents = [trained.tokenize(t) for t in pp["texts"]]
    toks = [nltk.word_tokenize(t) for t in texts]
    sents = [untrained.tokenize(t) for t in texts]
    res = []
    for p in pairs:
        pred, ans = str(p["prediction"]), str(p["answer"])
        res.append({"bleu1": float(utils.calculate_bleu_scores(pred, ans)["bleu1"]),
                    "f1": float(utils.calculate_metrics(pred, ans)["f1"])})
    fixture = []
    if args.fixture:
        # mem0's evals.py scores categories 1 to 4 on str() of each value.
        variants = json.load(open(os.path.join(here, "variants.json"), encoding="utf-8"))
        for conv in json.load(open(args.fixture, encoding="utf-8")):
            for i, qa in enumerate(conv["qa"]):
                if qa["category"] == 5:
                    continue
                gold = gold_text(qa)
                for k, rule in enumerate(variants["predictions"]):
                    pred = variant(rule, gold)
                    fixture.append([conv["sample_id"], i, k,
                                    float(utils.calculate_bleu_scores(pred, gold)["bleu1"]),
                                    float(utils.calculate_metrics(pred, gold)["f1"])])
    json.dump({"source": "mem0ai/mem0@b3ede5b evaluation/metrics/utils.py (sent_tokenize: untrained Punkt)",
               "tokens": toks, "sentences": sents, "params_sentences": trained_sents, "pairs": res,
               "fixture_columns": ["sample_id", "qa", "prediction rule", "bleu1", "f1"], "fixture": fixture},
              open(os.path.join(out, "mem0_metrics.json"), "w"), ensure_ascii=False, indent=0)


def read_punkt_tab(path, lang="english"):
    """PunktParameters from punkt_tab.zip's LANG folder, read as nltk's
    tab decoder (nltk/tabdata.py, nltk >= 3.8.2) reads the files: each line
    with one final newline removed and nothing else."""
    import io
    import zipfile
    from collections import defaultdict
    from nltk.tokenize.punkt import PunktParameters

    def rm_nl(s):
        return s[:-1] if s[-1] == "\n" else s

    z = zipfile.ZipFile(path)

    def lines(name):
        return list(io.TextIOWrapper(z.open("punkt_tab/%s/%s" % (lang, name)), encoding="utf-8"))

    params = PunktParameters()
    params.abbrev_types = {rm_nl(x) for x in lines("abbrev_types.txt")}
    params.collocations = {tuple(rm_nl(x).split("\t")) for x in lines("collocations.tab")}
    params.sent_starters = {rm_nl(x) for x in lines("sent_starters.txt")}
    params.ortho_context = defaultdict(int, {a: int(b) for a, b in
                                             (rm_nl(x).split("\t") for x in lines("ortho_context.tab"))})
    return params


def capture_english(args, here, out):
    """Punkt's sentences with the English model, nltk.word_tokenize's tokens
    and mem0's BLEU-1 with it: word_tokenize as nltk >= 3.8.2 runs it
    (PunktTokenizer("english") over punkt_tab's parameters; nltk 3.8 read
    the same parameters from punkt.zip's english.pickle)."""
    import nltk
    import nltk.tokenize
    from nltk.tokenize.punkt import PunktSentenceTokenizer
    nltk.download = lambda *a, **k: True
    english = PunktSentenceTokenizer(read_punkt_tab(args.punkt_tab))
    # The answer pairs are scored under both models: untrained first (what
    # the own default computes), then English.
    untrained = PunktSentenceTokenizer()
    nltk.tokenize.sent_tokenize = lambda text, language="english": untrained.tokenize(text)
    stub("bert_score", score=None)
    stub("rouge_score", rouge_scorer=None)

    class NoModel:
        def __init__(self, *a, **k):
            raise RuntimeError("no sentence-transformers model offline")

    stub("sentence_transformers", SentenceTransformer=NoModel)
    stub("sentence_transformers.util", pytorch_cos_sim=None)
    utils = load(os.path.join(args.mem0, "evaluation", "metrics", "utils.py"), "mem0_metrics_utils_english")

    inputs = json.load(open(os.path.join(here, "punkt_english_texts.json"), encoding="utf-8"))
    texts = inputs["texts"]
    untrained_bleu = [float(utils.calculate_bleu_scores(p["prediction"], p["answer"])["bleu1"]) for p in inputs["pairs"]]
    nltk.tokenize.sent_tokenize = lambda text, language="english": english.tokenize(text)
    english_bleu = [float(utils.calculate_bleu_scores(p["prediction"], p["answer"])["bleu1"]) for p in inputs["pairs"]]
    rows = []
    for t in texts:
        rows.append({"sentences": english.tokenize(t), "lower_sentences": english.tokenize(t.lower()),
                     "lower_tokens": nltk.word_tokenize(t.lower())})
    pairs = json.load(open(os.path.join(here, "pairs.json"), encoding="utf-8"))["pairs"]
    res = [float(utils.calculate_bleu_scores(str(p["prediction"]), str(p["answer"]))["bleu1"]) for p in pairs]
    fixture = []
    if args.fixture:
        variants = json.load(open(os.path.join(here, "variants.json"), encoding="utf-8"))
        for conv in json.load(open(args.fixture, encoding="utf-8")):
            for i, qa in enumerate(conv["qa"]):
                if qa["category"] == 5:
                    continue
                gold = gold_text(qa)
                for k, rule in enumerate(variants["predictions"]):
                    pred = variant(rule, gold)
                    fixture.append([conv["sample_id"], i, k, float(utils.calculate_bleu_scores(pred, gold)["bleu1"])])
    json.dump({"source": "nltk %s PunktSentenceTokenizer over nltk_data punkt_tab.zip (english) and "
                         "mem0ai/mem0@b3ede5b evaluation/metrics/utils.py calculate_bleu_scores" % nltk.__version__,
               "texts": rows, "text_pairs_bleu1": {"untrained": untrained_bleu, "english": english_bleu}, "pairs_bleu1": res,
               "fixture_columns": ["sample_id", "qa", "prediction rule", "bleu1"], "fixture": fixture},
              open(os.path.join(out, "punkt_english.json"), "w"), ensure_ascii=False, indent=0)


def capture_aggregates(args, ev, data, rows, variants):
    """analyze_aggr_acc's printout (count, summed score and rounded mean per
    category, rounded overall) over the rounded scores of each prediction
    rule, as evaluate_qa.py stores them."""
    import contextlib
    import io
    import tempfile
    stub("tqdm", tqdm=lambda x, **k: x)
    stats = load(os.path.join(args.locomo, "task_eval", "evaluation_stats.py"), "locomo_evaluation_stats")
    out = []
    for k in range(len(variants["predictions"])):
        scores = {(r[0], r[1]): r[6] for r in rows if r[2] == k}
        convs = []
        for conv in data:
            qas = []
            for i, qa in enumerate(conv["qa"]):
                qas.append({"category": qa["category"], "evidence": list(qa["evidence"]), "x_f1": scores[(conv["sample_id"], i)]})
            convs.append({"sample_id": conv["sample_id"], "qa": qas})
        with tempfile.TemporaryDirectory() as d:
            inf = os.path.join(d, "in.json")
            json.dump(convs, open(inf, "w"))
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                stats.analyze_aggr_acc(args.fixture, inf, os.path.join(d, "out_stats.json"), "x", "x_f1")
        per = {}
        overall = None
        for line in buf.getvalue().splitlines():
            parts = line.split()
            if line.startswith("Overall accuracy:"):
                overall = float(parts[-1])
            elif len(parts) == 4 and parts[0] in "12345":
                per[parts[0]] = [int(parts[1]), float(parts[2]), float(parts[3])]
        out.append({"per_category": per, "overall": overall})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--locomo")
    ap.add_argument("--mem0")
    ap.add_argument("--fixture")
    ap.add_argument("--punkt-tab", help="punkt_tab.zip as `bench data fetch nltk-punkt` leaves it (needs --mem0)")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "golden")
    os.makedirs(out, exist_ok=True)
    if args.locomo:
        capture_locomo(args, here, out)
    if args.mem0 and not args.punkt_tab:
        capture_mem0(args, here, out)
    if args.punkt_tab:
        if not args.mem0:
            ap.error("--punkt-tab needs --mem0")
        # Its own process state: sent_tokenize is patched to the English model.
        capture_english(args, here, out)


if __name__ == "__main__":
    main()
