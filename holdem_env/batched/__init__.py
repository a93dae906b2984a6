"""Batched tables: many hold'em tables stepped in one compiled call (:class:`BatchedTables`)."""

from holdem_env.batched._tables import BatchedTables

__all__ = ["BatchedTables"]
