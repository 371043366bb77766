"""Attention layers: Attention, AdditiveAttention, MultiHeadAttention, GroupQueryAttention."""

from .additive_attention import AdditiveAttention
from .attention import Attention
from .grouped_query_attention import GroupQueryAttention
from .multi_head_attention import MultiHeadAttention

__all__ = ["AdditiveAttention", "Attention", "GroupQueryAttention", "MultiHeadAttention"]
