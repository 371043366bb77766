"""B8's hand-written reference: MobileNetV2 (alpha 1.0, 224x224, with its 1000-way top) in PyTorch eager.

The architecture of ``keras.applications.MobileNetV2`` and of ``highlevel.applications.MobileNetV2`` written
with ``torch.nn`` modules (torchvision is not a dependency): a strided 3x3 stem of 32 filters, seventeen
inverted residual blocks (1x1 expansion, 3x3 depthwise, linear 1x1 projection; batch norm after each
convolution, ReLU6 after the first two, a residual connection where shapes allow), a 1x1 convolution to 1280
channels, global average pooling and a softmax dense layer. Strided convolutions pad one pixel on every side
where Keras pads only the bottom and right: the shapes and the work are the same.

``make_mobilenet_v2(x, y, batch)`` returns ``run()``: inference (``eval`` mode, ``torch.inference_mode``) over
``x`` (channels-last, as the other contestants get it) batch by batch, returning a float from the last output.

>>> import numpy as np
>>> run = make_mobilenet_v2(np.zeros((2, 32, 32, 3), np.float32), None, batch=1)
>>> 0.0 < run() < 1.0
True
"""

import numpy as np

#: (filters, stride, expansion) of the seventeen inverted residual blocks, as in highlevel's MobileNetV2.
BLOCKS = (
    (16, 1, 1),
    (24, 2, 6),
    (24, 1, 6),
    (32, 2, 6),
    (32, 1, 6),
    (32, 1, 6),
    (64, 2, 6),
    (64, 1, 6),
    (64, 1, 6),
    (64, 1, 6),
    (96, 1, 6),
    (96, 1, 6),
    (96, 1, 6),
    (160, 2, 6),
    (160, 1, 6),
    (160, 1, 6),
    (320, 1, 6),
)
STEM, LAST, CLASSES, BN_EPS = 32, 1280, 1000, 1e-3


def build():
    """The ``torch.nn.Module`` (inputs NCHW), in eval mode."""
    import torch

    nn = torch.nn
    torch.manual_seed(0)

    def conv_bn(cin, cout, k, stride=1, groups=1, relu=True):
        layers = [
            nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2, groups=groups, bias=False),
            nn.BatchNorm2d(cout, eps=BN_EPS),
        ]
        return layers + [nn.ReLU6()] if relu else layers

    class InvertedResidual(nn.Module):
        def __init__(self, cin, cout, stride, expansion):
            super().__init__()
            wide = cin * expansion
            layers = conv_bn(cin, wide, 1) if expansion != 1 else []
            layers += conv_bn(wide, wide, 3, stride, groups=wide)
            layers += conv_bn(wide, cout, 1, relu=False)
            self.body = nn.Sequential(*layers)
            self.residual = stride == 1 and cin == cout

        def forward(self, h):
            return h + self.body(h) if self.residual else self.body(h)

    layers, cin = conv_bn(3, STEM, 3, 2), STEM
    for filters, stride, expansion in BLOCKS:
        layers.append(InvertedResidual(cin, filters, stride, expansion))
        cin = filters
    layers += conv_bn(cin, LAST, 1)
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(LAST, CLASSES), nn.Softmax(dim=-1)]
    return nn.Sequential(*layers).eval()


def make_mobilenet_v2(x, y, batch):
    """``run()``: the model's forward pass over ``x`` in batches of ``batch`` (``y`` is unused)."""
    import torch

    model = build()
    xt = torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2)))
    spans = [(i, min(i + batch, len(x))) for i in range(0, len(x), batch)]

    def run():
        with torch.inference_mode():
            out = None
            for a, b in spans:
                out = model(xt[a:b])
            return float(out[-1, 0])

    return run
