"""Recurrent layers: the cells, the generic :class:`RNN` over a cell (a compiled ``ops.scan`` time loop),
SimpleRNN / LSTM / GRU, StackedRNNCells, and the Bidirectional and TimeDistributed wrappers."""

from .bidirectional import Bidirectional
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
