"""How well the best hit's calibrated relevance tells answerable questions from left-out ones, per signals file.

Reads the JSON lines that `ragkit eval <qa-set> --signals <file>` writes (per question: answerable, and per hit
[z, coverage, keyword, holds-answer]), scores every hit with CalibratedRelevance's shipped weights (no refit), and
prints per file: the AUC of the best relevance (answerable against left-out), the share of answerable questions that
pass when the bar routes 90% of the left-out ones, and what the default bar of 0.3 does.
Usage: python3 benchmarks/analysis/answerability.py run1.signals.jsonl [run2.signals.jsonl ...]  (needs numpy)
"""
import json
import sys

import numpy as np

from question_level import auc, relevances  # CalibratedRelevance's shipped weights, scored per hit

BAR = 0.3  # RetrievalOptions.minRelevance() default


def best_relevances(path):
    answerable, left_out = [], []
    for line in open(path):
        record = json.loads(line)
        rel = relevances(record)
        (answerable if record["answerable"] else left_out).append(rel.max() if len(rel) else 0.0)
    return np.array(answerable), np.array(left_out)


def main(paths):
    for path in paths:
        a, l = best_relevances(path)
        bar90 = np.quantile(l, 0.9)
        print(f"{path}: AUC {auc(a, l):.3f}; passing at 90% of left-out routed {(a > bar90).mean():.3f}; "
              f"at {BAR}: left-out routed {(l < BAR).mean():.3f}, answerable passing {(a >= BAR).mean():.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
