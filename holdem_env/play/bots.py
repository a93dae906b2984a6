"""The bots at a play table: each sees only its own seat, through the same env view as in the arena.

The hand itself is played on the engine (:mod:`holdem_env.play.session`). Bots are agents
(``act(observation, info) -> action id``); they read a *mirror* of that hand, an exact-mode
:mod:`holdem_env.env.nlhe_v1` environment dealt from the same deck, button and stacks, into
which every action taken at the table is stepped. So a bot gets exactly the observation,
action mask and ``info`` the arena gives it: its own hole cards, the public actions, and
other players' cards only when the engine shows them.

A bot trained in the env's *discrete* action mode (a ``ppo`` agent: its ``policy.config``
names ``bet_sizes`` and ``num_actions``; or any agent with ``action_mode = "discrete"`` and
``bet_sizes``) gets the same observation with the discrete mask of its bet sizes, and its
discrete id is played as the raise-to amount that id stands for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from holdem_env.agents.base import AgentError, make_agent
from holdem_env.engine.actions import Action, ActionKind
from holdem_env.engine.cards import card_str
from holdem_env.engine.record import ActionEvent
from holdem_env.engine.state import HandState
from holdem_env.env.nlhe_v1 import discrete_raise_amounts, raw_env
from holdem_env.play.roster import DEFAULT_OPPONENTS, LEARNED_BOTS, LearnedBot, learned_bots_for

__all__ = ["BotSeats", "DEFAULT_OPPONENTS", "LEARNED_BOTS", "LearnedBot", "learned_bots_for"]

def _discrete_sizes(agent: Any) -> tuple[float, ...] | None:
    """The bet sizes of an agent that plays the env's discrete action mode, None for exact-mode agents."""
    if agent is None:
        return None
    config = getattr(getattr(agent, "policy", None), "config", None)  # a ppo agent's policy
    sizes = getattr(config, "bet_sizes", None)
    if getattr(config, "num_actions", None) is not None and sizes is not None:
        return tuple(sizes)
    if getattr(agent, "action_mode", None) == "discrete" and getattr(agent, "bet_sizes", None) is not None:
        return tuple(agent.bet_sizes)
    return None


class BotSeats:
    """The agents of the bot seats and the mirror env they observe.

    ``specs[seat]`` is an agent spec string for a bot seat and ``None`` for a person's
    seat. ``agents`` may give ready-built agents instead (same layout); otherwise each is
    built with :func:`~holdem_env.agents.base.make_agent`.
    """

    def __init__(
        self,
        specs: Sequence[str | None],
        *,
        small_blind: int,
        big_blind: int,
        buy_in: int,
        agents: Sequence[Any] | None = None,
    ) -> None:
        self.specs = tuple(specs)
        self.n = len(specs)
        self._blinds = (small_blind, big_blind, buy_in)
        if agents is None:
            agents = [None if spec is None else make_agent(spec) for spec in specs]
        self.agents = list(agents)
        self._discrete = [_discrete_sizes(a) for a in self.agents]
        self._hand: HandState | None = None
        self._env: Any = None
        self._max_stack = 0

    def is_bot(self, seat: int) -> bool:
        """Whether ``seat`` is played by an agent."""
        return self.agents[seat] is not None

    def _env_for(self, stacks: Sequence[int]) -> Any:
        """The mirror env, rebuilt with a larger action space when a stack outgrew it."""
        need = max(stacks)
        if self._env is None or need > self._max_stack:
            sb, bb, buy_in = self._blinds
            self._max_stack = max(self.n * buy_in, 2 * need)
            self._env = raw_env(
                num_players=self.n,
                small_blind=sb,
                big_blind=bb,
                buy_in=buy_in,
                action_mode="exact",
                max_stack=self._max_stack,
                reward_unit="chips",
            )
        return self._env

    def _hook(self, seat: int, name: str, *args: Any) -> str | None:
        """Call the optional hook ``name`` of the bot at ``seat``; a failure is caught and described.

        A researcher's bot may raise in any hook: the table goes on, and the returned
        sentence (for the hand log) says which bot failed where.
        """
        agent = self.agents[seat]
        hook = getattr(agent, name, None) if agent is not None else None
        if hook is None:
            return None
        try:
            hook(*args)
        except Exception as exc:  # any error of foreign code: the table must not stop
            spec = self.specs[seat] or repr(agent)
            return f"the bot {spec!r} at seat {seat} failed in {name} ({type(exc).__name__}: {exc}); the table goes on"
        return None

    def start_hand(self, hand: HandState, rngs: Sequence[np.random.Generator]) -> list[str]:
        """Deal the mirror of ``hand``, give each bot its generator and its seat's first info.

        Returns a sentence for each bot hook that failed (the table goes on without it).
        """
        env = self._env_for(hand.starting_stacks)
        self._hand = hand
        env.reset(options={"deck": list(hand.deck), "button": hand.button, "stacks": list(hand.starting_stacks)})
        problems = []
        for seat, agent in enumerate(self.agents):
            if agent is None:
                continue
            for problem in (self._hook(seat, "set_rng", rngs[seat]),
                            self._hook(seat, "start_hand", env.infos[env.possible_agents[seat]])):
                if problem is not None:
                    problems.append(problem)
        return problems

    def decide(self, seat: int) -> Action:
        """Ask the bot on turn at ``seat`` for its action, as an engine :class:`Action`.

        Raises :class:`~holdem_env.agents.base.AgentError` when the agent raises or returns
        an id its mask does not allow.
        """
        env = self._env
        name = env.possible_agents[seat]
        assert env.agent_selection == name, "the mirror env is out of step with the table"
        observation = env.observe(name)
        info = env.infos[name]
        mask = observation["action_mask"]
        spec = self.specs[seat] or repr(self.agents[seat])
        sizes = self._discrete[seat]
        amounts: list[int | None] = []
        if sizes is not None:  # the same observation with the discrete mask of its bet sizes
            hand = self._hand
            assert hand is not None
            amounts = discrete_raise_amounts(
                hand.legal_actions(), pot=hand.pot, current_bet=hand.current_bet,
                all_in_to=hand.street_bets[seat] + hand.stacks[seat], bet_sizes=sizes,
            )
            mask = np.array([mask[0], mask[1], *(a is not None for a in amounts)], dtype=mask.dtype)
            observation = {**observation, "action_mask": mask}
        try:
            action = self.agents[seat].act(observation, info)
        except Exception as exc:
            raise AgentError(f"agent {spec!r} (seat {seat}) raised {type(exc).__name__}: {exc}", agent=spec) from exc
        ok = (
            isinstance(action, (int, np.integer)) and not isinstance(action, bool)
            and 0 <= action < len(mask) and mask[action]
        )
        if not ok:
            raise AgentError(
                f"agent {spec!r} (seat {seat}) returned action {action!r}, which is not legal",
                agent=spec,
                action=action,
            )
        a = int(action)
        if a == 0:
            return Action.fold()
        if a == 1:
            return Action.check() if info["legal"]["check"] else Action.call()
        if sizes is not None:
            to = amounts[a - 2]
            assert to is not None  # the mask allowed it
            return Action.raise_to(to)
        return Action.raise_to(a - 1)

    def mirror(self, event: ActionEvent) -> None:
        """Step the action ``event`` (already applied at the table) into the mirror env."""
        kind = ActionKind(event.kind)
        if kind is ActionKind.FOLD:
            a = 0
        elif kind in (ActionKind.CHECK, ActionKind.CALL):
            a = 1
        else:
            a = event.to + 1
        self._env.step(a)

    def end_hand(self, hand: HandState, shown: Mapping[int, Sequence[int]] | None = None) -> list[str]:
        """Tell every bot the result of the finished ``hand`` (its ``end_hand`` hook).

        ``shown``: the hands shown at the table (seat -> cards), everybody's to see; default
        the engine's. Returns a sentence for each hook that failed.
        """
        payoffs = hand.payoffs
        assert payoffs is not None
        board = tuple(card_str(c) for c in hand.board)
        visible = hand.shown if shown is None else shown
        cards_shown = {int(s): tuple(card_str(c) for c in cards) for s, cards in visible.items()}
        problems = []
        for seat in range(self.n):
            result = {"seat": seat, "payoff": int(payoffs[seat]), "board": board, "shown": dict(cards_shown)}
            problem = self._hook(seat, "end_hand", result)
            if problem is not None:
                problems.append(problem)
        return problems
