"""AdditiveAttention: Bahdanau-style attention, ``sum(scale * tanh(query_i + key_j))`` scores."""

from highlevel import ops

from .attention import Attention


class AdditiveAttention(Attention):
    """Additive (Bahdanau-style) attention layer (``keras.layers.AdditiveAttention``).

    Like :class:`Attention`, but the score of query step ``i`` and key step ``j`` is
    ``sum(scale * tanh(query[i] + key[j]))`` over the feature axis, with ``scale`` a learned vector of the
    feature size (``glorot_uniform``) when ``use_scale`` (the default), else 1.

    Args:
        use_scale: whether to learn the ``scale`` vector (default True).
        dropout: float in ``[0, 1)``, the fraction of the attention weights to drop in training.
        seed: optional int seed for the dropout.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Call arguments: as :class:`Attention` (``inputs`` = ``[query, value]`` or ``[query, value, key]``,
    ``mask``, ``training``, ``return_attention_scores``, ``use_causal_mask``). The query and key must have the
    same feature size.

    Output shape: ``(batch, Tq, dim)``, plus the ``(batch, Tq, Tv)`` scores when asked.

    >>> import highlevel as hl
    >>> layer = hl.layers.AdditiveAttention()
    >>> hl.ops.shape(layer([hl.ops.ones((2, 3, 4)), hl.ops.ones((2, 5, 4))]))
    (2, 3, 4)
    >>> [w.path.split("/")[-1] for w in layer.weights]
    ['scale']
    """

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape):
        self._validate_inputs(input_shape)
        self._validate_shapes(input_shape)
        self.scale = None
        self.concat_score_weight = None
        if self.use_scale:
            self.scale = self.add_weight(shape=(input_shape[0][-1],), initializer="glorot_uniform", name="scale")
        self.built = True

    def _calculate_scores(self, query, key):
        summed = ops.tanh(ops.add(ops.expand_dims(query, -2), ops.expand_dims(key, -3)))
        if self.scale is not None:
            summed = ops.multiply(self.scale, summed)
        return ops.sum(summed, axis=-1)

    def get_config(self):
        config = super().get_config()
        del config["score_mode"]
        return config
