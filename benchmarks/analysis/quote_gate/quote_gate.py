"""The fit behind HybridConfidenceScorer.QUOTED: whether a quoted answer's cited lines hold the answer.

Inputs, per set and embedder: the `--details` file of `ragkit eval <set> --embedder <name>` run with the relevance bar
at the fitted 0.2 (RAG_MIN_SIMILARITY_SCORE=0.2 on a build without CalibratedRelevance.LENIENCY, which is the same
bar), and the output of QuoteSimilarity.java on it. Fits a logistic model of "answerable and the gold answer in the
cited lines" on the even-numbered questions of the fit sets, a question whose cited lines do not hold the answer
weighted W0, over [retrieval (raised by LENIENCY, as the pipeline reports it), best, mean]; then prints, for every
set, answer-hit, cited-hit and the share of left-out questions routed when answers scoring under 0.6 are routed.
Usage: python3 quote_gate.py <runs-dir> <tag> <similarity-dir> [W0]   (needs numpy)
"""
import json
import sys

import numpy as np

EMBEDDERS = ["all-minilm-l6-v2-q", "bge-small-en-v1.5-q"]
FIT_SETS = ["mlqa", "quoref"]
CHECK_SETS = ["tydiqa", "mlqa47", "nq"]
LENIENCY = 0.539  # CalibratedRelevance.LENIENCY


def load(runs, tag, sims, dataset, embedder):
    details = [json.loads(l) for l in open(f"{runs}/{tag}-{dataset}-{embedder}.details.jsonl")]
    z = {}
    for line in open(f"{sims}/qz-{dataset}-{embedder}.jsonl"):
        r = json.loads(line)
        z[r["id"]] = r["z"]
    return details, z


def features(question, z):
    r = min(max(question["retrieval"], 1e-9), 1 - 1e-9)
    raised = 1 / (1 + np.exp(-(np.log(r / (1 - r)) + LENIENCY)))
    return [raised, max(z), float(np.mean(z))]


def fit(x, y, w0, l2=1e-2):
    x = np.hstack([np.array(x), np.ones((len(x), 1))])
    y = np.array(y, float)
    weight = np.where(y == 1, 1.0, w0)
    w = np.zeros(x.shape[1])
    for _ in range(80):
        p = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (weight * (p - y)) + l2 * w
        hessian = (x * (weight * p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def main():
    runs, tag, sims = sys.argv[1:4]
    w0 = float(sys.argv[4]) if len(sys.argv) > 4 else 2.0
    x, y = [], []
    for dataset in FIT_SETS:
        for embedder in EMBEDDERS:
            details, z = load(runs, tag, sims, dataset, embedder)
            for i, q in enumerate(details):
                if i % 2 == 0 and q["id"] in z:
                    x.append(features(q, z[q["id"]]))
                    y.append(1 if q["answerable"] and q["citedHit"] else 0)
    w = fit(x, y, w0)
    print("weights of retrieval, best, mean and the bias:", np.round(w, 3))
    for dataset in FIT_SETS + CHECK_SETS:
        for embedder in EMBEDDERS:
            try:
                details, z = load(runs, tag, sims, dataset, embedder)
            except FileNotFoundError:
                continue

            def cited(q):
                if q["action"] != "CITE" or q["id"] not in z:
                    return False
                return 1 / (1 + np.exp(-(np.array(features(q, z[q["id"]]) + [1.0]) @ w))) >= 0.6

            answerable = [q for q in details if q["answerable"]]
            left_out = [q for q in details if not q["answerable"]]
            print(f"{dataset:8} {embedder:20} answer-hit {np.mean([cited(q) and q['answerHit'] for q in answerable]):.3f}"
                  f" cited-hit {np.mean([cited(q) and q['citedHit'] for q in answerable]):.3f}"
                  f" left-out ROUTE {np.mean([not cited(q) for q in left_out]):.3f}")


if __name__ == "__main__":
    main()
