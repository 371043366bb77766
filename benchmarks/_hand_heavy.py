"""Hand-written PyTorch eager training loops of the heavier workloads B5-B7 (see ``_workloads.py``).

The same architectures as the highlevel/Keras models, written with ``torch.nn`` modules and
``torch.optim.Adam`` (epsilon 1e-7, as Keras): B5 a Transformer encoder classifier, B6 a 2-layer LSTM (and
its ``Bidirectional`` variant), B7 a ResNet-style CNN. Each ``make_*`` returns ``epoch()``: one pass over
the data in consecutive batches, returning the last loss as a float. They are also the reference the native
engine is held to (its target is at most 2x PyTorch eager on these workloads), so the native backend's
"hand" column on B5-B7 is this PyTorch loop.

>>> import numpy as np
>>> x = np.zeros((4, 128), np.int64); y = np.zeros(4, np.int64)
>>> 0.0 < make_transformer(x, y, batch=2)() < 10.0
True
"""

import numpy as np

VOCAB, SEQ, WIDTH, HEADS, FF, BLOCKS, CLASSES = 1000, 128, 128, 4, 256, 2, 10
RNN_SEQ, RNN_FEATURES, RNN_UNITS = 64, 32, 128
IMAGE, STEM, BN_EPS, BN_MOMENTUM = (32, 32, 3), 32, 1e-3, 0.99
_EPS = 1e-7


def _torch():
    import torch

    return torch


def _epoch(model, forward, x, y, batch):
    torch = _torch()
    opt = torch.optim.Adam(model.parameters(), 1e-3, eps=_EPS)
    lossf = torch.nn.CrossEntropyLoss()
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    spans = [(i * batch, (i + 1) * batch) for i in range(len(x) // batch)]

    def epoch():
        loss = None
        for a, b in spans:
            opt.zero_grad()
            loss = lossf(forward(xt[a:b]), yt[a:b])
            loss.backward()
            opt.step()
        return float(loss)

    return epoch


def make_transformer(x, y, batch):
    """B5: embedding, 2 post-norm encoder blocks (4-head self-attention, ReLU feed-forward), mean pool, dense."""
    torch = _torch()
    nn = torch.nn
    torch.manual_seed(0)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.att = nn.MultiheadAttention(WIDTH, HEADS, batch_first=True)
            self.ln1, self.ln2 = nn.LayerNorm(WIDTH, eps=1e-6), nn.LayerNorm(WIDTH, eps=1e-6)
            self.ff1, self.ff2 = nn.Linear(WIDTH, FF), nn.Linear(FF, WIDTH)

        def forward(self, h):
            h = self.ln1(h + self.att(h, h, h, need_weights=False)[0])
            return self.ln2(h + self.ff2(torch.relu(self.ff1(h))))

    model = nn.ModuleDict(
        {"emb": nn.Embedding(VOCAB, WIDTH), "blocks": nn.Sequential(*[Block() for _ in range(BLOCKS)])}
    )
    model["head"] = nn.Linear(WIDTH, CLASSES)

    def forward(xb):
        return model["head"](model["blocks"](model["emb"](xb)).mean(dim=1))

    return _epoch(model, forward, x, y, batch)


def make_lstm(x, y, batch, bidirectional=False):
    """B6: two stacked LSTM layers of 128 units (the second returns its last output), then a dense layer."""
    torch = _torch()
    nn = torch.nn
    torch.manual_seed(0)
    directions = 2 if bidirectional else 1
    model = nn.ModuleDict(
        {
            "rnn": nn.LSTM(RNN_FEATURES, RNN_UNITS, num_layers=2, batch_first=True, bidirectional=bidirectional),
            "head": nn.Linear(RNN_UNITS * directions, CLASSES),
        }
    )

    def forward(xb):
        seq, (h, _) = model["rnn"](xb)
        # Keras' last output: the forward direction's final step (+ the backward direction's, which is h[-1])
        last = torch.cat([h[-2], h[-1]], dim=1) if bidirectional else h[-1]
        return model["head"](last)

    return _epoch(model, forward, x, y, batch)


def make_resnet(x, y, batch):
    """B7: conv stem, two residual blocks (the second strided, with a 1x1 projection), global pool, dense."""
    torch = _torch()
    nn = torch.nn
    torch.manual_seed(0)

    def conv_bn(cin, cout, k=3, stride=1):
        return [
            nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2, bias=False),
            nn.BatchNorm2d(cout, eps=BN_EPS, momentum=1 - BN_MOMENTUM),
        ]

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.body = nn.Sequential(*conv_bn(cin, cout, 3, stride), nn.ReLU(), *conv_bn(cout, cout))
            self.skip = nn.Sequential(*conv_bn(cin, cout, 1, stride)) if stride != 1 or cin != cout else None

        def forward(self, h):
            return torch.relu(self.body(h) + (h if self.skip is None else self.skip(h)))

    model = nn.Sequential(
        *conv_bn(IMAGE[2], STEM),
        nn.ReLU(),
        Block(STEM, STEM, 1),
        Block(STEM, 2 * STEM, 2),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(2 * STEM, CLASSES),
    )
    xt = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
    return _epoch(model, model, xt, y, batch)


MAKERS = {
    "transformer": make_transformer,
    "lstm": make_lstm,
    "bilstm": lambda x, y, batch: make_lstm(x, y, batch, bidirectional=True),
    "resnet": make_resnet,
}
