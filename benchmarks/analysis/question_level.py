"""Question-level answerability: how many answerable questions pass when 90% of left-out ones are routed.

Reads the JSON lines that `ragkit eval <qa-set> --signals <file>` writes (per question: answerable, and per hit
[z, coverage, keyword, holds-answer]), scores each hit with CalibratedRelevance's weights, and fits a logistic
model over question-level signals on half of the questions, scoring the other half (both ways round).
Usage: python3 benchmarks/analysis/question_level.py run1.signals.jsonl [run2.signals.jsonl ...]  (needs numpy)
"""
import json
import sys

import numpy as np

WITH_KEYWORDS = [0.486, 2.479, 0.974, -4.972]  # CalibratedRelevance.WITH_KEYWORDS


def auc(pos, neg):
    pos, neg = np.asarray(pos), np.asarray(neg)
    return (pos[:, None] > neg[None, :]).mean() + (pos[:, None] == neg[None, :]).mean() / 2


def relevances(record):
    """CalibratedRelevance of each hit of one question of a signals file."""
    hits = np.array([h[:3] for h in record["hits"]]).reshape(-1, 3)
    return 1 / (1 + np.exp(-(hits @ np.array(WITH_KEYWORDS[:3]) + WITH_KEYWORDS[3])))


def load(path):
    feats, labels = [], []
    for line in open(path):
        r = json.loads(line)
        rel = relevances(r)
        if len(rel) == 0:
            continue
        hits = np.array([h[:3] for h in r["hits"]])
        order = np.argsort(-rel)
        z = np.sort(hits[:, 0])[::-1]
        feats.append(dict(maxrel=rel[order[0]], rel2=rel[order[1]] if len(order) > 1 else 0.0,
                          gap=z[0] - z[min(10, len(z) - 1):].mean(), n30=float((rel > 0.3).sum())))
        labels.append(int(r["answerable"]))
    return feats, np.array(labels)


def fit(a, y, l2=1e-2, steps=3000, rate=0.5):
    mu, sd = a.mean(0), a.std(0) + 1e-9
    z = np.hstack([(a - mu) / sd, np.ones((len(a), 1))])
    w = np.zeros(z.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-z @ w))
        w -= rate * (z.T @ (p - y) / len(y) + l2 * np.r_[w[:-1], 0])
    return w, mu, sd


def predict(a, model):
    w, mu, sd = model
    return 1 / (1 + np.exp(-np.hstack([(a - mu) / sd, np.ones((len(a), 1))]) @ w))


def halves(a, y):
    """Fit on even questions, score odd ones, and the other way round: mean AUC and share of answerable questions
    passing at the bar that routes 90% of left-out ones."""
    idx = np.arange(len(y))
    results = []
    for half in (0, 1):
        train, test = idx % 2 == half, idx % 2 != half
        p = predict(a[test], fit(a[train], y[train]))
        neg = np.sort(p[y[test] == 0])
        bar = neg[int(0.9 * len(neg))]
        results.append((auc(p[y[test] == 1], p[y[test] == 0]), (p[y[test] == 1] > bar).mean()))
    return np.mean(results, 0)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        feats, y = load(path)
        print(f"{path}: {len(y)} questions, {y.sum()} answerable")
        for names in (["maxrel"], ["maxrel", "gap"], ["maxrel", "gap", "rel2", "n30"]):
            mean_auc, passing = halves(np.array([[f[n] for n in names] for f in feats]), y)
            print(f"  {' + '.join(names):28s} AUC {mean_auc:.3f}  answerable passing at 90% routed {passing:.3f}")
