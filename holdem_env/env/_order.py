"""The order-enforcing wrapper of ``nlhe_v1``: PettingZoo's ``OrderEnforcingWrapper`` with a fast per-step path.

:func:`holdem_env.env.nlhe_v1.env` wraps the raw env in :class:`_OrderEnforcingWrapper`. Its
checks, errors and warnings are PettingZoo's own (its classes are the bases here); only the calls
made every step (``step``, ``last``, the ``agent_iter`` iterator's ``__next__`` and the attributes
read per step) skip PettingZoo's generic ``__getattr__`` path. In the compiled build
(``_order.pxd``) the flags and the wrapped env are typed fields, so those calls are C calls into
the env's core (:mod:`holdem_env.env._core`). ``tests/test_env_fastpaths.py`` holds them to
PettingZoo's behaviour.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

__all__ = ["_OrderEnforcingWrapper", "_WRAPPER_FIELDS"]


def _forwarded(name: str) -> property:
    def get(self: _OrderEnforcingWrapper) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get, doc=f"The raw env's ``{name}`` (PettingZoo's error before ``reset``).")


#: The attributes the compiled build declares on :class:`_WrapperCore` (``_order.pxd``; a test keeps
#: the two in step): its pickles and copies carry them explicitly.
_WRAPPER_FIELDS = ("env", "_has_reset", "_has_updated")


def _new_wrapper(cls: type[_WrapperCore]) -> _WrapperCore:
    """An empty instance of ``cls`` for unpickling (its state is set next)."""
    return cls.__new__(cls)


class _WrapperCore:
    """The per-step half of :class:`_OrderEnforcingWrapper`: PettingZoo's order flags and the
    wrapped env as typed fields in the compiled build (``_order.pxd``), so ``step`` and ``last``
    read them as C struct members and call the raw env's ``step``/``last`` as C calls.

    The checks, errors and warnings are PettingZoo's ``OrderEnforcingWrapper``'s (its own method
    in every case but the usual one).
    """

    env: Any  # the raw env (an _EnvCore in the compiled build)
    _has_reset: bool
    _has_updated: bool

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and copy by attributes (the compiled build keeps the flags and ``env`` in typed
        fields, outside ``__dict__``)."""
        return (_new_wrapper, (type(self),), self.__getstate__())

    def __getstate__(self) -> dict[str, Any]:
        state = dict(vars(self))  # pure Python: every attribute; compiled: the subclass's own
        for name in _WRAPPER_FIELDS:
            state[name] = getattr(self, name)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def step(self, action: Any) -> None:
        """PettingZoo's ``step``; its usual case (after ``reset``, agents left) calls the raw env directly."""
        raw = self.env
        if self._has_reset and raw.agents:
            self._has_updated = True
            raw.step(action)
        else:  # PettingZoo's error before reset, its warning once every agent is done
            wrappers.OrderEnforcingWrapper.step(self, action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``(observation, cumulative reward, terminated, truncated, info)`` of the agent to act."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)


class _OrderEnforcingWrapper(_WrapperCore, wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with direct accessors for the per-step attributes.

    The order checks, errors and warnings are PettingZoo's: ``reset`` sets its flags and calls
    the raw env, ``agent_iter`` returns its order-enforcing iterable (one ``__next__`` here
    instead of two), ``step`` calls the raw env directly in the usual case and PettingZoo's
    otherwise (:class:`_WrapperCore`). The attributes read every step are properties here instead
    of going through PettingZoo's ``__getattr__`` fallback, and ``last`` is the raw env's (same
    results, same error before ``reset``). ``tests/test_env_fastpaths.py`` holds them to
    PettingZoo's behaviour.
    """

    agents = _forwarded("agents")
    agent_selection = _forwarded("agent_selection")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """PettingZoo's ``reset`` (the order flags set first, so a failed reset still counts),
        without its pass-through call."""
        self._has_reset = True
        self._has_updated = True
        self.env.reset(seed=seed, options=options)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        """PettingZoo's ``agent_iter`` (its error before ``reset``, its iterable: each pass is a
        new iterator of at most ``max_iter`` agents), with one ``__next__`` reading the raw env."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)


class _AgentIterable(AECOrderEnforcingIterable):
    """PettingZoo's order-enforcing iterable of :meth:`_OrderEnforcingWrapper.agent_iter`."""

    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _IteratorCore:
    """``__next__`` of :class:`_AgentIterator`: PettingZoo's two ``__next__`` (the iterator's and
    the order check's) in one, reading the wrapper's flag and the raw env as typed fields in the
    compiled build (``_order.pxd``)."""

    env: Any  # the order-enforcing wrapper (a _WrapperCore in the compiled build)
    iters_til_term: int
    _raw: Any  # the raw env this pass reads (an _EnvCore in the compiled build)

    def __next__(self) -> str:
        wrapper = self.env
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return raw.agent_selection


class _AgentIterator(_IteratorCore, AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing iterator in one ``__next__`` (same checks, same order)."""

    def __init__(self, env: _OrderEnforcingWrapper, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._raw = env.env
