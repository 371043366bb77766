"""Conformance cases of the recurrent layers: every recurrent layer over 20 time steps.

The runner calls a layer on one tensor (or a list) with no other arguments, so the cells (which take
``(inputs, states)``) and the masked runs go through :class:`_Call`, a wrapper without weights of its own:
the weights the runner draws and the gradients it compares are the wrapped layer's. Layers whose cell must
share the layer's dtype are made by ``build`` (the runner's reference runs in float64).
"""

import numpy as np

import highlevel as hl

from .layer_case import LayerCase, normal

STEPS = 20  # the issue asks for recurrences over 20 time steps


class _Call(hl.layers.Layer):
    """Calls ``inner`` on the runner's inputs: a cell as ``inner(x, [states...])[0]`` (``cell=True``), an
    RNN with a constant ``mask``, or an RNN with ``initial_state`` taken from the trailing inputs."""

    def __init__(self, inner, cell=False, mask=None, initial_state=False):
        super().__init__(dtype=inner.dtype)
        self.inner = inner
        self.cell = cell
        self.mask = mask
        self.initial_state = initial_state

    def call(self, inputs):
        if self.cell:
            x, *states = inputs
            return self.inner(x, list(states))[0]
        if self.initial_state:
            x, *states = inputs
            return self.inner(x, initial_state=list(states))
        mask = None if self.mask is None else hl.ops.convert_to_tensor(self.mask)
        return self.inner(inputs, mask=mask)


def _lengths_mask(batch, steps, lengths):
    return np.arange(steps)[None, :] < np.asarray(lengths)[:, None]


def _cell(cls_name, **kwargs):
    return lambda dtype: _Call(getattr(hl.layers, cls_name)(dtype=dtype, **kwargs), cell=True)


def _rnn_over(*cells, **kwargs):
    def build(dtype):
        made = [getattr(hl.layers, name)(units, dtype=dtype) for name, units in cells]
        cell = made[0] if len(made) == 1 else hl.layers.StackedRNNCells(made, dtype=dtype)
        return hl.layers.RNN(cell, dtype=dtype, **kwargs)

    return build


def _masked(cls_name, mask, **kwargs):
    return lambda dtype: _Call(getattr(hl.layers, cls_name)(dtype=dtype, **kwargs), mask=mask)


def _bidirectional(merge_mode, **kwargs):
    return lambda dtype: hl.layers.Bidirectional(
        hl.layers.LSTM(3, dtype=dtype, **kwargs), merge_mode=merge_mode, dtype=dtype
    )


def _time_distributed(dtype):
    return hl.layers.TimeDistributed(hl.layers.Dense(4, dtype=dtype), dtype=dtype)


MASK = _lengths_mask(2, STEPS, [STEPS, 13])
MASK[1, :3] = False  # leading padding too
L = LayerCase
CASES = [
    # cells: one step, gradients also with respect to the incoming states
    L(
        "simple_rnn_cell",
        "SimpleRNNCell",
        inputs=[normal(3, 4), normal(3, 5)],
        like="matmul",
        build=_cell("SimpleRNNCell", units=5),
    ),
    L(
        "lstm_cell",
        "LSTMCell",
        inputs=[normal(3, 4), normal(3, 5), normal(3, 5)],
        like="matmul",
        build=_cell("LSTMCell", units=5),
    ),
    L("gru_cell", "GRUCell", inputs=[normal(3, 4), normal(3, 5)], like="matmul", build=_cell("GRUCell", units=5)),
    L(
        "gru_cell_reset_before",
        "GRUCell",
        inputs=[normal(3, 4), normal(3, 5)],
        like="matmul",
        build=_cell("GRUCell", units=5, reset_after=False),
    ),
    # full layers over 20 steps
    L("simple_rnn_20", "SimpleRNN", {"units": 4, "return_sequences": True}, normal(2, STEPS, 3), like="matmul"),
    L(
        "simple_rnn_20_backwards_unrolled",
        "SimpleRNN",
        {"units": 4, "go_backwards": True, "unroll": True},
        normal(2, STEPS, 3),
        like="matmul",
    ),
    L("lstm_20", "LSTM", {"units": 4}, normal(2, STEPS, 3), like="matmul"),
    L(
        "lstm_20_sequences_backwards",
        "LSTM",
        {"units": 3, "return_sequences": True, "go_backwards": True},
        normal(2, STEPS, 3),
        like="matmul",
    ),
    L(
        "lstm_20_initial_state",
        "LSTM",
        inputs=[normal(2, STEPS, 3), normal(2, 4), normal(2, 4)],
        like="matmul",
        build=lambda dtype: _Call(hl.layers.LSTM(4, dtype=dtype, return_sequences=True), initial_state=True),
    ),
    L(
        "lstm_20_masked",
        "LSTM",
        inputs=normal(2, STEPS, 3),
        like="matmul",
        build=_masked("LSTM", MASK, units=4, return_sequences=True),
    ),
    L(
        "lstm_20_dropout",
        "LSTM",
        {"units": 4, "dropout": 0.3, "recurrent_dropout": 0.2, "seed": 3},
        normal(2, STEPS, 3),
        like="matmul",
        modes=(False, True),
        random=True,
    ),
    L("gru_20", "GRU", {"units": 4, "return_sequences": True}, normal(2, STEPS, 3), like="matmul"),
    L("gru_20_reset_before", "GRU", {"units": 4, "reset_after": False}, normal(2, STEPS, 3), like="matmul"),
    L(
        "gru_20_masked_backwards",
        "GRU",
        inputs=normal(2, STEPS, 3),
        like="matmul",
        build=_masked("GRU", MASK, units=3, go_backwards=True),
    ),
    L(
        "rnn_lstm_cell_20",
        "RNN",
        inputs=normal(2, STEPS, 3),
        like="matmul",
        build=_rnn_over(("LSTMCell", 3), return_sequences=True),
    ),
    L(
        "stacked_cells_20",
        "StackedRNNCells",
        inputs=normal(2, STEPS, 3),
        like="matmul",
        build=_rnn_over(("LSTMCell", 3), ("GRUCell", 4), ("SimpleRNNCell", 2)),
    ),
    L(
        "bidirectional_concat_20",
        "Bidirectional",
        inputs=normal(2, STEPS, 3),
        like="matmul",
        build=_bidirectional("concat", return_sequences=True),
    ),
    L("bidirectional_sum_20", "Bidirectional", inputs=normal(2, STEPS, 3), like="matmul", build=_bidirectional("sum")),
    L("time_distributed_dense", "TimeDistributed", inputs=normal(2, STEPS, 3), like="matmul", build=_time_distributed),
    # convolutional LSTMs: a few steps of small feature maps
    L(
        "conv_lstm1d",
        "ConvLSTM1D",
        {"filters": 2, "kernel_size": 3, "return_sequences": True},
        normal(2, 5, 6, 2),
        like="conv",
    ),
    L(
        "conv_lstm1d_masked_backwards",
        "ConvLSTM1D",
        inputs=normal(2, 5, 6, 2),
        like="conv",
        build=_masked("ConvLSTM1D", MASK[:, :5], filters=2, kernel_size=3, padding="same", go_backwards=True),
    ),
    L(
        "conv_lstm2d",
        "ConvLSTM2D",
        {"filters": 2, "kernel_size": 3, "padding": "same"},
        normal(2, 4, 4, 4, 1),
        like="conv",
    ),
    L(
        "conv_lstm3d",
        "ConvLSTM3D",
        {"filters": 2, "kernel_size": 2, "strides": 2},
        normal(1, 3, 4, 4, 4, 1),
        like="conv",
    ),
]
