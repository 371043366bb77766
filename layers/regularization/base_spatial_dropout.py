"""The base of the spatial dropout layers: drops whole feature maps (channels) instead of single entries."""

from highlevel import config as _config
from highlevel import ops
from highlevel.input_spec import InputSpec

from .dropout import Dropout


class BaseSpatialDropout(Dropout):
    """Dropout whose mask is constant over the spatial axes: one draw per (sample, channel)."""

    _rank = None

    def __init__(self, rate, data_format=None, seed=None, **kwargs):
        super().__init__(rate, seed=seed, **kwargs)
        self.data_format = _config.standardize_data_format(data_format, type(self).__name__)
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
