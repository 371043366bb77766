"""A small Transformer encoder block, written as a reusable Layer, trained on a generated sequence task.

The task (generated here, no download): each sequence holds 16 tokens drawn from a vocabulary of 12; the
label says which of the tokens 1, 2 and 3 occurs most often (ties are drawn away). Counting needs every
position to see the others, which is what self-attention does.

Runs on the native backend with no framework installed, and unchanged on any other backend:

    HIGHLEVEL_BACKEND=torch python examples/transformer_encoder.py
    python examples/transformer_encoder.py --quick     # fewer samples and epochs (what the tests run)

Exits with status 1 if the held-out accuracy is below the target (0.9; 0.75 with --quick).
"""

import os
import sys
import time

import numpy as np

import highlevel as hl

VOCAB, SEQ_LEN, NUM_CLASSES = 12, 16, 3


class PositionalEmbedding(hl.layers.Layer):
    """Token embedding plus a learned embedding of each position.

    Args:
        sequence_length: the (fixed) sequence length.
        vocab_size: the number of token ids.
        embed_dim: the embedding size.
    """

    def __init__(self, sequence_length, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.sequence_length, self.vocab_size, self.embed_dim = sequence_length, vocab_size, embed_dim
        self.token_embedding = hl.layers.Embedding(vocab_size, embed_dim)
        self.position_embedding = hl.layers.Embedding(sequence_length, embed_dim)

    def call(self, tokens):
        positions = hl.ops.arange(hl.ops.shape(tokens)[-1], dtype="int32")
        return hl.ops.add(self.token_embedding(tokens), self.position_embedding(positions))

    def get_config(self):
        config = super().get_config()
        config.update(sequence_length=self.sequence_length, vocab_size=self.vocab_size, embed_dim=self.embed_dim)
        return config


class TransformerEncoder(hl.layers.Layer):
    """One post-norm Transformer encoder block: self-attention and a feed-forward network, each followed by a
    residual connection and layer normalization.

    Args:
        embed_dim: the feature size of the inputs and outputs.
        num_heads: attention heads (each of size ``embed_dim // num_heads``).
        ff_dim: the hidden size of the feed-forward network.
        dropout: dropout rate after the attention and the feed-forward network (training only).

    Call arguments:
        inputs: ``(batch, steps, embed_dim)``.
        training: whether dropout is active.
        padding_mask: optional bool ``(batch, steps)``, False at padding positions (they receive no attention).

    >>> import highlevel as hl
    >>> block = TransformerEncoder(embed_dim=8, num_heads=2, ff_dim=16)
    >>> hl.ops.shape(block(hl.ops.ones((2, 5, 8))))
    (2, 5, 8)
    """

    def __init__(self, embed_dim, num_heads, ff_dim, dropout=0.1, **kwargs):
        super().__init__(**kwargs)
        self.embed_dim, self.num_heads, self.ff_dim, self.dropout = embed_dim, num_heads, ff_dim, dropout
        self.attention = hl.layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim // num_heads)
        self.norm1 = hl.layers.LayerNormalization(epsilon=1e-6)
        self.norm2 = hl.layers.LayerNormalization(epsilon=1e-6)
        self.ff_hidden = hl.layers.Dense(ff_dim, activation="relu")
        self.ff_out = hl.layers.Dense(embed_dim)
        self.drop1 = hl.layers.Dropout(dropout)
        self.drop2 = hl.layers.Dropout(dropout)

    def call(self, inputs, training=None, padding_mask=None):
        attended = self.attention(inputs, inputs, query_mask=padding_mask, value_mask=padding_mask, training=training)
        x = self.norm1(hl.ops.add(inputs, self.drop1(attended, training=training)))
        ff = self.ff_out(self.ff_hidden(x))
        return self.norm2(hl.ops.add(x, self.drop2(ff, training=training)))

    def get_config(self):
        config = super().get_config()
        config.update(embed_dim=self.embed_dim, num_heads=self.num_heads, ff_dim=self.ff_dim, dropout=self.dropout)
        return config


def make_data(n, seed):
    """``n`` sequences of SEQ_LEN tokens and the label: which of tokens 1, 2, 3 is the most frequent."""
    rng = np.random.default_rng(seed)
    x = np.zeros((0, SEQ_LEN), "int32")
    y = np.zeros((0,), "int32")
    while len(x) < n:
        batch = rng.integers(0, VOCAB, size=(2 * n, SEQ_LEN)).astype("int32")
        counts = np.stack([(batch == t).sum(1) for t in (1, 2, 3)], axis=1)
        top = np.sort(counts, axis=1)
        keep = top[:, -1] > top[:, -2]  # a unique winner
        x = np.concatenate([x, batch[keep]])
        y = np.concatenate([y, counts[keep].argmax(1).astype("int32")])
    return x[:n], y[:n]


def build_model(embed_dim=32, num_heads=4, ff_dim=64):
    tokens = hl.Input((SEQ_LEN,), dtype="int32")
    x = PositionalEmbedding(SEQ_LEN, VOCAB, embed_dim)(tokens)
    x = TransformerEncoder(embed_dim, num_heads, ff_dim)(x)
    x = hl.ops.mean(x, axis=1)  # average over the sequence
    return hl.Model(tokens, hl.layers.Dense(NUM_CLASSES)(x))


def main(quick=False, verbose=1):
    hl.utils.set_random_seed(0)
    n_train, epochs = (800, 3) if quick else (3000, 6)
    x_train, y_train = make_data(n_train, seed=1)
    x_test, y_test = make_data(1000, seed=2)
    model = build_model()
    model.compile(
        optimizer=hl.optimizers.Adam(learning_rate=3e-3),
        loss=hl.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    if verbose:
        model.summary()
    start = time.perf_counter()
    model.fit(x_train, y_train, batch_size=32, epochs=epochs, verbose=verbose)
    seconds = time.perf_counter() - start
    logs = model.evaluate(x_test, y_test, verbose=0, return_dict=True)
    loss, accuracy = logs["loss"], logs["accuracy"]
    print(
        f"backend {hl.config.backend()}: test accuracy {accuracy:.4f} (loss {loss:.4f}) "
        f"after {seconds:.1f} s of training"
    )
    return accuracy


if __name__ == "__main__":
    quick = "--quick" in sys.argv[1:] or os.environ.get("HIGHLEVEL_EXAMPLE_QUICK") == "1"
    target = 0.75 if quick else 0.9
    sys.exit(0 if main(quick=quick, verbose=1) >= target else 1)
