"""Recurrent layers: the cells, the generic :class:`RNN` over a cell (a compiled ``ops.scan`` time loop),
SimpleRNN / LSTM / GRU, ConvLSTM1D/2D/3D, StackedRNNCells, and the Bidirectional and TimeDistributed wrappers."""

from .bidirectional import Bidirectional
from .conv_lstm1d import ConvLSTM1D
from .conv_lstm2d import ConvLSTM2D
from .conv_lstm3d import ConvLSTM3D
from .gru import GRU
from .gru_cell import GRUCell
from .lstm import LSTM
from .lstm_cell import LSTMCell
from .rnn import RNN
from .simple_rnn import SimpleRNN
from .simple_rnn_cell import SimpleRNNCell
from .stacked_rnn_cells import StackedRNNCells
from .time_distributed import TimeDistributed

__all__ = [
    "Bidirectional",
    "ConvLSTM1D",
    "ConvLSTM2D",
    "ConvLSTM3D",
    "GRU",
    "GRUCell",
    "LSTM",
    "LSTMCell",
    "RNN",
    "SimpleRNN",
    "SimpleRNNCell",
    "StackedRNNCells",
    "TimeDistributed",
]
