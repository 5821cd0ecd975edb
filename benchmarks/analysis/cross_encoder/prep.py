"""Training pairs for a relevance cross-encoder: (question, window, label) from QA sets not used for evaluation."""
import glob
import sys
import json
import math
import random
import re
from collections import Counter, defaultdict

random.seed(23)
STOP = set("""the a an is are was were be been being have has had do does did will would could should may might must
shall can to of in for on with at by from as into through during before after above below between under again then
once here there when where why how all each few more most other some such no nor not only own same so than too very
just and but if or because until while this that these those what which who whom whose name first last full""".split())


def words(t):
    return [w for w in re.findall(r'[a-z0-9]+', t.lower()) if len(w) >= 3 and w not in STOP]


def slug(t):
    return re.sub(r'[^a-z0-9]+', '-', t.lower()).strip('-')


def windows(context, max_words=90):
    sents = re.split(r'(?<=[.!?])\s+', context.replace('\n', ' '))
    out, cur = [], []
    for s in sents:
        if cur and len(' '.join(cur + [s]).split()) > max_words:
            out.append(' '.join(cur))
            cur = []
        cur.append(s)
    if cur:
        out.append(' '.join(cur))
    return out


QA_SETS = sys.argv[1] if len(sys.argv) > 1 else 'qa'  # the folder holding the evaluation sets (mlqa, quoref, ...)
evaluated = {f.split('/')[-1][:-3] for f in glob.glob(QA_SETS + '/*/documents/*.md')}
eval_text = set()
for f in glob.glob(QA_SETS + '/*/documents/*.md'):
    for line in open(f):
        if len(line) > 200:
            eval_text.add(line.strip()[:120])

items = []  # (question, article key, windows of its paragraph, answers or None)
all_windows = []  # (article key, text)
skipped = 0
for name, has_answers in (('conll-dev.json', True), ('contrast.json', True), ('quoref-test.json', False)):
    for art in json.load(open(name))['data']:
        key = name + ':' + art['title']
        if slug(art['title']) in evaluated or any(p['context'].strip()[:120] in eval_text for p in art['paragraphs']):
            skipped += 1
            continue
        for p in art['paragraphs']:
            ws = windows(p['context'])
            all_windows.extend((key, w) for w in ws)
            for q in p['qas']:
                answers = [a['text'] for a in q.get('answers', [])] if has_answers else None
                items.append((q['question'], key, ws, answers))
print(f'{len(items)} questions, {len(all_windows)} windows, {skipped} articles skipped as evaluated')

# BM25 over all windows, for hard negatives from other articles.
postings = defaultdict(list)
lengths = []
for i, (_, w) in enumerate(all_windows):
    tf = Counter(words(w))
    lengths.append(sum(tf.values()))
    for t, c in tf.items():
        postings[t].append((i, c))
avg = sum(lengths) / len(lengths)
N = len(all_windows)


def bm25(query, k=30):
    scores = defaultdict(float)
    for t in set(words(query)):
        plist = postings.get(t, [])
        if not plist:
            continue
        idf = math.log(1 + (N - len(plist) + 0.5) / (len(plist) + 0.5))
        for i, c in plist:
            scores[i] += idf * c * 2.2 / (c + 1.2 * (0.25 + 0.75 * lengths[i] / avg))
    return sorted(scores, key=scores.get, reverse=True)[:k]


def norm(s):
    return re.sub(r'\s+', ' ', s).lower()


pairs = []
for question, key, ws, answers in items:
    if answers:
        pos = [w for w in ws if all(norm(a) in norm(w) for a in answers[:1])]
        if not pos:
            continue
        positive = pos[0]
        in_neg = [w for w in ws if not any(norm(a) in norm(w) for a in answers)]
    else:
        qw = set(words(question))
        ranked = sorted(ws, key=lambda w: -len(qw & set(words(w))))
        positive = ranked[0]
        in_neg = []  # unknown where the answer is: no same-paragraph negatives
    pairs.append((question, positive, 1))
    if in_neg:
        pairs.append((question, random.choice(in_neg), 0))
    other = [i for i in bm25(question) if all_windows[i][0] != key]
    for i in other[:2]:
        pairs.append((question, all_windows[i][1], 0))
    if len(other) > 2:
        pairs.append((question, all_windows[random.choice(other[2:])][1], 0))
random.shuffle(pairs)
print(f'{len(pairs)} pairs, {sum(p[2] for p in pairs)} positive')
json.dump(pairs, open('pairs.json', 'w'))
