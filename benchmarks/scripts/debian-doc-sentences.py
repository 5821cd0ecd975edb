#!/usr/bin/env python3
"""A million real English sentences for the Lucene store's real-embedding run at a million chunks (issue 29).

Source: documentation and text packages of Debian 12 (bookworm), fetched with `apt-get download` (see
benchmarks/datasets/real-sentences.md for the package versions and checksums) and unpacked with `dpkg -x`:
  x/ linux-doc-6.1 python3.11-doc perl-doc postgresql-doc-15 wordnet-base
  y/ openjdk-17-doc python-django-doc ruby3.1-doc
  z/ libreoffice-help-en-us gimp-help-en rust-doc emacs-common debian-handbook
  w/ python-scipy-doc gnucash-docs dict-gcide gnome-user-docs manpages manpages-dev octave-doc fortunes
     dict-foldoc bible-kjv-text
Prose paragraphs are taken from reStructuredText/POD sources and from HTML/XML paragraphs, list items and
definitions (English only), cut into passages of at most 60 words, then into sentences of at least 8 words
(shorter ones joined with the next), deduplicated case-insensitively. Writes sent.txt, then index.txt (the first
million sentences that are not held out) and holdout.txt (every 5,000th sentence, from which queries are drawn).

Usage: cd <folder with x/ y/ z/ w/> && python3 debian-doc-sentences.py
"""
import gzip
import hashlib
import html
import os
import re

SENTENCE = re.compile(r'(?<=[.!?])\s+(?=[A-Z])')
SENTENCE_LOOSE = re.compile(r'(?<=[.!?;:])\s+(?=[A-Z(])')
HTML_BLOCKS = re.compile(r'<p\b[^>]*>(.*?)</p>|<li\b[^>]*>(.*?)</li>|<dd\b[^>]*>(.*?)</dd>'
                         r'|<para\b[^>]*>(.*?)</para>', re.S)
JAVADOC_BLOCKS = re.compile(r'<div class="block">(.*?)</div>|<p>(.*?)</p>|<li>(.*?)</li>|<dd>(.*?)</dd>', re.S)


class Passages:
    """Passages of at most 60 words, deduplicated."""

    def __init__(self):
        self.seen, self.lines = set(), []

    def add(self, text, markup, ascii_letters):
        if markup:
            text = re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', text))).strip()
            text = re.sub(r' ([.,;:)])', r'\1', text)
        if (len(text) < 40 or sum(c.isascii() for c in text) < 0.97 * len(text)
                or sum(c.isalpha() or c == ' ' for c in text) < ascii_letters * len(text)):
            return
        buf = []
        for s in SENTENCE.split(text) + [None]:
            if s is not None and len(' '.join(buf + [s]).split()) <= 60:
                buf.append(s)
                continue
            u = ' '.join(buf).strip()
            if len(u.split()) >= 8:
                h = hashlib.md5(u.lower().encode()).digest()
                if h not in self.seen:
                    self.seen.add(h)
                    self.lines.append(u)
            buf = [s] if s is not None else []


def walk(roots, accept, skip=lambda d: False):
    files = []
    for r in roots:
        for d, _, fs in os.walk(r):
            if skip(d):
                continue
            files.extend(os.path.join(d, f) for f in fs if accept(f))
    return sorted(files)


def read(path):
    if path.endswith(('.gz', '.dz')):  # dictzip is gzip
        return gzip.open(path, 'rt', errors='replace').read()
    return open(path, errors='replace').read()


def sources(p):
    """reStructuredText, plain text and POD sources."""
    files = walk(['x/usr/share/doc/linux-doc-6.1/Documentation', 'x/usr/share/doc/python3.11/html/_sources',
                  'x/usr/share/doc/linux-doc-6.1/html/_sources'],
                 lambda f: f.endswith(('.rst', '.txt', '.rst.gz', '.txt.gz')) or (f.endswith('.gz') and '.' not in f[:-3]),
                 lambda d: 'translations' in d)
    files = sorted(files + walk(['x/usr/share/perl'], lambda f: f.endswith('.pod')))
    for path in files:
        try:
            data = read(path)
        except OSError:
            continue
        for para in re.split(r'\n\s*\n', data):
            lines = para.split('\n')
            if any(line.startswith(('    ', '\t', '..', '=', '-', '*', '+', '|', '>>>', '#')) for line in lines[:1]):
                continue
            t = ' '.join(line.strip() for line in lines)
            t = re.sub(r'[`*]|:[a-z]+:|<[^>]*>|[BCILFE]<([^>]*)>', lambda m: m.group(1) if m.lastindex else '', t)
            p.add(re.sub(r'\s+', ' ', t).strip(), False, 0.85)


def javadoc_and_glosses(p):
    for path in walk(['y/usr/share/doc'], lambda f: f.endswith('.html')):
        for m in JAVADOC_BLOCKS.finditer(read(path)):
            p.add(next(g for g in m.groups() if g is not None), True, 0.8)
    for f in ['data.noun', 'data.verb', 'data.adj', 'data.adv']:
        for line in open('x/usr/share/wordnet/' + f, errors='replace'):
            if '|' in line and not line.startswith(' '):
                g = line.split('|', 1)[1].strip()
                g = g[0].upper() + g[1:] if g else g
                if len(g.split()) >= 8:
                    p.add(g, True, 0.8)


def manuals(p):
    roots = ['z/usr/share/doc/debian-handbook/html/en-US', 'z/usr/share/doc/rust-doc', 'z/usr/share/libreoffice',
             'z/usr/share/gimp', 'x/usr/share/doc/postgresql-doc-15']
    pattern = re.compile(r'<p\b[^>]*>(.*?)</p>|<li\b[^>]*>(.*?)</li>|<dd\b[^>]*>(.*?)</dd>'
                         r'|<paragraph\b[^>]*>(.*?)</paragraph>', re.S)
    for path in walk(roots, lambda f: f.endswith(('.html', '.xhp'))):
        try:
            data = read(path)
        except OSError:
            continue
        for m in pattern.finditer(data):
            p.add(next(g for g in m.groups() if g is not None), True, 0.8)


class Sentences:
    """Sentences of 8 words or more (shorter ones joined with the next), 6 to 60 words, deduplicated."""

    def __init__(self):
        self.seen, self.lines = set(), []

    def add(self, text, markup=False):
        if markup:
            text = re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', text))).strip()
            text = re.sub(r' ([.,;:)])', r'\1', text)
            if (len(text) < 30 or sum(c.isascii() for c in text) < 0.97 * len(text)
                    or sum(c.isalpha() or c == ' ' for c in text) < 0.8 * len(text)):
                return
        buf = []
        for s in SENTENCE_LOOSE.split(text.strip()) + [None]:
            if s is not None and len(' '.join(buf).split()) < 8:
                buf.append(s)
                continue
            u = ' '.join(buf).strip()
            if 6 <= len(u.split()) <= (60 if markup else 10 ** 9):
                h = hashlib.md5(u.lower().encode()).digest()
                if h not in self.seen:
                    self.seen.add(h)
                    self.lines.append(u)
            buf = [s] if s is not None else []


def more(s):
    files = walk(['w/usr/share/help/C', 'w/usr/share/doc/octave', 'w/usr/share/doc/python-scipy-doc',
                  'w/usr/share/doc/gnucash-docs'], lambda f: f.endswith(('.html', '.page', '.xml')),
                 lambda d: '/gnucash-docs/' in d and not re.search(r'/(C|en)(/|$)', d))
    for path in files:
        try:
            data = read(path)
        except OSError:
            continue
        for m in HTML_BLOCKS.finditer(data):
            s.add(next(g for g in m.groups() if g is not None), True)
    for name in ['gcide', 'foldoc']:
        for para in re.split(r'\n\s*\n', read('w/usr/share/dictd/%s.dict.dz' % name)):
            s.add(' '.join(x.strip() for x in para.split('\n')), True)
    for d, _, fs in os.walk('w/usr/share/games/fortunes'):
        for f in fs:
            if '.' not in f:
                for q in open(os.path.join(d, f), errors='replace').read().split('\n%\n'):
                    s.add(q, True)
    for d, _, fs in os.walk('w/usr/share/doc/bible-kjv-text'):
        for f in fs:
            for para in re.split(r'\n\s*\n', read(os.path.join(d, f))):
                s.add(' '.join(x.strip() for x in para.split('\n')), True)


def main():
    p = Passages()
    sources(p)
    javadoc_and_glosses(p)
    manuals(p)
    s = Sentences()
    for line in p.lines:
        s.add(line)
    more(s)
    with open('sent.txt', 'w') as out:
        out.writelines(line + '\n' for line in s.lines)
    kept = [line for i, line in enumerate(s.lines, 1) if i % 5000 != 17]
    with open('index.txt', 'w') as out:
        out.writelines(line + '\n' for line in kept[:1000000])
    with open('holdout.txt', 'w') as out:
        out.writelines(line + '\n' for i, line in enumerate(s.lines, 1) if i % 5000 == 17)
    print(len(p.lines), 'passages,', len(s.lines), 'sentences')


if __name__ == '__main__':
    main()
