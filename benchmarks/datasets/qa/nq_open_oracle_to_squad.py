#!/usr/bin/env python3
"""Convert nq-open-oracle.jsonl.gz (Liu et al., "Lost in the Middle", NQ-Open oracle setting)
into SQuAD 1.1 layout.

Usage : python3 nq_open_oracle_to_squad.py nq-open-oracle.jsonl.gz nq-open-oracle.squad.json
Input : an unaltered copy of
        nelson-liu/lost-in-the-middle : qa_data/nq-open-oracle.jsonl.gz
Output: the same questions in the SQuAD 1.1 layout that QaSetFromSquad reads

Rules
- One input line = one question. The line has exactly one entry in "ctxs": the gold
  NaturalQuestions passage (chunk of ~100 words of the NQ-annotated long answer), with
  its Wikipedia article title. That chunk text is the SQuAD "context"; its title is the
  SQuAD article "title".
- The input has no question id, so id = "nq-open-oracle-%04d" % (0-based line number).
- "answers" (the NQ-Open gold answer strings) are kept in their order; each one is
  located in the context by exact, case-sensitive str.find (first occurrence) and gets
  that offset as answer_start. Strings that do not occur in the context are dropped and
  counted (the script prints the count). Duplicate strings are kept once.
- Paragraphs are grouped by title (first-appearance order); identical context strings
  under one title are merged into one paragraph holding several questions.
- Text is written unchanged (no whitespace normalisation); json.dump(ensure_ascii=False).
"""
import gzip, json, sys
from collections import OrderedDict

SRC, DST = sys.argv[1], sys.argv[2]

def main():
    articles = OrderedDict()          # title -> OrderedDict(context -> qas list)
    n_q = n_ans = n_dropped = n_q_noans = 0
    with gzip.open(SRC, "rt", encoding="utf-8") as f:
        for i, line in enumerate(f):
            row = json.loads(line)
            if len(row["ctxs"]) != 1:
                sys.exit("line %d: expected exactly one ctx, got %d" % (i, len(row["ctxs"])))
            ctx = row["ctxs"][0]
            context, title = ctx["text"], ctx["title"]
            answers, seen = [], set()
            for a in row["answers"]:
                if a in seen:
                    continue
                seen.add(a)
                pos = context.find(a)
                if pos < 0:
                    n_dropped += 1
                    continue
                answers.append({"text": a, "answer_start": pos})
            if not answers:
                n_q_noans += 1
                continue
            n_q += 1
            n_ans += len(answers)
            paras = articles.setdefault(title, OrderedDict())
            paras.setdefault(context, []).append(
                {"id": "nq-open-oracle-%04d" % i, "question": row["question"], "answers": answers})
    data = [{"title": t, "paragraphs": [{"context": c, "qas": q} for c, q in ps.items()]}
            for t, ps in articles.items()]
    with open(DST, "w", encoding="utf-8") as out:
        json.dump({"version": "nq-open-oracle-squad-1", "data": data}, out, ensure_ascii=False)
    n_p = sum(len(a["paragraphs"]) for a in data)
    print("articles=%d paragraphs=%d questions=%d answers=%d dropped_answer_strings=%d "
          "questions_without_any_answer_in_context=%d" % (len(data), n_p, n_q, n_ans, n_dropped, n_q_noans))

if __name__ == "__main__":
    main()
