"""Batched tables: many hold'em tables stepped in one compiled call (:class:`BatchedTables`)."""

from holdem_env.batched._external import Members
from holdem_env.batched._tables import BatchedTables
from holdem_env.batched.views import HISTORY_KINDS, BatchViews

__all__ = ["BatchedTables", "BatchViews", "HISTORY_KINDS", "Members"]
