"""Sequence classification with a small Transformer block: token and position embeddings, MultiHeadAttention,
LayerNormalization, a feed-forward network, pooling.

The label says whether token 4 appears before token 5 in the sequence, which needs positions and attention.
"""

import numpy as np

import highlevel as keras
from highlevel import layers, ops


class TransformerBlock(layers.Layer):
    def __init__(self, embed_dim, num_heads, ff_dim, rate=0.1, **kwargs):
        super().__init__(**kwargs)
        self.att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.ffn = keras.Sequential([layers.Dense(ff_dim, activation="relu"), layers.Dense(embed_dim)])
        self.layernorm1 = layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = layers.Dropout(rate)
        self.dropout2 = layers.Dropout(rate)

    def call(self, inputs, training=False):
        attention = self.dropout1(self.att(inputs, inputs), training=training)
        h = self.layernorm1(inputs + attention)
        return self.layernorm2(h + self.dropout2(self.ffn(h), training=training))


class TokenAndPositionEmbedding(layers.Layer):
    def __init__(self, maxlen, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.token_emb = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.pos_emb = layers.Embedding(input_dim=maxlen, output_dim=embed_dim)

    def call(self, x):
        positions = ops.arange(0, ops.shape(x)[-1], 1)
        return self.token_emb(x) + self.pos_emb(positions)


def make_data(n, maxlen, rng):
    x = rng.integers(6, 12, size=(n, maxlen))
    y = rng.integers(0, 2, size=n)
    for i in range(n):
        a, b = sorted(rng.choice(maxlen, size=2, replace=False))
        x[i, a], x[i, b] = (4, 5) if y[i] else (5, 4)
    return x, y


def main():
    keras.utils.set_random_seed(16)
    rng = np.random.default_rng(16)
    maxlen, vocab_size, embed_dim = 8, 12, 16
    x, y = make_data(384, maxlen, rng)

    inputs = layers.Input(shape=(maxlen,))
    h = TokenAndPositionEmbedding(maxlen, vocab_size, embed_dim)(inputs)
    h = TransformerBlock(embed_dim, num_heads=2, ff_dim=32)(h)
    h = layers.GlobalAveragePooling1D()(h)
    h = layers.Dense(16, activation="relu")(h)
    outputs = layers.Dense(2, activation="softmax")(h)
    model = keras.Model(inputs=inputs, outputs=outputs)

    model.compile(optimizer=keras.optimizers.Adam(0.005), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x[:320], y[:320], batch_size=32, epochs=10, validation_data=(x[320:], y[320:]), verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0], history.history["loss"]
    assert history.history["val_accuracy"][-1] > 0.8, history.history["val_accuracy"]
    return {k: v[-1] for k, v in history.history.items()}
