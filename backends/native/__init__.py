"""The native engine (being written)."""
