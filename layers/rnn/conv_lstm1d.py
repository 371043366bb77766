"""ConvLSTM1D: a convolutional LSTM over sequences of 1-D feature maps."""

from .conv_lstm import ConvLSTM


class ConvLSTM1D(ConvLSTM):
    """1-D convolutional LSTM (``keras.layers.ConvLSTM1D``): an LSTM whose input and recurrent transforms
    are 1-D convolutions, so its states are feature maps.

    Args:
        filters: positive int, the number of channels of the output and of the states.
        kernel_size: int or tuple of 1 int, the convolution window of both the input and the recurrent convolutions.
        strides: int or tuple of 1 int (default 1), the strides of the input convolution.
        padding: ``"valid"`` (default, the maps shrink by ``kernel_size - 1``) or ``"same"`` (they keep their size).
        data_format: ``"channels_last"`` or ``"channels_first"``; None (default) uses ``hl.config.image_data_format()``.
        dilation_rate: int or tuple of 1 int (default 1), the dilation of the input convolution.
        activation: activation of the candidate and of the cell state (default ``"tanh"``).
        recurrent_activation: activation of the gates (default ``"sigmoid"``).
        use_bias: whether the cell adds a bias vector (default True).
        kernel_initializer: initializer of the input kernel (default ``"glorot_uniform"``).
        recurrent_initializer: initializer of the recurrent kernel (default ``"orthogonal"``).
        bias_initializer: initializer of the bias (default ``"zeros"``).
        unit_forget_bias: if True (default), the forget gate's bias starts at 1.
        kernel_regularizer: optional regularizer of the input kernel.
        recurrent_regularizer: optional regularizer of the recurrent kernel.
        bias_regularizer: optional regularizer of the bias.
        activity_regularizer: optional regularizer of the layer's output.
        kernel_constraint: optional constraint applied to the input kernel after each update.
        recurrent_constraint: optional constraint applied to the recurrent kernel after each update.
        bias_constraint: optional constraint applied to the bias after each update.
        dropout: float in [0, 1], the fraction of the inputs' units dropped during training (one mask for all steps;
            default 0).
        recurrent_dropout: float in [0, 1], the fraction of the previous state's units dropped during training (default
            0).
        seed: optional int, the seed of the dropout masks.
        return_sequences: if True, return the output of every step ``(batch, time, ..., filters)``; otherwise only the
            last ``(batch, ..., filters)`` (default False).
        return_state: if True, also return the final state(s) after the output (default False).
        go_backwards: if True, read the sequence from its last step to its first (and return the outputs reversed).
        stateful: if True, the final states of a batch are the initial states of the next one (sample ``i`` continues
            sample ``i``); call ``reset_states()`` between independent sequences.
        **kwargs: base layer arguments (``name``, ``dtype``...).

    Input shape: ``(batch, time, steps, channels)`` for ``channels_last`` (channels before the spatial axes for
    ``channels_first``). A mask ``(batch, time)`` keeps the previous states at masked steps.

    >>> import highlevel as hl
    >>> layer = hl.layers.ConvLSTM1D(2, 3)
    >>> hl.ops.shape(layer(hl.ops.ones((2, 4, 6, 1))))
    (2, 4, 2)
    """

    def __init__(
        self,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
        activation="tanh",
        recurrent_activation="sigmoid",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        unit_forget_bias=True,
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        **kwargs,
    ):
        super().__init__(
            1,
            filters,
            kernel_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
            activation=activation,
            recurrent_activation=recurrent_activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer,
            unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint,
            dropout=dropout,
            recurrent_dropout=recurrent_dropout,
            seed=seed,
            return_sequences=return_sequences,
            return_state=return_state,
            go_backwards=go_backwards,
            stateful=stateful,
            **kwargs,
        )
