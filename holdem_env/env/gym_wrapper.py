"""Single-agent Gymnasium view of ``nlhe_v1``: one learner seat, the other seats played by policies.

>>> from holdem_env.env.gym_wrapper import HoldemGymEnv
>>> genv = HoldemGymEnv(learner=0, num_players=3, action_mode="exact")
>>> obs, info = genv.reset(seed=1)
>>> bool(genv.action_masks()[1])          # check/call is always open to the learner on its turn
True
>>> obs, reward, terminated, truncated, info = genv.step(1)
>>> HoldemGymEnv(learner=5, num_players=3)
Traceback (most recent call last):
...
holdem_env.engine.errors.ConfigError: learner=5 is invalid: must be a seat in 0..2 or an agent name player_0..player_2

An episode is one hand *in which the learner acts*: ``reset`` deals hands (the button
moving one seat each time) and lets the opponents play until the learner is to act; a
hand that ends before that (everyone folds to the learner's big blind) is skipped.
``step`` applies the learner's action, then plays the opponents until the learner acts
again or the hand ends; the reward is the learner's chip change over the hand (big blinds
by default), given on the final step.

The mask is in the observation (``obs["action_mask"]``) and from :meth:`HoldemGymEnv.action_masks`
(the convention of sb3-contrib's ``MaskablePPO``). The wrapper's default
``illegal_action="timeout"`` turns a masked-out learner action into the clock running out
(check if free, otherwise fold), so unmasked samplers (and Gymnasium's ``check_env``) can step
it; it warns once per env (:class:`IllegalActionWarning`) and counts them: ``info["illegal_actions"]``
is the number in the current episode, :attr:`HoldemGymEnv.illegal_action_count` the total. Pass
``illegal_action="raise"`` to get :class:`~holdem_env.engine.errors.IllegalActionError` instead.

The observation that ends an episode (``terminated``) has a mask allowing only id 1 (check/call):
no action is ever applied there (``step`` then asks for ``reset``; Gymnasium's vector envs drop
the next action under the default ``AutoresetMode.NEXT_STEP``), but masked samplers given that row
need one legal id, and an all-zero mask makes them fail (NaN logits, empty choice).

Seeding: ``reset(seed=s)`` reseeds the deals, the default random opponents and every opponent
object with ``set_rng`` (one generator per seat, drawn from ``s``), so the same seed and the same
learner actions replay the same hands; plain callables are not reseeded. Opponents with
``start_hand(info)`` are told of every new hand.

``render_mode``: ``"ansi"`` (text), ``"human"`` (prints it) or ``"rgb_array"`` (an image of the
table as the learner may see it, :mod:`holdem_env.env.render_rgb`), so Gymnasium's ``RecordVideo``,
``gymnasium.utils.play`` (:meth:`HoldemGymEnv.get_keys_to_action`) and SB3's ``make_vec_env`` work.

Two options serve libraries that cannot take the default dict observation or the reward's size:
``observation_format="flat"`` makes the observation one float32 ``Box``: the ``observation``
vector followed by the ``action_mask`` as 0.0/1.0 (the last ``action_space.n`` entries;
:func:`split_flat_observation` takes them apart), for ``MlpPolicy`` and observation wrappers that
need a ``Box``; ``action_masks()`` still returns the mask. ``reward_scale`` multiplies every reward
(after ``reward_unit``: big blinds by default).

>>> flat = HoldemGymEnv(num_players=2, observation_format="flat", reward_scale=0.01)
>>> obs, info = flat.reset(seed=3)
>>> obs.shape == flat.observation_space.shape, obs.dtype.name
(True, 'float32')
>>> bool((split_flat_observation(obs, flat.action_space.n)[1] == flat.action_masks()).all())
True
>>> HoldemGymEnv(observation_format="box")
Traceback (most recent call last):
...
holdem_env.engine.errors.ConfigError: observation_format='box' is invalid: must be 'dict' or 'flat'

Opponent policies are callables ``policy(observation, info) -> action id`` or objects with
``act(observation, info)`` (the :mod:`agents` interface); the default plays uniformly over
the mask, drawing from the wrapper's seeded ``np_random``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from holdem_env.engine.errors import ConfigError, HoldemError, IllegalActionError, short_repr
from holdem_env.engine.validate import is_int
from holdem_env.env.flat import flat_observation_space, flatten_observation, split_flat_observation
from holdem_env.env.nlhe_v1 import raw_env
from holdem_env.env.render_rgb import draw_table

__all__ = [
    "HoldemGymEnv",
    "IllegalActionWarning",
    "Policy",
    "random_legal_policy",
    "OBSERVATION_FORMATS",
    "RENDER_MODES",
    "split_flat_observation",
]

Policy = Callable[[dict, dict], int] | Any
_MAX_SKIPPED_HANDS = 10_000
OBSERVATION_FORMATS = ("dict", "flat")
RENDER_MODES = ("human", "ansi", "rgb_array")
#: The one id a terminal observation's mask allows (check/call; never applied, see the module docstring).
TERMINAL_MASK_ID = 1


class IllegalActionWarning(UserWarning):
    """A learner's masked-out action was played as a timeout (check if free, else fold)."""


def random_legal_policy(rng: np.random.Generator) -> Callable[[dict, dict], int]:
    """A policy that picks uniformly among the actions its observation's mask allows."""

    def policy(observation: dict, info: dict) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[rng.integers(len(legal))])

    return policy


class HoldemGymEnv(gymnasium.Env):
    """One seat of :class:`holdem_env.env.nlhe_v1.raw_env` as a Gymnasium ``Env``.

    ``learner`` is a seat number or agent name; ``opponents`` is one policy for every other
    seat, a mapping ``seat -> policy``, a sequence indexed by seat (the learner's entry is
    ignored) or None (uniform random legal play). The remaining keyword arguments build the
    AEC environment (``num_players``, ``action_mode``, ``betting``, ...).
    ``observation_format`` is ``"dict"`` (default) or ``"flat"``; ``reward_scale`` (a finite
    number > 0, default 1) multiplies every reward.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(
        self,
        learner: int | str = 0,
        opponents: Policy | Mapping[int, Policy] | Sequence[Policy | None] | None = None,
        *,
        illegal_action: str = "timeout",
        render_mode: str | None = None,
        observation_format: str = "dict",
        reward_scale: float = 1.0,
        **env_kwargs: Any,
    ) -> None:
        if observation_format not in OBSERVATION_FORMATS:
            raise ConfigError("observation_format", observation_format, "must be 'dict' or 'flat'")
        if (
            isinstance(reward_scale, bool)
            or not isinstance(reward_scale, (int, float, np.integer, np.floating))
            or not np.isfinite(reward_scale)
            or reward_scale <= 0
        ):
            raise ConfigError("reward_scale", reward_scale, "must be a finite number > 0")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError("render_mode", render_mode, "must be None, 'human', 'ansi' or 'rgb_array'")
        text_mode = render_mode if render_mode in ("human", "ansi") else None  # rgb_array is drawn here
        self.aec = raw_env(illegal_action=illegal_action, render_mode=text_mode, **env_kwargs)
        n = self.aec.config.num_players
        agents = self.aec.possible_agents
        if isinstance(learner, str) and learner in agents:
            seat = agents.index(learner)
        elif isinstance(learner, (int, np.integer)) and not isinstance(learner, bool) and 0 <= learner < n:
            seat = int(learner)
        else:
            allowed = f"must be a seat in 0..{n - 1} or an agent name player_0..player_{n - 1}"
            raise ConfigError("learner", learner, allowed)
        self.learner_seat = seat
        if env_kwargs.get("render_viewer") is None:
            self.aec.render_viewer = seat  # a render shows what the learner may see
        self.learner = agents[seat]
        self.render_mode = render_mode
        self.observation_format = observation_format
        self.reward_scale = float(reward_scale)
        obs_space = self.aec.observation_space(self.learner)
        act_space = self.aec.action_space(self.learner)
        # raw_env's spaces: Dict(observation=Box, action_mask=Box) and Discrete(num_actions)
        assert isinstance(obs_space, gymnasium.spaces.Dict) and isinstance(act_space, gymnasium.spaces.Discrete)
        self.observation_space = obs_space
        self.action_space = act_space
        if observation_format == "flat":
            self.observation_space = flat_observation_space(obs_space)
        self._policies = self._resolve_opponents(opponents)
        self._obs: dict[str, np.ndarray] | None = None
        self._terminal_mask = np.zeros(act_space.n, dtype=np.int8)
        self._terminal_mask[TERMINAL_MASK_ID] = 1
        #: Masked-out learner actions played as timeouts since this env was made.
        self.illegal_action_count = 0
        self._episode_illegal = 0
        self._warned = False

    def _resolve_opponents(self, opponents: Any) -> dict[int, Any]:
        n = self.aec.config.num_players
        others = [s for s in range(n) if s != self.learner_seat]
        if opponents is None:
            return dict.fromkeys(others)
        if isinstance(opponents, Mapping):
            missing = [s for s in others if s not in opponents]
            if missing:
                raise ConfigError("opponents", opponents, f"mapping lacks a policy for seats {missing}")
            chosen = {s: opponents[s] for s in others}
        elif isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != n:
                raise ConfigError("opponents", opponents, f"a sequence must have one entry per seat ({n})")
            chosen = {s: opponents[s] for s in others}
        else:
            chosen = dict.fromkeys(others, opponents)
        for s, p in chosen.items():
            if p is not None and not callable(p) and not callable(getattr(p, "act", None)):
                allowed = f"seat {s}: a policy is a callable (obs, info) -> id or has act(obs, info)"
                raise ConfigError("opponents", p, allowed)
        return chosen

    def _opponent_action(self, seat: int, obs: dict, info: dict) -> int:
        policy = self._policies[seat]
        if policy is None:
            legal = np.flatnonzero(obs["action_mask"])
            return int(legal[self.np_random.integers(len(legal))])
        act = getattr(policy, "act", None)
        action = act(obs, info) if callable(act) else policy(obs, info)
        mask = obs["action_mask"]
        if not is_int(action) or not 0 <= action < len(mask):  # a masked id is the env's to judge (illegal_action)
            legal_ids = ", ".join(str(int(a)) for a in np.flatnonzero(mask))
            raise IllegalActionError(
                f"opponent {short_repr(policy)} at seat {seat} returned {short_repr(action)}, not an action id "
                f"(legal now: {legal_ids})"
            )
        return int(action)

    def _reseed_opponents(self, seed: int) -> None:
        """Give every opponent object with ``set_rng`` a generator drawn from ``seed`` (one per seat)."""
        children = np.random.SeedSequence(seed).spawn(self.aec.config.num_players)
        done: set[int] = set()
        for seat, policy in self._policies.items():
            set_rng = getattr(policy, "set_rng", None)
            if callable(set_rng) and id(policy) not in done:  # a policy in several seats: its first seat's
                done.add(id(policy))
                set_rng(np.random.default_rng(children[seat]))

    def _start_hand(self) -> None:
        """Tell the opponents with ``start_hand(info)`` that a hand was dealt."""
        aec = self.aec
        for seat, policy in self._policies.items():
            start = getattr(policy, "start_hand", None)
            if callable(start) and aec._dealt[seat]:
                start(aec.infos[aec.possible_agents[seat]])

    def _play_opponents(self) -> None:
        """Step the AEC env until the learner is to act or the hand is over."""
        aec = self.aec
        while not aec.terminations[self.learner] and aec.agent_selection != self.learner:
            agent = aec.agent_selection
            seat = aec.agent_name_mapping[agent]
            obs = aec.observe(agent)
            aec.step(self._opponent_action(seat, obs, aec.infos[agent]))

    def _out(self, obs: dict[str, np.ndarray], terminal: bool = False) -> Any:
        """The observation in the chosen format (the dict is kept for ``action_masks``)."""
        if terminal:
            obs = {"observation": obs["observation"], "action_mask": self._terminal_mask.copy()}
        self._obs = obs
        if self.observation_format == "dict":
            return obs
        return flatten_observation(obs)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        """Deal until the learner is to act; ``options`` go to the first hand dealt (see ``nlhe_v1``)."""
        aec = self.aec
        stacks = aec._parse_options(options)[2]  # bad options raise here, before anything changes
        if stacks is not None and stacks[self.learner_seat] == 0:
            allowed = f"the learner's seat {self.learner_seat} must be dealt in (stack > 0)"
            raise ConfigError("options", options, allowed)
        super().reset(seed=seed)
        if seed is not None:
            self._reseed_opponents(int(self.np_random.integers(2**63 - 1)))
        if seed is not None or aec._table is None:
            aec.reset(seed=int(self.np_random.integers(2**63 - 1)), options=options)
        else:
            aec.reset(options=options)
        if not aec._dealt[self.learner_seat]:  # bankroll mode: the learner's cash no longer covers the buy-in
            raise HoldemError(f"the learner's seat {self.learner_seat} was not dealt in (bankroll below the buy-in)")
        self._episode_illegal = 0
        for _ in range(_MAX_SKIPPED_HANDS):
            self._start_hand()
            self._play_opponents()
            if not aec.terminations[self.learner]:
                return self._out(aec.observe(self.learner)), self._info()
            aec.reset()
        raise HoldemError(f"the learner never got to act in {_MAX_SKIPPED_HANDS} hands")  # pragma: no cover

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        """Apply the learner's action, play the opponents, return the learner's next view."""
        aec = self.aec
        if self._obs is None or aec.terminations[self.learner]:
            raise HoldemError("step() called before reset() or after the hand ended: call reset()")
        index = _action_index(action)
        if index is not None and 0 <= index < self._terminal_mask.size and not self._obs["action_mask"][index]:
            self._count_illegal(index)
        aec.step(action)
        self._play_opponents()
        terminated = bool(aec.terminations[self.learner])
        reward = float(aec._cumulative_rewards[self.learner]) * self.reward_scale
        obs = self._out(aec.observe(self.learner), terminal=terminated)
        return obs, reward, terminated, False, self._info()

    def _info(self) -> dict[str, Any]:
        """The learner's info from the AEC env plus ``illegal_actions`` (this episode's count)."""
        return {**self.aec.infos[self.learner], "illegal_actions": self._episode_illegal}

    def _count_illegal(self, index: int) -> None:
        if self.aec.illegal_action != "timeout":
            return  # the AEC env raises IllegalActionError and nothing changes
        self.illegal_action_count += 1
        self._episode_illegal += 1
        if not self._warned:
            self._warned = True
            legal = _ranges(np.flatnonzero(self._obs["action_mask"]).tolist()) if self._obs is not None else ""
            warnings.warn(
                f"HoldemGymEnv: the learner's action {index} is masked out (legal ids: {legal}); it is played as a "
                "timeout (check if free, else fold). Sample from the mask (obs['action_mask'] or action_masks()) or "
                "pass illegal_action='raise'. Counted in info['illegal_actions']; warned once per env.",
                IllegalActionWarning,
                stacklevel=3,
            )

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool array (sb3-contrib ``MaskablePPO`` convention)."""
        if self._obs is None:
            raise HoldemError("action_masks() called before reset()")
        return self._obs["action_mask"].astype(bool)

    def render(self) -> Any:
        """Render the table: ``"ansi"`` returns text, ``"human"`` prints it, ``"rgb_array"`` returns an image.

        The image (``(400, 640, 3)`` uint8, :func:`holdem_env.env.render_rgb.draw_table`) shows the table
        as the learner sees it: its own hole cards and the cards shown at showdown, backs elsewhere.
        """
        if self.render_mode != "rgb_array":
            return self.aec.render()
        aec = self.aec
        if aec._state is None:
            return draw_table(None)
        view = aec._seat_view(self.learner_seat)  # a fresh, sealed view of the learner's seat
        title = f"hand {aec._hands}  blinds {aec.config.small_blind}/{aec.config.big_blind}"
        return draw_table(view, title=title)

    def get_keys_to_action(self) -> dict[tuple[int, ...], int]:
        """Keys for ``gymnasium.utils.play.play``: ``f`` fold, ``c`` check/call, and in the discrete action
        mode ``r`` min-raise and ``a`` all-in. Poker is turn-based: ``play(env, wait_on_player=True)``."""
        keys: dict[tuple[int, ...], int] = {(ord("f"),): 0, (ord("c"),): 1}
        if self.aec.action_mode == "discrete":
            keys[(ord("r"),)] = 2
            keys[(ord("a"),)] = self._terminal_mask.size - 1
        return keys

    def close(self) -> None:
        """Release the underlying AEC environment."""
        self.aec.close()


def _action_index(action: Any) -> int | None:
    """``action`` as a plain int when it is an integer id (a Python or NumPy int, or a 0-d/1-element array)."""
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    if isinstance(action, np.ndarray) and action.size == 1 and np.issubdtype(action.dtype, np.integer):
        return int(action.reshape(()))
    return None


def _ranges(ids: list[int]) -> str:
    """Sorted ids as compact ranges: ``[0, 1, 2, 5]`` -> ``"0..2, 5"``."""
    parts: list[str] = []
    i = 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        parts.append(str(ids[i]) if j == i else f"{ids[i]}..{ids[j]}")
        i = j + 1
    return ", ".join(parts)
