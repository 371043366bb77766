"""scikit-learn estimators around highlevel models: ``SKLearnClassifier``, ``SKLearnRegressor``,
``SKLearnTransformer`` (``keras.wrappers``), usable in pipelines, cross-validation and grid searches.

Each takes ``model`` — a compiled ``Model`` (copied with new weights on each ``fit``) or a function
``model(X=X, y=y, **model_kwargs)`` that builds and compiles one — plus ``warm_start``, ``model_kwargs`` and
``fit_kwargs`` (arguments of ``Model.fit``; those given to the wrapper's ``fit`` win). As in Keras:

* the classifier trains on one-hot targets (one column per class, in the order of ``classes_``); ``predict``
  returns the class of the largest output, ``predict_proba`` the outputs as probabilities (give the model a
  softmax output) and ``decision_function`` the raw outputs;
* the regressor trains on ``y`` as a column (or the columns of a 2-D ``y``) and ``predict`` returns the shape
  ``y`` had;
* the transformer trains like the regressor and ``transform`` returns the model's outputs.

Where this differs from Keras 3.15, on purpose: ``warm_start=True`` continues training the fitted model (Keras
documents it but retrains a fresh copy); ``fit`` does not write the wrapper's arguments into ``fit_kwargs``, and
``sklearn.base.clone`` keeps ``fit_kwargs`` (Keras's loses them); ``predict``/``transform`` show no progress
bar; a fitted wrapper can be pickled (its models travel as the bytes of their saved files); the classifier has
``predict_proba``, and for two classes its ``decision_function`` is 1-D as scikit-learn expects (Keras returns
both columns); the regressor also takes several target columns and predicts in float64.

>>> import numpy as np
>>> import highlevel as hl
>>> def build(X, y):
...     model = hl.Sequential([hl.Input((X.shape[1],)), hl.layers.Dense(y.shape[1], activation="softmax")])
...     model.compile(optimizer=hl.optimizers.Adam(0.1), loss="categorical_crossentropy")
...     return model
>>> X = np.array([[0.0], [0.1], [0.9], [1.0]] * 8); y = np.array(["a", "a", "b", "b"] * 8)
>>> clf = hl.wrappers.SKLearnClassifier(build, fit_kwargs={"epochs": 40, "verbose": 0}).fit(X, y)
>>> clf.predict(np.array([[0.0], [1.0]])).tolist(), clf.classes_.tolist()
(['a', 'b'], ['a', 'b'])
"""

import numpy as np

try:
    import sklearn
    from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, TransformerMixin
except ImportError:  # the wrappers say what to install when they are built
    sklearn = None

    class BaseEstimator:
        pass

    class ClassifierMixin:
        pass

    class RegressorMixin:
        pass

    class TransformerMixin:
        pass


from ._model_copy import fresh_copy, model_from_bytes, model_to_bytes


def _require_sklearn(who):
    if sklearn is None:
        from highlevel._extras import install_command

        raise ImportError(
            f"{who} needs scikit-learn, which is not installed. Install it with the sklearn extra: "
            f"{install_command('sklearn')}"
        )
    from sklearn.utils.validation import validate_data  # noqa: F401  (scikit-learn >= 1.6)


def _is_model(value):
    from highlevel.models import Model

    return isinstance(value, Model)


def _check_compiled(model, who):
    if not (
        getattr(model, "_compiled", False)
        and model.optimizer is not None
        and getattr(model, "_compile_loss", None) is not None
    ):
        raise RuntimeError(
            f"{who}: the model must be compiled with a loss and an optimizer before it is fitted; "
            f"received the model {getattr(model, 'name', model)!r} without them. Call "
            "model.compile(optimizer=..., loss=...) (in the building function, if you pass one)."
        )


class _SKLBase(BaseEstimator):
    """What the three wrappers share: the model, warm start, fit arguments, validation and pickling."""

    _multi_output = True

    def __init__(self, model, warm_start=False, model_kwargs=None, fit_kwargs=None):
        _require_sklearn(type(self).__name__)
        self.model = model
        self.warm_start = warm_start
        self.model_kwargs = model_kwargs
        self.fit_kwargs = fit_kwargs

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.non_deterministic = True  # weights start at random and training shuffles
        return tags

    @property
    def epoch_(self):
        """How many epochs the fitted model has been trained (over warm-started fits too)."""
        return len(getattr(self, "history_", {}).get("loss", []))

    # ----------------------------------------------------------------- fitting
    def _new_model(self, X, y):
        if _is_model(self.model):
            return fresh_copy(self.model)
        if not callable(self.model):
            raise TypeError(
                f"{type(self).__name__}: `model` must be a compiled highlevel Model or a function "
                f"that builds one (called as model(X=X, y=y, **model_kwargs)); received "
                f"{type(self.model).__name__}: {self.model!r}."
            )
        model = self.model(X=X, y=y, **(self.model_kwargs or {}))
        if not _is_model(model):
            raise TypeError(
                f"{type(self).__name__}: the function passed as `model` must return a highlevel Model; "
                f"it returned {type(model).__name__}."
            )
        return model

    def _check_target_kind(self, y):
        """Classifiers refuse targets they cannot learn from (several labels per sample) with their own message."""

    def _validate(self, X, y=None, reset=False):
        from sklearn.utils.validation import validate_data

        if y is None:
            return validate_data(self, X, reset=reset, dtype=np.float64), None
        return validate_data(
            self,
            X,
            y,
            reset=reset,
            dtype=np.float64,
            multi_output=self._multi_output,
            y_numeric=not isinstance(self, ClassifierMixin),
        )

    @staticmethod
    def _inputs(X):
        from highlevel.config import floatx

        return np.asarray(X, dtype=floatx())

    def fit(self, X, y, **kwargs):
        """Trains the model on ``X`` (``(n_samples, n_features)``) and ``y``.

        Args:
            X: the input samples.
            y: the targets: ``(n_samples,)``, or ``(n_samples, n_outputs)`` for the regressor and transformer.
            **kwargs: arguments of ``Model.fit`` (``epochs``, ``batch_size``, ``sample_weight``, ...); they win
                over ``fit_kwargs``.

        Returns:
            The wrapper, fitted.
        """
        if y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None. Pass the "
                "targets of X (a transformer trained to reproduce its input, an autoencoder, takes y=X)."
            )
        self._check_target_kind(y)  # before scikit-learn's validation, whose message names only the shape
        X, y = self._validate(X, y, reset=True)
        y = self._encode_targets(y, reset=True)
        if self.warm_start and hasattr(self, "model_"):
            model, history = self.model_, dict(self.history_)
        else:
            model, history = self._new_model(X, y), {}
        _check_compiled(model, type(self).__name__)
        arguments = dict(self.fit_kwargs or {})
        arguments.update(kwargs)
        result = model.fit(self._inputs(X), y, **arguments)
        for key, values in getattr(result, "history", {}).items():
            history.setdefault(key, []).extend(values)
        self.model_ = model
        self.history_ = history
        return self

    def _outputs(self, X):
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "model_")
        X, _ = self._validate(X)
        out = self.model_.predict(self._inputs(X), verbose=0)
        if isinstance(out, (list, tuple)) and len(out) == 1:  # a functional model with its output in a list
            out = out[0]
        return np.asarray(out)

    def _encode_targets(self, y, reset=False):
        """The regressor and transformer train on ``y`` as columns."""
        y = np.asarray(y)
        if reset:
            self._target_ndim = y.ndim
        return y.reshape(-1, 1) if y.ndim == 1 else y

    # ---------------------------------------------------------------- pickling
    def __getstate__(self):
        state = dict(self.__dict__)
        for key, value in self.__dict__.items():
            if _is_model(value):
                state[key] = ("highlevel-model-file", model_to_bytes(value))
        return state

    def __setstate__(self, state):
        for key, value in state.items():
            if isinstance(value, tuple) and len(value) == 2 and value[0] == "highlevel-model-file":
                state[key] = model_from_bytes(value[1])
        self.__dict__.update(state)


class SKLearnClassifier(ClassifierMixin, _SKLBase):
    """A scikit-learn classifier around a highlevel model (``keras.wrappers.SKLearnClassifier``).

    Args:
        model: a compiled ``Model`` whose output has one column per class (copied with new weights on each
            ``fit``), or a function ``model(X=X, y=y, **model_kwargs)`` returning one; ``y`` is then the one-hot
            targets, so ``y.shape[1]`` is the number of classes.
        warm_start: a new ``fit`` continues training the fitted model instead of starting a new one.
        model_kwargs: keyword arguments of the ``model`` function.
        fit_kwargs: keyword arguments of ``Model.fit`` (``epochs``, ``batch_size``, ``verbose``, ...).

    Attributes:
        model_: the fitted model.
        history_: the fit's history (a dict of lists).
        classes_: the class labels, sorted.
        n_features_in_: the number of input features.

    >>> import highlevel as hl
    >>> clf = hl.wrappers.SKLearnClassifier(model=None)
    >>> sorted(clf.get_params())
    ['fit_kwargs', 'model', 'model_kwargs', 'warm_start']
    """

    _multi_output = False

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True
        tags.classifier_tags.multi_class = True
        return tags

    def _check_target_kind(self, y):
        from sklearn.utils.multiclass import type_of_target

        if y is None:
            return
        kind = type_of_target(y, input_name="y")
        if kind == "unknown":
            raise ValueError(
                f"Unknown label type for y: {type(self).__name__} takes class labels (ints, strings); "
                f"received an array of dtype {np.asarray(y).dtype}."
            )
        if kind not in ("binary", "multiclass"):
            raise ValueError(
                f"{type(self).__name__} handles binary and multiclass targets (one label per sample); "
                f"received targets of type {kind!r}. For several outputs, use SKLearnRegressor or a "
                "model of your own with Model.fit."
            )

    def _encode_targets(self, y, reset=False):
        if reset:
            self.classes_ = np.unique(y)
            if len(self.classes_) < 2:
                raise ValueError(
                    f"{type(self).__name__} needs at least two classes to learn from; the targets hold "
                    f"only 1 class: {self.classes_.tolist()}."
                )
        index = np.searchsorted(self.classes_, y)
        from highlevel.config import floatx

        return np.eye(len(self.classes_), dtype=floatx())[index]

    def decision_function(self, X):
        """The model's raw outputs for ``X``: one column per class, or for two classes (scikit-learn's
        convention) the ``(n_samples,)`` output of the second class, ``classes_[1]``."""
        out = self._outputs(X)
        if len(self.classes_) == 2 and out.ndim == 2:
            return out[:, -1]
        return out

    def predict_proba(self, X):
        """The class probabilities for ``X``, one column per class in the order of ``classes_``: the model's
        outputs (a softmax output gives probabilities) scaled so that each row sums to 1."""
        out = self._outputs(X).astype(np.float64)
        if out.ndim == 2 and out.shape[1] == 1 and len(self.classes_) == 2:  # one sigmoid unit
            out = np.concatenate([1.0 - out, out], axis=1)
        if out.ndim != 2 or out.shape[1] != len(self.classes_):
            raise ValueError(
                f"{type(self).__name__}: the model's outputs have shape {out.shape}; expected "
                f"(n_samples, {len(self.classes_)}), one column per class."
            )
        out = np.clip(out, 0.0, None)
        total = out.sum(axis=1, keepdims=True)
        return np.divide(out, total, out=np.full_like(out, 1.0 / out.shape[1]), where=total > 0)

    def predict(self, X):
        """The predicted class of each sample of ``X`` (a label from ``classes_``)."""
        out = self._outputs(X)
        if out.ndim == 2 and out.shape[1] == 1 and len(self.classes_) == 2:
            index = (out[:, 0] > 0.5).astype(np.int64)
        else:
            index = np.argmax(out.reshape(len(out), -1), axis=1)
        return self.classes_[index]


class SKLearnRegressor(RegressorMixin, _SKLBase):
    """A scikit-learn regressor around a highlevel model (``keras.wrappers.SKLearnRegressor``).

    Args:
        model: a compiled ``Model`` (copied with new weights on each ``fit``), or a function
            ``model(X=X, y=y, **model_kwargs)`` returning one; ``y`` is then 2-D (a 1-D ``y`` as one column).
        warm_start: a new ``fit`` continues training the fitted model instead of starting a new one.
        model_kwargs: keyword arguments of the ``model`` function.
        fit_kwargs: keyword arguments of ``Model.fit``.

    Attributes:
        model_: the fitted model.
        history_: the fit's history (a dict of lists).
        n_features_in_: the number of input features.

    >>> import highlevel as hl
    >>> hl.wrappers.SKLearnRegressor(model=None, fit_kwargs={"epochs": 3}).get_params()["fit_kwargs"]
    {'epochs': 3}
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.regressor_tags.poor_score = True
        tags.target_tags.multi_output = True
        return tags

    def predict(self, X):
        """The model's predictions for ``X``, with the shape of the targets it was fitted on."""
        out = self._outputs(X).astype(np.float64)  # scikit-learn's regressors predict in float64
        if self._target_ndim == 1 and out.ndim == 2 and out.shape[1] == 1:
            return out[:, 0]
        return out


class SKLearnTransformer(TransformerMixin, _SKLBase):
    """A scikit-learn transformer around a highlevel model (``keras.wrappers.SKLearnTransformer``): ``fit``
    trains the model on ``(X, y)`` and ``transform`` returns its outputs, e.g. an embedding for the next step of
    a pipeline.

    Args:
        model: a compiled ``Model`` (copied with new weights on each ``fit``), or a function
            ``model(X=X, y=y, **model_kwargs)`` returning one.
        warm_start: a new ``fit`` continues training the fitted model instead of starting a new one.
        model_kwargs: keyword arguments of the ``model`` function.
        fit_kwargs: keyword arguments of ``Model.fit``.

    Attributes:
        model_: the fitted model.
        history_: the fit's history (a dict of lists).
        n_features_in_: the number of input features.

    >>> import highlevel as hl
    >>> hl.wrappers.SKLearnTransformer(model=None).warm_start
    False
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = []
        tags.target_tags.required = True
        return tags

    def transform(self, X):
        """The model's outputs for ``X``, ``(n_samples, n_outputs)``."""
        return self._outputs(X)


__all__ = ["SKLearnClassifier", "SKLearnRegressor", "SKLearnTransformer"]
