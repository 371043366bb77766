"""The base of the spatial dropout layers: drops whole feature maps (channels) instead of single entries."""

from highlevel import config as _config
from highlevel import ops
from highlevel.input_spec import InputSpec

from .dropout import Dropout


def _standardize_data_format(data_format):
    if data_format is None:
        getter = getattr(_config, "image_data_format", None)
        return getter() if callable(getter) else "channels_last"
    value = str(data_format).lower()
    if value not in ("channels_last", "channels_first"):
        raise ValueError(
            "The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
            f"Received: data_format={data_format!r}"
        )
    return value


class BaseSpatialDropout(Dropout):
    """Dropout whose mask is constant over the spatial axes: one draw per (sample, channel)."""

    _rank = None

    def __init__(self, rate, data_format=None, seed=None, **kwargs):
        super().__init__(rate, seed=seed, **kwargs)
        self.data_format = _standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self._rank)

    def _noise_shape_for(self, inputs):
        shape = ops.shape(inputs)
        ones = (1,) * (len(shape) - 2)
        if self.data_format == "channels_first":
            return (shape[0], shape[1]) + ones
        return (shape[0],) + ones + (shape[-1],)

    def get_config(self):
        config = super().get_config()
        config.pop("noise_shape", None)
        config["data_format"] = self.data_format
        return config
