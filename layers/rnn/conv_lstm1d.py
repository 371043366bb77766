"""ConvLSTM1D: a convolutional LSTM over sequences of 1-D feature maps."""

from .conv_lstm import ConvLSTM


class ConvLSTM1D(ConvLSTM):
    """1-D convolutional LSTM (``keras.layers.ConvLSTM1D``): an LSTM whose input and recurrent transforms
    are 1-D convolutions, so its states are feature maps.

    Args:
        filters, kernel_size, strides, padding, data_format, dilation_rate, activation,
        recurrent_activation, use_bias, kernel_initializer, recurrent_initializer, bias_initializer,
        unit_forget_bias, kernel_regularizer, recurrent_regularizer, bias_regularizer, activity_regularizer,
        kernel_constraint, recurrent_constraint, bias_constraint, dropout, recurrent_dropout, seed,
        return_sequences, return_state, go_backwards, stateful: as in :class:`ConvLSTM`.
        **kwargs: base layer arguments.

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
