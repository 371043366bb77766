"""``FeatureSpace``: one object that preprocesses and encodes the columns of structured (tabular) data.

Each feature (a column of a dict of arrays) gets a preprocessing layer (normalization, rescaling,
discretization, an integer or string lookup, hashing, or one of your own); crosses of features are hashed into
a fixed number of bins; features and crosses with ``output_mode="one_hot"`` are one-hot encoded; and the results
are concatenated into one float vector per sample (``output_mode="concat"``) or returned as a dict
(``output_mode="dict"``).

The layers run on the host where they read strings, so a FeatureSpace is called on data (a dict of arrays, or
inside ``tf.data``'s ``Dataset.map``, where it runs through ``tf.numpy_function``) rather than traced into a
compiled step. ``get_inputs()`` / ``get_encoded_features()`` build the symbolic version for a functional model
when every feature is numeric (highlevel has no symbolic string tensors).

>>> import numpy as np
>>> space = FeatureSpace({"age": "float_normalized", "city": "string_categorical"}, output_mode="concat")
>>> space.adapt({"age": np.array([20.0, 40.0, 60.0]), "city": np.array(["Paris", "Oslo", "Paris"])})
>>> out = space({"age": np.array([40.0]), "city": np.array(["Oslo"])})
>>> [round(float(v), 3) for v in np.asarray(out)[0]]
[0.0, 0.0, 0.0, 1.0]
"""

import importlib

import numpy as np

from highlevel.layer import Layer
from highlevel.naming import unique_name


def _layers():
    from highlevel import layers

    return layers


class Cross:
    """A cross of features, hashed into ``crossing_dim`` bins (``FeatureSpace.cross``).

    Args:
        feature_names: the names of the crossed features.
        crossing_dim: the number of bins.
        output_mode: ``"one_hot"`` or ``"int"``.
    """

    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        if output_mode not in ("int", "one_hot"):
            raise ValueError(f"A cross's `output_mode` must be 'int' or 'one_hot'; received {output_mode!r}.")
        self.feature_names = tuple(feature_names)
        self.crossing_dim = crossing_dim
        self.output_mode = output_mode

    @property
    def name(self):
        return "_X_".join(self.feature_names)

    def get_config(self):
        return {"feature_names": self.feature_names, "crossing_dim": self.crossing_dim, "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Feature:
    """A feature: its input dtype, its preprocessing layer and how its output is encoded
    (``FeatureSpace.feature``).

    Args:
        dtype: ``"float32"``, ``"int32"``/``"int64"`` or ``"string"``: what the column holds.
        preprocessor: a layer (anything callable; ``adapt(data)`` is called when it has one), or its
            serialized config.
        output_mode: ``"float"`` (used as is), ``"int"`` (integer indices) or ``"one_hot"`` (one-hot encoded;
            the preprocessor must give integers in a known range).
    """

    def __init__(self, dtype, preprocessor, output_mode):
        if output_mode not in ("int", "one_hot", "float"):
            raise ValueError(
                f"A feature's `output_mode` must be 'int', 'one_hot' or 'float'; received {output_mode!r}."
            )
        self.dtype = dtype
        if isinstance(preprocessor, dict):
            preprocessor = _layers().deserialize(preprocessor)
        self.preprocessor = preprocessor
        self.output_mode = output_mode

    def get_config(self):
        return {
            "dtype": self.dtype,
            "preprocessor": _layers().serialize(self.preprocessor),
            "output_mode": self.output_mode,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _is_tf_graph_tensor(x):
    """A symbolic tensor of a ``tf.data`` pipeline (recognised by what it offers: a graph, no value)."""
    return type(x).__module__.startswith("tensorflow") and hasattr(x, "graph") and not hasattr(x, "numpy")


def _to_host(x, dtype):
    from highlevel import ops

    if hasattr(x, "numpy") and not isinstance(x, np.ndarray):
        x = x.numpy() if not ops.is_tensor(x) else ops.convert_to_numpy(x)
    elif ops.is_tensor(x):
        x = ops.convert_to_numpy(x)
    array = np.asarray(x)
    if dtype == "string":
        if array.dtype.kind in "OS":
            flat = [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in array.reshape(-1).tolist()]
            array = np.asarray(flat, dtype=str).reshape(array.shape)
        return array.astype(str)
    if dtype.startswith("int"):
        return array.astype("int64")
    return array.astype(dtype)


class FeatureSpace(Layer):
    """Preprocesses and encodes a dict of feature columns (``keras.utils.FeatureSpace``).

    Args:
        features: a dict from feature name to its type: a name such as ``"float_normalized"`` or
            ``"string_categorical"`` (with the default arguments) or a :class:`Feature` from the class methods
            (``FeatureSpace.float()``, ``float_rescaled``, ``float_normalized``, ``float_discretized``,
            ``integer_categorical``, ``string_categorical``, ``integer_hashed``, ``string_hashed``, ``feature``).
        output_mode: ``"concat"`` (one float vector per sample) or ``"dict"`` (one entry per feature and cross).
        crosses: features to cross: tuples of feature names, or ``FeatureSpace.cross(...)``.
        crossing_dim: the number of hash bins of crosses given as tuples.
        hashing_dim: the number of bins of ``"integer_hashed"``/``"string_hashed"`` given by name.
        num_discretization_bins: the number of bins of ``"float_discretized"`` given by name.
        name: the layer's name.

    Call ``adapt(data)`` on the training data first (it learns normalization statistics, vocabularies and bin
    boundaries), then call the FeatureSpace on a dict of arrays: each column is ``(batch,)`` or ``(batch, 1)``
    (a dict of scalars gives one unbatched sample).

    Raises:
        ValueError: if ``features`` is not a non-empty dict, ``output_mode`` is not ``"dict"`` or ``"concat"``, or a
            cross is invalid (named features that do not exist, or tuples without ``crossing_dim``).

    >>> import numpy as np
    >>> import highlevel as hl
    >>> features = hl.utils.FeatureSpace({"age": "float_normalized", "color": "string_categorical"})
    >>> data = {"age": np.array([20.0, 30.0, 40.0]), "color": np.array(["red", "blue", "red"])}
    >>> features.adapt(data)  # learns the mean and variance of "age" and the vocabulary of "color"
    >>> np.round(hl.ops.convert_to_numpy(features(data)), 4)  # normalized age, then one-hot color (OOV, red, blue)
    array([[-1.2247,  0.    ,  1.    ,  0.    ],
           [ 0.    ,  0.    ,  0.    ,  1.    ],
           [ 1.2247,  0.    ,  1.    ,  0.    ]], dtype=float32)
    """

    # Called inside tf.data's map, the FeatureSpace hands its work to tf.numpy_function itself; this marker tells
    # TensorFlow's AutoGraph to call it as it is rather than try to convert its Python (it checks for the name).
    autograph_info__ = None

    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        name = name or unique_name("float")
        return Feature("float32", _layers().Identity(name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        name = name or unique_name("float_rescaled")
        preprocessor = _layers().Rescaling(scale=scale, offset=offset, name=f"{name}_preprocessor")
        return Feature("float32", preprocessor, "float")

    @classmethod
    def float_normalized(cls, name=None):
        name = name or unique_name("float_normalized")
        return Feature("float32", _layers().Normalization(axis=-1, name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None, output_mode="one_hot", name=None):
        name = name or unique_name("float_discretized")
        preprocessor = _layers().Discretization(
            num_bins=num_bins, bin_boundaries=bin_boundaries, name=f"{name}_preprocessor"
        )
        return Feature("float32", preprocessor, output_mode)

    @classmethod
    def integer_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None):
        name = name or unique_name("integer_categorical")
        preprocessor = _layers().IntegerLookup(
            name=f"{name}_preprocessor", max_tokens=max_tokens, num_oov_indices=num_oov_indices
        )
        return Feature("int32", preprocessor, output_mode)

    @classmethod
    def string_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None):
        name = name or unique_name("string_categorical")
        preprocessor = _layers().StringLookup(
            name=f"{name}_preprocessor", max_tokens=max_tokens, num_oov_indices=num_oov_indices
        )
        return Feature("string", preprocessor, output_mode)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        name = name or unique_name("string_hashed")
        return Feature("string", _layers().Hashing(name=f"{name}_preprocessor", num_bins=num_bins), output_mode)

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        name = name or unique_name("integer_hashed")
        return Feature("int32", _layers().Hashing(name=f"{name}_preprocessor", num_bins=num_bins), output_mode)

    def __init__(
        self,
        features,
        output_mode="concat",
        crosses=None,
        crossing_dim=32,
        hashing_dim=32,
        num_discretization_bins=32,
        name=None,
    ):
        super().__init__(name=name)
        if not features or not isinstance(features, dict):
            raise ValueError("`features` must be a non-empty dict from feature name to feature type.")
        if output_mode not in ("dict", "concat"):
            raise ValueError(f"`output_mode` must be 'dict' or 'concat'; received output_mode={output_mode!r}.")
        self.crossing_dim = crossing_dim
        self.hashing_dim = hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.output_mode = output_mode
        self.features = {key: self._standardize_feature(key, value) for key, value in features.items()}
        self.crosses = []
        for cross in crosses or []:
            if isinstance(cross, dict):
                cross = Cross.from_config(cross.get("config", cross))
            if not isinstance(cross, Cross):
                if not crossing_dim:
                    raise ValueError("Crosses given as tuples of names need `crossing_dim` (the number of bins).")
                cross = Cross(cross, crossing_dim=crossing_dim)
            unknown = [n for n in cross.feature_names if n not in self.features]
            if unknown:
                raise ValueError(
                    f"The cross {cross.feature_names} names features that are not in `features`: {unknown}."
                )
            self.crosses.append(cross)
        self.crosses_by_name = {cross.name: cross for cross in self.crosses}
        self.preprocessors = {key: feature.preprocessor for key, feature in self.features.items()}
        self.crossers = {
            cross.name: _layers().HashedCrossing(cross.crossing_dim, name=cross.name) for cross in self.crosses
        }
        self.one_hot_encoders = {}
        self.inputs = None
        self.encoded_features = None
        self._is_adapted = False
        self._host_spec = None
        self.built = True

    def _standardize_feature(self, name, feature):
        if isinstance(feature, Feature):
            return feature
        if isinstance(feature, dict):
            return Feature.from_config(feature.get("config", feature))
        makers = {
            "float": lambda: self.float(name=name),
            "float_normalized": lambda: self.float_normalized(name=name),
            "float_rescaled": lambda: self.float_rescaled(name=name),
            "float_discretized": lambda: self.float_discretized(self.num_discretization_bins, name=name),
            "integer_categorical": lambda: self.integer_categorical(name=name),
            "string_categorical": lambda: self.string_categorical(name=name),
            "integer_hashed": lambda: self.integer_hashed(self.hashing_dim, name=name),
            "string_hashed": lambda: self.string_hashed(self.hashing_dim, name=name),
        }
        if feature not in makers:
            raise ValueError(
                f"Invalid feature type {feature!r} for feature {name!r}; expected one of {sorted(makers)} "
                "or a FeatureSpace.feature(...)."
            )
        return makers[feature]()

    # ------------------------------------------------------------------------------------------------ adapt
    def _adaptable(self):
        names = []
        for key, preprocessor in self.preprocessors.items():
            if getattr(preprocessor, "input_mean", None) is not None:
                continue  # a Normalization given its statistics
            if getattr(preprocessor, "_has_input_vocabulary", False):
                continue  # a lookup given its vocabulary
            if isinstance(preprocessor, _layers().Discretization) and preprocessor.bin_boundaries is not None:
                continue
            if hasattr(preprocessor, "adapt"):
                names.append(key)
        return names

    def _columns(self, data):
        """The columns of ``data`` (a dict of arrays, a tf.data.Dataset or an iterable of dict batches) as
        numpy arrays of shape ``(n, 1)``."""
        if isinstance(data, dict):
            batches = [data]
        elif hasattr(data, "as_numpy_iterator"):
            batches = data.as_numpy_iterator()
        elif hasattr(data, "__iter__"):
            batches = iter(data)
        else:
            raise ValueError(
                "FeatureSpace.adapt takes a dict of arrays, a tf.data.Dataset of dicts or an iterable of dict "
                f"batches; received {type(data).__name__}."
            )
        parts = {key: [] for key in self.features}
        for batch in batches:
            if isinstance(batch, tuple) and batch and isinstance(batch[0], dict):
                batch = batch[0]  # (features, labels)
            if not isinstance(batch, dict):
                raise ValueError(f"FeatureSpace.adapt needs dicts of feature columns; received {type(batch).__name__}.")
            for key, feature in self.features.items():
                if key not in batch:
                    raise ValueError(f"The data has no column {key!r}; its columns are {sorted(batch)}.")
                column = _to_host(batch[key], feature.dtype)
                parts[key].append(column.reshape(-1, 1) if column.ndim <= 1 else column)
        return {key: np.concatenate(chunks) for key, chunks in parts.items() if chunks}

    def adapt(self, dataset):
        """Learns what the preprocessors need (statistics, vocabularies, bin boundaries) from ``dataset``."""
        columns = self._columns(dataset)
        for key in self._adaptable():
            self.preprocessors[key].adapt(columns[key])
        self._is_adapted = True
        self._host_spec = None

    def _check_adapted(self):
        if not self._is_adapted:
            if self._adaptable():
                raise ValueError("Call `adapt(data)` on the FeatureSpace before using it.")
            self._is_adapted = True

    # ------------------------------------------------------------------------------------------------ encode
    def _cardinality(self, name, layer):
        layers = _layers()
        if isinstance(layer, (layers.IntegerLookup, layers.StringLookup)):
            return layer.vocabulary_size()
        if isinstance(layer, layers.CategoryEncoding):
            return layer.num_tokens
        if isinstance(layer, layers.Discretization):
            return len(layer.bin_boundaries) + 1 if layer.bin_boundaries is not None else layer.num_bins
        if isinstance(layer, (layers.Hashing, layers.HashedCrossing)):
            return layer.num_bins
        raise ValueError(
            f"Feature {name!r} has output_mode='one_hot', but the number of values of its preprocessor "
            f"({type(layer).__name__}) is not known, so it cannot be one-hot encoded. Use output_mode='int'."
        )

    def _encode(self, preprocessed, crossed):
        from highlevel import ops

        names = sorted(preprocessed) + sorted(crossed)
        values = {**preprocessed, **crossed}
        specs = {**self.features, **self.crosses_by_name}
        out = {}
        for name in names:
            value = values[name]
            if specs[name].output_mode == "one_hot":
                dtype = str(value.dtype)
                if "int" not in dtype:
                    raise ValueError(
                        f"Feature {name!r} has output_mode='one_hot', so its preprocessor must give "
                        f"integers; it gives {dtype}."
                    )
                encoder = self.one_hot_encoders.get(name)
                if encoder is None:
                    layer = self.preprocessors.get(name) or self.crossers.get(name)
                    encoder = _layers().CategoryEncoding(
                        num_tokens=self._cardinality(name, layer), output_mode="multi_hot"
                    )
                    self.one_hot_encoders[name] = encoder
                value = encoder(value)
            out[name] = value
        if self.output_mode == "dict":
            return out
        for name, value in out.items():
            dtype = str(value.dtype)
            if "int" in dtype or "str" in dtype:
                raise ValueError(
                    f"Cannot concatenate feature {name!r}: it is not encoded (dtype {dtype}). Use "
                    "output_mode='one_hot' for it, or output_mode='dict' for the FeatureSpace."
                )
        return ops.concatenate([ops.cast(out[name], "float32") for name in names], axis=-1)

    def _run(self, data):
        preprocessed = {key: self.preprocessors[key](data[key]) for key in self.features}
        crossed = {
            cross.name: self.crossers[cross.name]([preprocessed[n] for n in cross.feature_names])
            for cross in self.crosses
        }
        return self._encode(preprocessed, crossed)

    def _host_call(self, data):
        """Encodes a dict of host arrays; returns numpy (for ``tf.numpy_function``)."""
        from highlevel import ops
        from highlevel.config import backend_scope

        with backend_scope("native"):
            out = self._run(data)
            if isinstance(out, dict):
                return {key: np.asarray(ops.convert_to_numpy(v)) for key, v in out.items()}
            return np.asarray(ops.convert_to_numpy(out))

    def _output_spec(self):
        """The dtypes and trailing shapes of the output, from a one-row dummy batch."""
        if self._host_spec is None:
            dummy = {
                key: np.zeros(
                    (1, 1),
                    dtype="<U1" if f.dtype == "string" else ("int64" if f.dtype.startswith("int") else "float32"),
                )
                for key, f in self.features.items()
            }
            out = self._host_call(dummy)
            self._host_spec = (
                {k: (v.dtype.name, v.shape[1:]) for k, v in out.items()}
                if isinstance(out, dict)
                else (out.dtype.name, out.shape[1:])
            )
        return self._host_spec

    def __call__(self, data):
        self._check_adapted()
        if not isinstance(data, dict):
            raise ValueError(f"A FeatureSpace is called on a dict of feature columns; received {type(data).__name__}.")
        missing = [key for key in self.features if key not in data]
        if missing:
            raise ValueError(f"The data has no column for the features {missing}; it has {sorted(data)}.")
        if any(_is_tf_graph_tensor(v) for v in data.values()):
            return self._call_in_tf_graph(data)
        columns = {key: _to_host(data[key], self.features[key].dtype) for key in self.features}
        unbatched = all(c.ndim == 0 for c in columns.values())
        columns = {
            key: c.reshape(1, 1) if c.ndim == 0 else (c.reshape(-1, 1) if c.ndim == 1 else c)
            for key, c in columns.items()
        }
        out = self._run(columns)
        if unbatched:
            from highlevel import ops

            if isinstance(out, dict):
                return {key: ops.squeeze(v, axis=0) for key, v in out.items()}
            return ops.squeeze(out, axis=0)
        return out

    def _call_in_tf_graph(self, data):
        """Inside ``tf.data``'s ``map``: the host computation runs through ``tf.numpy_function``."""
        bridge = importlib.import_module("highlevel.backends.tensorflow.data")
        keys = list(self.features)
        dtypes = [self.features[key].dtype for key in keys]
        unbatched = all(len(data[key].shape) == 0 for key in keys)

        def run(*values):
            columns = {key: _to_host(v, dtype) for key, v, dtype in zip(keys, values, dtypes)}
            columns = {
                key: c.reshape(1, 1) if c.ndim == 0 else (c.reshape(-1, 1) if c.ndim == 1 else c)
                for key, c in columns.items()
            }
            out = self._host_call(columns)
            if unbatched:
                out = {k: v[0] for k, v in out.items()} if isinstance(out, dict) else out[0]
            return out

        return bridge.host_function(run, [data[key] for key in keys], self._output_spec, batched=not unbatched)

    # -------------------------------------------------------------------------------------- functional use
    def get_inputs(self):
        """The symbolic inputs of a functional model that takes the raw features (numeric features only)."""
        self._check_adapted()
        if self.inputs is None:
            strings = [key for key, f in self.features.items() if f.dtype == "string"]
            if strings:
                raise NotImplementedError(
                    f"The features {strings} are strings, and highlevel has no symbolic string inputs. Encode the "
                    "data with the FeatureSpace (e.g. dataset.map(lambda x, y: (feature_space(x), y))) and give the "
                    "model the encoded features as its input."
                )
            from highlevel.models import Input

            self.inputs = {
                key: Input(shape=(1,), dtype="float32" if f.dtype == "float32" else "int64", name=key)
                for key, f in self.features.items()
            }
        return self.inputs

    def get_encoded_features(self):
        """The encoded features of :meth:`get_inputs` (symbolic), for a functional model."""
        if self.encoded_features is None:
            self.encoded_features = self._run(self.get_inputs())
        return self.encoded_features

    # ------------------------------------------------------------------------------------------------ config
    def get_config(self):
        return {
            "name": self.name,
            "features": {key: {"class_name": "Feature", "config": f.get_config()} for key, f in self.features.items()},
            "output_mode": self.output_mode,
            "crosses": [{"class_name": "Cross", "config": c.get_config()} for c in self.crosses],
            "crossing_dim": self.crossing_dim,
            "hashing_dim": self.hashing_dim,
            "num_discretization_bins": self.num_discretization_bins,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)
