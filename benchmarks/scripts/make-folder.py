#!/usr/bin/env python3
"""Writes a folder of markdown files for indexing at scale (issue 29): each file is a page of five abstracts of the
Cranfield collection (../shared/datasets/cranfield, BEIR layout; 1,400 abstracts of aeronautics papers), drawn with a
fixed seed, each under its own heading, so that a file holds about ten chunks of 120 tokens. Files are spread over
folders of 1,000.

    python3 benchmarks/scripts/make-folder.py ../shared/datasets/cranfield/corpus.jsonl /tmp/big/site 100000
"""
import json
import os
import random
import sys

corpus, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
abstracts = [json.loads(line) for line in open(corpus, encoding="utf-8")]
rng = random.Random(29)
for i in range(count):
    folder = os.path.join(out, "part-%03d" % (i // 1000))
    os.makedirs(folder, exist_ok=True)
    parts = ["# Page %d\n" % i]
    for a in rng.sample(abstracts, 5):
        title = a["title"].rstrip(" .").capitalize() or "Untitled"
        parts.append("## %s\n\n%s\n" % (title, a["text"]))
    with open(os.path.join(folder, "page-%06d.md" % i), "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
