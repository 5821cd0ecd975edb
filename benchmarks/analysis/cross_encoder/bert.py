"""A BERT encoder in PyTorch, weights read from an ONNX export (all-MiniLM-L6-v2), and a WordPiece tokenizer."""
import json
import math
import re
import unicodedata

import numpy as np
import onnx
import torch
import torch.nn as nn
from onnx import numpy_helper


class Tok:
    def __init__(self, path):
        t = json.load(open(path))
        self.vocab = t['model']['vocab']
        self.cls, self.sep, self.unk, self.pad = (self.vocab[x] for x in ('[CLS]', '[SEP]', '[UNK]', '[PAD]'))
        self.cache = {}

    @staticmethod
    def _basic(text):
        text = unicodedata.normalize('NFD', text.lower())
        text = ''.join(c for c in text if unicodedata.category(c) != 'Mn')
        out = []
        for w in text.split():
            cur = ''
            for c in w:
                cat = unicodedata.category(c)
                if cat.startswith('P') or (33 <= ord(c) <= 47) or (58 <= ord(c) <= 64) or (91 <= ord(c) <= 96) or (123 <= ord(c) <= 126) or cat.startswith('S'):
                    if cur:
                        out.append(cur)
                    out.append(c)
                    cur = ''
                elif 0x4E00 <= ord(c) <= 0x9FFF:
                    if cur:
                        out.append(cur)
                    out.append(c)
                    cur = ''
                else:
                    cur += c
            if cur:
                out.append(cur)
        return out

    def _wp(self, w):
        if w in self.cache:
            return self.cache[w]
        ids, start = [], 0
        if len(w) > 100:
            return [self.unk]
        while start < len(w):
            end, cur = len(w), None
            while start < end:
                s = w[start:end] if start == 0 else '##' + w[start:end]
                if s in self.vocab:
                    cur = self.vocab[s]
                    break
                end -= 1
            if cur is None:
                ids = [self.unk]
                break
            ids.append(cur)
            start = end
        self.cache[w] = ids
        return ids

    def ids(self, text):
        return [i for w in self._basic(text) for i in self._wp(w)]

    def pair(self, a, b, max_len=192):
        ia, ib = self.ids(a)[:48], self.ids(b)
        ib = ib[:max_len - 3 - len(ia)]
        ids = [self.cls] + ia + [self.sep] + ib + [self.sep]
        types = [0] * (len(ia) + 2) + [1] * (len(ib) + 1)
        return ids, types

    def single(self, a, max_len=128):
        ia = self.ids(a)[:max_len - 2]
        return [self.cls] + ia + [self.sep], [0] * (len(ia) + 2)


def batch(encoded, pad=0):
    n = max(len(e[0]) for e in encoded)
    ids = torch.full((len(encoded), n), pad, dtype=torch.long)
    types = torch.zeros((len(encoded), n), dtype=torch.long)
    mask = torch.zeros((len(encoded), n), dtype=torch.long)
    for i, (a, t) in enumerate(encoded):
        ids[i, :len(a)] = torch.tensor(a)
        types[i, :len(t)] = torch.tensor(t)
        mask[i, :len(a)] = 1
    return ids, types, mask


class Layer(nn.Module):
    def __init__(self, h=384, heads=12, inter=1536):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v, self.o = (nn.Linear(h, h) for _ in range(4))
        self.ln1 = nn.LayerNorm(h, eps=1e-12)
        self.i = nn.Linear(h, inter)
        self.out = nn.Linear(inter, h)
        self.ln2 = nn.LayerNorm(h, eps=1e-12)
        self.drop = nn.Dropout(0.1)

    def forward(self, x, bias):
        b, n, h = x.shape
        d = h // self.heads
        split = lambda t: t.view(b, n, self.heads, d).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d) + bias, -1)
        ctx = (self.drop(att) @ v).transpose(1, 2).reshape(b, n, h)
        x = self.ln1(x + self.drop(self.o(ctx)))
        return self.ln2(x + self.drop(self.out(torch.nn.functional.gelu(self.i(x)))))


class Bert(nn.Module):
    def __init__(self, vocab=30522, h=384, layers=6):
        super().__init__()
        self.word = nn.Embedding(vocab, h)
        self.pos = nn.Embedding(512, h)
        self.typ = nn.Embedding(2, h)
        self.ln = nn.LayerNorm(h, eps=1e-12)
        self.layers = nn.ModuleList(Layer(h) for _ in range(layers))
        self.drop = nn.Dropout(0.1)
        self.head = nn.Linear(h, 1)

    def encode(self, ids, types, mask):
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        x = self.drop(self.ln(self.word(ids) + self.pos(pos) + self.typ(types)))
        bias = (1.0 - mask[:, None, None, :].float()) * -10000.0
        for layer in self.layers:
            x = layer(x, bias)
        return x

    def score(self, ids, types, mask):
        return self.head(self.encode(ids, types, mask)[:, 0]).squeeze(-1)

    def embed(self, ids, types, mask):
        x = self.encode(ids, types, mask)
        m = mask.unsqueeze(-1).float()
        v = (x * m).sum(1) / m.sum(1)
        return torch.nn.functional.normalize(v, dim=-1)


def load_onnx(path, layers=6):
    m = onnx.load(path)
    init = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    # The MatMul weights are unnamed: find each by the bias added to its output.
    producer = {o: n for n in m.graph.node for o in n.output}
    weight_for_bias = {}
    for n in m.graph.node:
        if n.op_type == 'Add':
            bias = [i for i in n.input if i in init and init[i].ndim == 1]
            other = [i for i in n.input if i not in init]
            if bias and other and other[0] in producer and producer[other[0]].op_type == 'MatMul':
                mm = producer[other[0]]
                w = [i for i in mm.input if i in init]
                if w:
                    weight_for_bias[bias[0]] = init[w[0]]
    model = Bert(layers=layers)
    sd = {'word.weight': init['embeddings.word_embeddings.weight'],
          'pos.weight': init['embeddings.position_embeddings.weight'],
          'typ.weight': init['embeddings.token_type_embeddings.weight'],
          'ln.weight': init['embeddings.LayerNorm.weight'], 'ln.bias': init['embeddings.LayerNorm.bias']}
    names = {'q': 'attention.self.query', 'k': 'attention.self.key', 'v': 'attention.self.value',
             'o': 'attention.output.dense', 'i': 'intermediate.dense', 'out': 'output.dense'}
    for l in range(layers):
        p = f'encoder.layer.{l}.'
        for short, long in names.items():
            sd[f'layers.{l}.{short}.bias'] = init[p + long + '.bias']
            sd[f'layers.{l}.{short}.weight'] = weight_for_bias[p + long + '.bias'].T
        sd[f'layers.{l}.ln1.weight'] = init[p + 'attention.output.LayerNorm.weight']
        sd[f'layers.{l}.ln1.bias'] = init[p + 'attention.output.LayerNorm.bias']
        sd[f'layers.{l}.ln2.weight'] = init[p + 'output.LayerNorm.weight']
        sd[f'layers.{l}.ln2.bias'] = init[p + 'output.LayerNorm.bias']
    sd = {k: torch.tensor(np.ascontiguousarray(v)) for k, v in sd.items()}
    missing = model.load_state_dict(sd, strict=False)
    assert set(missing.missing_keys) == {'head.weight', 'head.bias'}, missing
    return model
