import json
import sys
import time

import torch

from bert import Tok, batch, load_onnx

torch.manual_seed(23)
torch.set_num_threads(2)
minutes = float(sys.argv[1]) if len(sys.argv) > 1 else 40
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 10 ** 9
tok = Tok('m/all-minilm-l6-v2-tokenizer.json')
model = load_onnx('m/all-minilm-l6-v2.onnx')
pairs = json.load(open('pairs.json'))[:limit]
bs = 16
steps = len(pairs) // bs
opt = torch.optim.AdamW(model.parameters(), lr=3e-5, weight_decay=0.01)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / (0.05 * steps)) * max(0.0, 1 - s / steps))
loss_fn = torch.nn.BCEWithLogitsLoss()
model.train()
start = time.time()
for step in range(steps):
    chunk = pairs[step * bs:(step + 1) * bs]
    ids, types, mask = batch([tok.pair(q, p) for q, p, _ in chunk])
    y = torch.tensor([float(l) for _, _, l in chunk])
    loss = loss_fn(model.score(ids, types, mask), y)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    if step % 50 == 0:
        el = time.time() - start
        print(f'step {step}/{steps} loss {loss.item():.3f} {el:.0f}s ({el / (step + 1):.2f}s/step)', flush=True)
    if time.time() - start > minutes * 60:
        print(f'stopped at step {step} on time', flush=True)
        break
torch.save(model.state_dict(), 'ce.pt')
print('saved', time.time() - start)
