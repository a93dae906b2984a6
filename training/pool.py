"""The opponent pool of a learner: fixed agents plus its own snapshots, sampled by how badly it does.

:class:`OpponentPool` is an opponent source for :class:`holdem_env.env.vector.HoldemVectorEnv`.
Its members are fixed agents given as spec strings (``"random"``, ``"tag"``, a league's
cfr-lite policy) and frozen copies of the learner (:meth:`OpponentPool.add_snapshot`; at most
``max_snapshots``, the oldest dropped first). Every finished hand's learner payoff (big
blinds) is recorded against the member that played it; a member's *rolling result* is the
mean over its last ``window`` hands, in mbb/hand.

Sampling is prioritised towards the members the learner does worst against (in the spirit
of prioritised fictitious self-play): member ``i`` gets weight
``exp(-result_i / temperature)`` (results in mbb/hand, a member not yet played counts as the
worst seen), mixed with a uniform share ``uniform_share`` so that no member is starved.

>>> pool = OpponentPool(["random", "tag"], window=10, temperature=100.0, uniform_share=0.0)
>>> for _ in range(10):
...     pool.record(0, 1.0)    # +1000 mbb/hand against random
...     pool.record(1, -0.2)   # -200 mbb/hand against tag
>>> [round(w, 3) for w in pool.weights()]
[0.0, 1.0]
>>> OpponentPool([])
Traceback (most recent call last):
...
holdem_env.engine.errors.ConfigError: opponents=[] is invalid: the pool needs at least one fixed agent spec
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from holdem_env.agents.base import AgentSpecError, make_agent, parse_spec
from holdem_env.agents.ppo import ActorCritic, PolicyConfig, PpoAgent, PpoPolicy
from holdem_env.batched import Members
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.validate import check_int, check_number

__all__ = ["OpponentPool"]


class OpponentPool:
    """Fixed agents (specs) and learner snapshots; see the module docstring.

    ``names``: display names of the fixed members (default: their specs).
    """

    def __init__(
        self,
        specs: Sequence[str],
        *,
        names: Sequence[str] | None = None,
        max_snapshots: int = 4,
        window: int = 2000,
        temperature: float = 300.0,
        uniform_share: float = 0.2,
    ) -> None:
        if isinstance(specs, str) or not specs:
            raise ConfigError("opponents", list(specs), "the pool needs at least one fixed agent spec")
        for spec in specs:
            try:
                parse_spec(spec)
            except AgentSpecError as exc:
                raise ConfigError("opponents", spec, str(exc)) from None
        if names is not None and len(names) != len(specs):
            raise ConfigError("names", list(names), f"must name each of the {len(specs)} specs")
        max_snapshots = check_int("max_snapshots", max_snapshots, 0)
        window = check_int("window", window, 1)
        temperature = check_number("temperature", temperature, 0, lo_open=True, allowed="must be a positive number of mbb/hand")
        uniform_share = check_number("uniform_share", uniform_share, 0.0, 1.0, allowed="must be a number in [0, 1]")
        self.specs = list(specs)
        self.names: list[str] = list(names) if names is not None else list(specs)
        self.max_snapshots = max_snapshots
        self.window = window
        self.temperature = float(temperature)
        self.uniform_share = float(uniform_share)
        self._snapshots: list[tuple[str, PpoPolicy]] = []
        # Payoffs are kept as integer micro-big-blinds: the running sums are then exact, so the
        # weights are a function of the windows' contents alone (a resumed run samples identically).
        self._results: list[deque[int]] = [deque(maxlen=window) for _ in self.specs]
        self._sums: list[int] = [0 for _ in self.specs]
        self._shared: dict[int, Any] = {}
        self._own: dict[tuple[int, int, int], Any] = {}
        self._cdf: np.ndarray | None = None

    # -- members ---------------------------------------------------------------------------
    @property
    def members(self) -> list[str]:
        """Member names: the fixed agents, then the snapshots (oldest first)."""
        return self.names + [name for name, _ in self._snapshots]

    def add_snapshot(self, name: str, policy: PpoPolicy) -> None:
        """Add a frozen copy of the learner (``policy`` is not copied: pass a copy)."""
        if self.max_snapshots == 0:
            return
        if name in self.members:
            raise ConfigError("snapshot", name, "is already a pool member: snapshot names must be unique")
        if len(self._snapshots) == self.max_snapshots:
            self._snapshots.pop(0)
            self._results.pop(len(self.specs))
            self._sums.pop(len(self.specs))
        self._snapshots.append((name, policy))
        self._results.append(deque(maxlen=self.window))
        self._sums.append(0)
        self._shared = {k: v for k, v in self._shared.items() if k < len(self.specs)}
        self._cdf = None

    # -- results and sampling --------------------------------------------------------------
    def record(self, member: int, payoff: float) -> None:
        """One finished hand: the learner won ``payoff`` big blinds against ``member``."""
        window = self._results[member]
        micro = round(float(payoff) * 1_000_000)
        if len(window) == window.maxlen:
            self._sums[member] -= window[0]
        window.append(micro)
        self._sums[member] += micro
        if self.uniform_share < 1.0:  # uniform draws do not depend on the results
            self._cdf = None

    def results(self) -> dict[str, float | None]:
        """Rolling mbb/hand of the learner against each member (None before its first hand)."""
        return dict(zip(self.members, self._means(), strict=True))

    def _means(self) -> list[float | None]:
        """Rolling mbb/hand per member (None before its first hand)."""
        return [s / (1000.0 * len(r)) if r else None for s, r in zip(self._sums, self._results, strict=True)]

    def weights(self) -> list[float]:
        """The sampling probabilities of the members (see the module docstring)."""
        res = self._means()
        known = [v for v in res if v is not None]
        worst = min(known) if known else 0.0
        scores = np.array([worst if v is None else v for v in res])
        z = -(scores - scores.min()) / self.temperature
        prio = np.exp(z - z.max())
        prio /= prio.sum()
        w = (1.0 - self.uniform_share) * prio + self.uniform_share / len(prio)
        return [float(x) for x in w / w.sum()]

    def sample(self, table: int, rng: np.random.Generator) -> int:
        """A member id drawn by :meth:`weights` (one uniform draw from ``rng``)."""
        if self._cdf is None:
            self._cdf = np.cumsum(self.weights())
        return min(int(np.searchsorted(self._cdf, rng.random() * self._cdf[-1], side="right")), len(self._cdf) - 1)

    def agent(self, member: int, table: int, seat: int) -> Any:
        """The agent playing ``seat`` at ``table`` for ``member`` (snapshots: one shared batched agent)."""
        if member >= len(self.specs):
            a = self._shared.get(member)
            if a is None:
                a = self._shared[member] = PpoAgent(self._snapshots[member - len(self.specs)][1])
            return a
        key = (member, table, seat)
        a = self._own.get(key)
        if a is None:
            a = make_agent(self.specs[member])
            if callable(getattr(a, "act_batch", None)):
                self._shared[member] = a
            self._own[key] = a
        return self._shared.get(member, a)

    def batched_bot(self) -> Any:
        """What plays the opponent seats on the vector env's batched core, or None. With one member (one
        fixed agent, no snapshots) whose agent has ``decide(views, uniforms)``: that agent (its hands are
        member 0's). With more members, each of whose agents has ``decide`` (the fixed ones built once,
        until :meth:`reset_agents`; the snapshots' shared ppo agents): a
        :class:`~holdem_env.batched.Members` of them in member order, drawn per hand by :meth:`sample`
        (the vector env's batched backend does the drawing). On the core the bots decide in exact chips
        (their exact-mode play), whatever action mode the learner uses."""
        bots = []
        for member in range(len(self.members)):
            if member >= len(self.specs):
                bot = self.agent(member, 0, 0)  # the snapshot's shared ppo agent
            else:
                bot = self._shared.get(-1 - member)
                if bot is None:
                    bot = self._shared[-1 - member] = make_agent(self.specs[member])
            if not callable(getattr(bot, "decide", None)):
                return None
            bots.append(bot)
        if len(bots) == 1:
            return bots[0]
        return Members(bots, names=list(self.members))

    def record_many(self, member: int, payoffs: Sequence[float] | np.ndarray) -> None:
        """:meth:`record` for each entry of ``payoffs``, in order."""
        values = np.asarray(payoffs, dtype=np.float64).tolist()
        if type(self).record is not OpponentPool.record:  # (a subclass's own record sees every hand)
            for p in values:
                self.record(member, p)
            return
        if not values:
            return
        window, total = self._results[member], self._sums[member]  # record's steps, inlined
        full, append = window.maxlen, window.append
        for p in values:
            micro = round(p * 1_000_000)
            if len(window) == full:
                total -= window[0]
            append(micro)
            total += micro
        self._sums[member] = total
        if self.uniform_share < 1.0:
            self._cdf = None

    def reset_agents(self) -> None:
        """Forget the built agents (a new vector env starts with fresh ones)."""
        self._own.clear()
        self._shared.clear()

    # -- checkpoints and worker copies ----------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """Everything needed to continue identically: snapshots (weights) and rolling results."""
        return {"snapshots": self.snapshots_state(), "results": self.results_state()}

    def snapshots_state(self, as_numpy: bool = False) -> list[dict[str, Any]]:
        """The snapshots (name, config, weights as tensors, or numpy arrays with ``as_numpy``: what
        a message to a worker process carries, where a tensor would travel as shared memory)."""
        return [
            {
                "name": name,
                "config": p.config.to_dict(),
                "weights": {k: (v.detach().numpy().copy() if as_numpy else v.clone()) for k, v in p.model.state_dict().items()},
            }
            for name, p in self._snapshots
        ]

    def snapshot_names(self) -> tuple[str, ...]:
        """The snapshots' names, oldest first (a worker's copy is sent again when they change)."""
        return tuple(name for name, _ in self._snapshots)

    def results_state(self) -> list[list[int]]:
        """The rolling results (per member, its window of payoffs in micro-big-blinds)."""
        return [list(r) for r in self._results]

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore :meth:`state_dict` output (into a pool built with the same fixed specs)."""
        if len(state["results"]) != len(self.specs) + len(state["snapshots"]):
            allowed = "the checkpoint's pool has other fixed members than this one"
            raise ConfigError("pool", len(state["results"]), allowed)
        self.load_snapshots(state["snapshots"])
        self.load_results(state["results"])

    def load_snapshots(self, snapshots: Sequence[dict[str, Any]]) -> None:
        """Replace the snapshots by :meth:`snapshots_state` output (tensors or numpy arrays); the
        built agents are forgotten (member ids may now name other snapshots)."""
        loaded = []
        for snap in snapshots:
            config = PolicyConfig.from_dict(snap["config"])
            model = ActorCritic(config)
            model.load_state_dict({k: torch.as_tensor(v) for k, v in snap["weights"].items()})
            loaded.append((snap["name"], PpoPolicy(config, model)))
        self._snapshots = loaded
        while len(self._results) < len(self.specs) + len(loaded):
            self._results.append(deque(maxlen=self.window))
        del self._results[len(self.specs) + len(loaded):]
        self._sums = [sum(r) for r in self._results]
        self.reset_agents()
        self._cdf = None

    def load_results(self, results: Sequence[Sequence[int]]) -> None:
        """Set the rolling results to :meth:`results_state` output (one window per member); the
        built agents are kept."""
        if len(results) != len(self.members):
            raise ConfigError("pool", len(results), f"must be one result window per member ({len(self.members)})")
        self._results = [deque((int(x) for x in r), maxlen=self.window) for r in results]
        self._sums = [sum(r) for r in self._results]
        self._cdf = None
