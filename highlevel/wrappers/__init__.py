"""``hl.wrappers``: highlevel models as scikit-learn estimators (``keras.wrappers``).

:class:`SKLearnClassifier`, :class:`SKLearnRegressor` and :class:`SKLearnTransformer` need scikit-learn
(the ``sklearn`` extra: ``pip install -e ".[sklearn]"`` in a checkout); this package imports without it and the
classes say so when built.

>>> import highlevel as hl
>>> sorted(hl.wrappers.__all__)
['SKLearnClassifier', 'SKLearnRegressor', 'SKLearnTransformer']
"""

from .sklearn_wrapper import SKLearnClassifier, SKLearnRegressor, SKLearnTransformer

__all__ = ["SKLearnClassifier", "SKLearnRegressor", "SKLearnTransformer"]
