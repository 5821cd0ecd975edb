"""What a second look below the relevance bar (Planner.SECOND_LOOK) did, question by question.

Inputs, per set and embedder: the `--details` and `--signals` files of `ragkit eval <set> --embedder <name>`, run on a
build with the second look. The signals give each question's candidate hits (z, coverage, keyword); their relevance
under CalibratedRelevance's weights says whether the best one reached the bar (0.3) — a question whose best hit did
not was answered, if at all, by a second look. Prints, per run: the rates as run, the rates had only questions whose
best hit reached the bar been cited (which is the run without a second look: the bar and the answers of the others
are unchanged), and what second looks cited.
Usage: python3 second_look.py <runs-dir> <tag> <set>...   (files <runs-dir>/<tag>-<set>-<embedder>.{details,signals}.jsonl)
"""
import json
import math
import sys

EMBEDDERS = ["all-minilm-l6-v2-q", "bge-small-en-v1.5-q"]
WEIGHTS = [0.486, 2.479, 0.974, -4.972]  # CalibratedRelevance.WITH_KEYWORDS
LENIENCY = 0.539                          # CalibratedRelevance.LENIENCY
BAR = 0.3                                 # RAG_MIN_SIMILARITY_SCORE


def relevance(hit):
    z, coverage, keyword = hit[0], hit[1], hit[2]
    w = WEIGHTS
    return 1 / (1 + math.exp(-(w[0] * z + w[1] * coverage + w[2] * keyword + w[3] + LENIENCY)))


def load(runs, tag, dataset, embedder):
    base = f"{runs}/{tag}-{dataset}-{embedder}"
    best = {}
    for line in open(base + ".signals.jsonl"):
        q = json.loads(line)
        best[q["id"]] = max([relevance(h) for h in q["hits"]] or [0.0])
    questions = [json.loads(line) for line in open(base + ".details.jsonl")]
    for q in questions:
        q["best"] = best.get(q["id"], 0.0)
    return questions


def rates(questions, cited):
    answerable = [q for q in questions if q["answerable"]]
    left_out = [q for q in questions if not q["answerable"]]
    return (sum(cited(q) and q["answerHit"] for q in answerable) / len(answerable),
            sum(cited(q) and q["citedHit"] for q in answerable) / len(answerable),
            sum(cited(q) for q in answerable) / len(answerable),
            sum(not cited(q) for q in left_out) / len(left_out))


def main():
    runs, tag = sys.argv[1:3]
    for dataset in sys.argv[3:]:
        for embedder in EMBEDDERS:
            try:
                questions = load(runs, tag, dataset, embedder)
            except FileNotFoundError:
                continue
            run = rates(questions, lambda q: q["action"] == "CITE")
            before = rates(questions, lambda q: q["action"] == "CITE" and q["best"] >= BAR)
            second = [q for q in questions if q["action"] == "CITE" and q["best"] < BAR]
            print(f"{dataset:8} {embedder:20} as run %.3f / %.3f / %.3f / %.3f   bar only %.3f / %.3f / %.3f / %.3f"
                  % (run + before) + f"   second looks cited: {sum(q['answerable'] for q in second)} answerable"
                  f" ({sum(q['answerable'] and q['citedHit'] for q in second)} with the answer in the cited lines),"
                  f" {sum(not q['answerable'] for q in second)} left out")


if __name__ == "__main__":
    main()
