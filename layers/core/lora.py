"""Low-rank adaptation (LoRA) of a layer's weight matrix, shared by Dense, EinsumDense, Embedding and the convolutions.

With LoRA on, the layer's weight ``w`` (the kernel, or the embeddings table) is frozen and the layer computes
with ``w + (lora_alpha / lora_rank) * (a @ b)``, where ``a`` has shape ``w.shape[:-1] + (rank,)`` and ``b`` shape
``(rank, w.shape[-1])``; only ``a`` and ``b`` (float32) train. Saving writes the merged weight in the slot of
``w`` (the layout of a layer without LoRA, the one Keras writes) and loading zeroes the factors, so files move
both ways with Keras.
"""

import numbers

from highlevel import initializers, ops


def _check_rank(rank, name="lora_rank"):
    if isinstance(rank, bool) or not isinstance(rank, numbers.Integral) or rank <= 0:
        raise ValueError(f"`{name}` must be a positive integer (the rank of the LoRA factors). Received: {rank!r}.")
    return int(rank)


def _check_alpha(alpha):
    if alpha is not None and (isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or alpha <= 0):
        raise ValueError(
            "`lora_alpha` must be a positive number (the factors' update is scaled by lora_alpha / lora_rank) "
            f"or None (then it equals the rank). Received: lora_alpha={alpha!r}."
        )
    return alpha


class LoRAMixin:
    """Adds ``enable_lora`` and the ``lora_rank`` / ``lora_alpha`` arguments to a layer with one weight matrix.

    A layer using it calls :meth:`_init_lora` in ``__init__``, :meth:`_build_lora` at the end of ``build``,
    computes with :meth:`_lora_weight` (the weight LoRA adjusts, merged) and adds :meth:`_lora_config` to its
    config. The class attributes name the weight, its factors and the regularizer / constraint attributes.

    >>> import highlevel as hl
    >>> layer = hl.layers.Dense(3)
    >>> layer.build((None, 4))
    >>> layer.enable_lora(2)
    >>> [w.path for w in layer.trainable_weights]
    ['dense/bias', 'dense/lora_kernel_a', 'dense/lora_kernel_b']
    """

    _lora_target = "kernel"
    _lora_factor_names = ("lora_kernel_a", "lora_kernel_b")
    _lora_regularizer_attr = "kernel_regularizer"
    _lora_constraint_attr = "kernel_constraint"

    def _init_lora(self, lora_rank, lora_alpha):
        self.lora_rank = None if lora_rank is None else _check_rank(lora_rank)
        self.lora_alpha = _check_alpha(lora_alpha)
        if self.lora_alpha is None:
            self.lora_alpha = self.lora_rank
        self.lora_enabled = False

    def _build_lora(self):
        if self.lora_rank and not self.lora_enabled:
            self.enable_lora(self.lora_rank, lora_alpha=self.lora_alpha)

    def enable_lora(self, rank, lora_alpha=None, a_initializer="he_uniform", b_initializer="zeros"):
        """Freezes the layer's weight matrix and adds the two trainable low-rank factors that adjust it.

        Args:
            rank: positive int, the rank of the update (the factors' inner size).
            lora_alpha: the update is scaled by ``lora_alpha / rank``; None means ``rank`` (a scale of 1).
            a_initializer: initializer of the first factor (default ``"he_uniform"``).
            b_initializer: initializer of the second factor (default ``"zeros"``, so the layer's output does
                not change when LoRA is enabled).

        Raises:
            ValueError: the layer has a constraint on that weight, is not built yet, or has LoRA on already.
        """
        target = self._lora_target
        if getattr(self, self._lora_constraint_attr, None) is not None:
            raise ValueError(
                f"Layer '{self.name}' has a `{self._lora_constraint_attr}`, which LoRA cannot honour (the "
                f"adjusted {target} is no longer a variable to constrain). Create the layer without "
                f"`{self._lora_constraint_attr}` to enable LoRA on it."
            )
        if not self.built:
            raise ValueError(
                f"Cannot enable LoRA on layer '{self.name}': it is not built yet, so its {target} does not "
                "exist. Build it first (call it on data, or `layer.build(input_shape)`), or pass `lora_rank=` "
                "to the constructor to enable LoRA when it is built."
            )
        if self.lora_enabled:
            raise ValueError(
                f"LoRA is already enabled on layer '{self.name}' (rank {self.lora_rank}); it can be enabled "
                "only once per layer."
            )
        rank = _check_rank(rank, "rank")
        lora_alpha = _check_alpha(lora_alpha)
        weight = getattr(self, target)
        shape = tuple(self._lora_weight_shape())
        regularizer = getattr(self, self._lora_regularizer_attr, None)
        name_a, name_b = self._lora_factor_names
        # float32 factors: small updates neither underflow nor overflow under a reduced-precision policy.
        factor_a = self.add_weight(
            shape=shape[:-1] + (rank,),
            initializer=initializers.get(a_initializer),
            dtype="float32",
            regularizer=regularizer,
            name=name_a,
        )
        factor_b = self.add_weight(
            shape=(rank, shape[-1]),
            initializer=initializers.get(b_initializer),
            dtype="float32",
            regularizer=regularizer,
            name=name_b,
        )
        setattr(self, name_a, factor_a)
        setattr(self, name_b, factor_b)
        weight.trainable = False
        self.lora_enabled = True
        self.lora_rank = rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else rank

    def _lora_weight_shape(self):
        """The shape of the float weight LoRA adjusts (a quantized layer stores it packed)."""
        return tuple(getattr(self, self._lora_target).shape)

    def _lora_factors(self):
        return tuple(getattr(self, name) for name in self._lora_factor_names)

    def _lora_delta(self):
        """``(lora_alpha / lora_rank) * (a @ b)``, of the weight's shape (float32)."""
        a, b = self._lora_factors()
        return ops.multiply(ops.matmul(a, b), self.lora_alpha / self.lora_rank)

    def _lora_weight(self):
        """The weight the layer computes with: the variable itself, or with LoRA on the merged weight in the
        compute dtype."""
        weight = getattr(self, self._lora_target)
        if not self.lora_enabled:
            return weight
        merged = ops.add(ops.cast(weight, "float32"), self._lora_delta())
        return ops.cast(merged, self.compute_dtype)

    def _lora_config(self):
        return {"lora_rank": self.lora_rank, "lora_alpha": self.lora_alpha} if self.lora_rank else {}

    def _uses_own_state_hooks(self):
        """Whether saving goes through this layer's ``save_own_variables`` (with LoRA on, or when a subclass
        overrides the hooks); otherwise its variables are saved by position like any layer's."""
        cls = type(self)
        return (
            self.lora_enabled
            or cls.save_own_variables not in LIBRARY_STATE_HOOKS
            or cls.load_own_variables not in LIBRARY_STATE_HOOKS
        )

    def _lora_saved_variables(self):
        factors = {id(v) for v in self._lora_factors()} if self.lora_enabled else set()
        return [v for v in self._own_variables() if id(v) not in factors]

    def save_own_variables(self, store):
        """Writes the layer's variables as a layer without LoRA has them, the weight merged with its factors."""
        if not self.lora_enabled:
            return super().save_own_variables(store)
        target = getattr(self, self._lora_target)
        merged = ops.add(ops.cast(target, "float32"), self._lora_delta())
        merged = ops.convert_to_numpy(ops.cast(merged, target.dtype))
        for i, v in enumerate(self._lora_saved_variables()):
            store[str(i)] = merged if v is target else v.numpy()

    def load_own_variables(self, store):
        """Reads what :meth:`save_own_variables` writes; with LoRA on, the factors restart from zero (the
        loaded weight holds their update already)."""
        if not self.lora_enabled:
            return super().load_own_variables(store)
        own = self._lora_saved_variables()
        if len(store) != len(own):
            raise ValueError(
                f"Layer '{self.name}' (LoRA on) expects {len(own)} saved variables ({[v.path for v in own]}) "
                f"but the saved state holds {len(store)} ({sorted(store)}). Build the same layer."
            )
        for i, v in enumerate(own):
            value = store[str(i)]
            if tuple(value.shape) != tuple(v.shape):
                raise ValueError(
                    f"Layer '{self.name}': variable '{v.path}' has shape {tuple(v.shape)} but the saved value "
                    f"has shape {tuple(value.shape)}."
                )
            v.assign(value)
        for factor in self._lora_factors():
            factor.assign(ops.zeros(tuple(factor.shape), dtype=factor.dtype))


#: The state hooks of the library's own mixins (LoRA here, quantization in ``quantization.py``): a layer whose
#: hooks are among them saves its variables by position unless its state asks otherwise (LoRA on, quantized);
#: a hook a user's subclass defines always goes through ``save_own_variables``.
LIBRARY_STATE_HOOKS = {LoRAMixin.save_own_variables, LoRAMixin.load_own_variables}
