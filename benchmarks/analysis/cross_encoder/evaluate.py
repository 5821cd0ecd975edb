"""The hand-off with a cross-encoder's score beside today's best calibrated relevance, question by question.

Scores (question, hit) with the trained cross-encoder for each question's five best hits by similarity and five
best by keyword score, takes the best score as a question-level signal, and reports (logistic fits on even
questions scored on odd ones and the other way round, as ../question_level.py does) the AUC and the share of
answerable questions passing when 90 % of left-out ones are routed, for the best relevance, the cross-encoder, and
both.

usage: evaluate.py <hits file> <signals file> <ce.pt> [K]
  hits file: JSON lines, a first line of corpus statistics, then per question id, question, answerable, answers and
             hits (path, sim, kw, text) -- a dump of each question's 50 best hits, made as `ragkit eval` indexes
  signals file: what `ragkit eval <set> --signals <file>` writes for the same set and embedder
"""
import ast
import json
import os
import re
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from question_level import halves, relevances  # noqa: E402
from bert import Tok, batch, load_onnx  # noqa: E402


def norm(s):
    return re.sub(r'\s+', ' ', s).lower()


def main(hits_file, signals_file, weights, k=5):
    torch.set_num_threads(2)
    base = {}
    for line in open(signals_file):
        r = json.loads(line)
        rel = relevances(r)
        base[r['id']] = (float(rel.max()) if len(rel) else 0.0, r['answerable'])
    tok = Tok('m/all-minilm-l6-v2-tokenizer.json')
    model = load_onnx('m/all-minilm-l6-v2.onnx')
    model.load_state_dict(torch.load(weights))
    model.eval()
    ids, ce, answerable, gold_top, gold_first = [], [], [], [], []
    with open(hits_file) as f:
        f.readline()
        for line in f:
            r = json.loads(line)
            if r['id'] not in base:
                continue
            hits = ast.literal_eval(r['hits']) if isinstance(r['hits'], str) else r['hits']
            cand = list(dict.fromkeys(sorted(range(len(hits)), key=lambda i: -hits[i]['sim'])[:k]
                                      + sorted(range(len(hits)), key=lambda i: -hits[i]['kw'])[:k]))
            best, top = -20.0, False
            holds = [r['answerable'] and any(norm(a) in norm(h['text']) for a in r['answers']) for h in hits]
            if cand:
                with torch.no_grad():
                    s = model.score(*batch([tok.pair(r['question'], hits[i]['text']) for i in cand])).numpy()
                best = float(s.max())
                top = holds[cand[int(s.argmax())]]
            ids.append(r['id'])
            ce.append(best)
            answerable.append(base[r['id']][1])
            gold_top.append(top)
            gold_first.append(bool(holds and holds[0]))
    y = np.array(answerable, dtype=int)
    feats = dict(relevance=np.array([base[i][0] for i in ids]), cross_encoder=np.array(ce))
    print(f'{hits_file}: {len(y)} questions, {y.sum()} answerable')
    for names in (['relevance'], ['cross_encoder'], ['relevance', 'cross_encoder']):
        m = halves(np.stack([feats[n] for n in names], 1), y)
        print(f"  {' + '.join(names):30s} AUC {m[0]:.3f}  answerable passing at 90% routed {m[1]:.3f}")
    share = lambda g: np.mean([x for x, a in zip(g, answerable) if a])
    print(f'  the answer is in the cross-encoder\'s best hit for {share(gold_top):.3f} of answerable questions,'
          f' in the retriever\'s first hit for {share(gold_first):.3f}')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 5)
