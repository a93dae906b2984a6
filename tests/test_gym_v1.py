"""Holdem-v1's wrapper behaviour: reproducible resets with bot opponents, rgb_array frames (RecordVideo, SB3),
the terminal mask under both autoreset modes, counted illegal actions, and the ids."""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

import holdem_env  # noqa: F401  (registers the Gymnasium ids)
from holdem_env.agents.base import make_agent
from holdem_env.engine.cards import card_str, shuffled_deck
from holdem_env.engine.errors import ConfigError, IllegalActionError
from holdem_env.env.gym_wrapper import HoldemGymEnv, IllegalActionWarning
from holdem_env.env.render_rgb import FRAME_HEIGHT, FRAME_WIDTH

# --------------------------------------------------------------------------- reproducible resets


def _trajectory(env: HoldemGymEnv, seed: int, steps: int = 60) -> list[Any]:
    """Learner actions from a fixed generator; what comes back, and every finished hand's record."""
    rng = np.random.default_rng(99)
    out: list[Any] = []
    obs, _ = env.reset(seed=seed)
    for _ in range(steps):
        legal = np.flatnonzero(env.action_masks())
        obs, reward, terminated, _, _ = env.step(int(legal[rng.integers(legal.size)]))
        out.append((obs["observation"].tobytes(), reward))
        if terminated:
            out.append(env.aec.hand_record().to_json())
            obs, _ = env.reset()
    return out


@pytest.mark.parametrize("spec", ["lag", "tag", "random"])
def test_same_seed_same_hands_with_randomised_bot_opponents(spec: str) -> None:
    a = HoldemGymEnv(0, make_agent(spec), num_players=3)
    b = HoldemGymEnv(0, make_agent(spec), num_players=3)
    first = _trajectory(a, seed=7)
    assert _trajectory(b, seed=7) == first  # two envs
    assert _trajectory(a, seed=7) == first  # one env reset twice with the seed
    assert _trajectory(a, seed=8) != first


class _Recorder:
    """An opponent that records the generators and hand starts it is given and plays the first legal id."""

    def __init__(self) -> None:
        self.rngs: list[np.random.Generator] = []
        self.starts = 0

    def set_rng(self, rng: np.random.Generator) -> None:
        self.rngs.append(rng)

    def start_hand(self, info: dict) -> None:
        assert "legal" in info
        self.starts += 1

    def act(self, observation: dict, info: dict) -> int:
        return int(np.flatnonzero(observation["action_mask"])[-1 if len(self.rngs) % 2 else 1])


def test_reset_with_a_seed_reseeds_each_opponent_once_and_start_hand_is_called() -> None:
    one, other = _Recorder(), _Recorder()
    env = HoldemGymEnv(1, {0: one, 2: other, 3: one}, num_players=4)
    env.reset(seed=3)
    assert len(one.rngs) == 1 and len(other.rngs) == 1  # the object in two seats is reseeded once
    draws = (one.rngs[0].integers(2**32), other.rngs[0].integers(2**32))
    assert draws[0] != draws[1]  # one generator per seat
    env.reset()
    assert len(one.rngs) == 1  # no seed: the opponents keep their generators
    env.reset(seed=3)
    assert (one.rngs[1].integers(2**32), other.rngs[1].integers(2**32)) == draws
    assert one.starts >= 3 and other.starts >= 3  # every hand dealt (skipped ones too)


# --------------------------------------------------------------------------- rgb_array


def _deck_with(first: list[int], rest_seed: int = 0) -> list[str]:
    rest = [c for c in shuffled_deck(np.random.default_rng(rest_seed)) if c not in first]
    return [card_str(c) for c in first + rest]


def _call(observation: dict, info: dict) -> int:
    return 1


def _frame(deck: list[str]) -> tuple[np.ndarray, HoldemGymEnv]:
    """The learner's first picture of a fresh table dealt from ``deck`` (the title counts hands)."""
    env = HoldemGymEnv(0, _call, num_players=2, render_mode="rgb_array")
    env.reset(seed=1, options={"deck": deck, "button": 0})
    return env.render(), env


def test_rgb_array_frames_show_what_the_learner_may_see_and_nothing_else() -> None:
    deck = _deck_with([])
    frame, env = _frame(deck)
    assert frame.shape == (FRAME_HEIGHT, FRAME_WIDTH, 3) and frame.dtype == np.uint8
    mine = set(env.aec.infos["player_0"]["view"]["hole_cards"])
    theirs = [i for i in range(4) if deck[i] not in mine]
    assert len(theirs) == 2
    # the opponent's hole cards swapped for two others that are never dealt preflop: the same picture
    swapped = list(deck)
    for i, j in zip(theirs, (50, 51), strict=True):
        swapped[i], swapped[j] = swapped[j], swapped[i]
    assert np.array_equal(_frame(swapped)[0], frame)
    # the learner's own cards changed: a different picture
    mine_at = [i for i in range(4) if i not in theirs]
    other = list(deck)
    other[mine_at[0]], other[50] = other[50], other[mine_at[0]]
    assert not np.array_equal(_frame(other)[0], frame)


def test_rgb_array_through_gymnasium_make_and_the_render_collection() -> None:
    env = gymnasium.wrappers.RenderCollection(gymnasium.make("holdem_env/Holdem-v1", num_players=3, render_mode="rgb_array"))
    env.reset(seed=4)
    for _ in range(5):
        _, _, terminated, _, _ = env.step(1)
        if terminated:
            break
    frames = env.render()
    assert len(frames) >= 2 and all(f.shape == (FRAME_HEIGHT, FRAME_WIDTH, 3) for f in frames)
    assert any(not np.array_equal(frames[0], f) for f in frames[1:])  # the table moved


def test_bad_render_mode_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="render_mode='rgb'.*'rgb_array'"):
        HoldemGymEnv(render_mode="rgb")


def test_record_video_captures_every_frame(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Gymnasium's RecordVideo over Holdem-v1. moviepy (an encoder with an ffmpeg binary) is not a dependency:
    a stand-in module takes the frames RecordVideo hands to moviepy, so everything up to the encoding runs."""
    written: list[tuple[list[np.ndarray], str]] = []

    class ImageSequenceClip:
        def __init__(self, frames: list[np.ndarray], fps: float) -> None:
            self.frames = list(frames)

        def write_videofile(self, path: str, logger: Any = None) -> None:
            written.append((self.frames, path))

    if importlib.util.find_spec("moviepy") is None:
        for name in ("moviepy", "moviepy.video", "moviepy.video.io"):
            monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
        clip_module = types.ModuleType("moviepy.video.io.ImageSequenceClip")
        clip_module.ImageSequenceClip = ImageSequenceClip  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "moviepy.video.io.ImageSequenceClip", clip_module)
    else:  # the real encoder is there: still intercept the frames
        real = importlib.import_module("moviepy.video.io.ImageSequenceClip")
        monkeypatch.setattr(real, "ImageSequenceClip", ImageSequenceClip)
    env = gymnasium.make("holdem_env/Holdem-v1", num_players=2, render_mode="rgb_array")
    env = gymnasium.wrappers.RecordVideo(env, str(tmp_path), episode_trigger=lambda e: True, disable_logger=True)
    env.reset(seed=0)
    steps = 0
    while True:
        steps += 1
        _, _, terminated, _, _ = env.step(1)
        if terminated:
            break
    env.reset()
    env.close()
    assert written, "RecordVideo wrote no video"
    frames, path = written[0]
    assert path.endswith(".mp4") and len(frames) == steps + 1  # the reset frame and one per step
    assert all(f.shape == (FRAME_HEIGHT, FRAME_WIDTH, 3) and f.dtype == np.uint8 for f in frames)


needs_sb3 = pytest.mark.skipif(importlib.util.find_spec("sb3_contrib") is None, reason="needs holdem-env[examples]")


@needs_sb3
def test_sb3_make_vec_env_with_its_defaults() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env("holdem_env/Holdem-v1", n_envs=2)  # SB3 asks for render_mode="rgb_array"
    obs = venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        masks = get_action_masks(venv)
        assert masks.shape == (2, venv.action_space.n) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, _, _, _ = venv.step(actions)
    assert obs["observation"].shape[0] == 2
    assert venv.get_images()[0].shape == (FRAME_HEIGHT, FRAME_WIDTH, 3)
    venv.close()


def test_keys_for_gymnasium_play(monkeypatch: pytest.MonkeyPatch) -> None:
    env = HoldemGymEnv(num_players=2, render_mode="rgb_array")
    keys = env.get_keys_to_action()
    assert keys[(ord("f"),)] == 0 and keys[(ord("c"),)] == 1
    assert keys[(ord("a"),)] == env.action_space.n - 1 and keys[(ord("r"),)] == 2
    assert set(HoldemGymEnv(num_players=2, action_mode="exact").get_keys_to_action().values()) == {0, 1}
    if importlib.util.find_spec("pygame") is not None:  # the game window is set up from the env's own frames
        monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # no display needed
        from gymnasium.utils.play import PlayableGame

        env.reset(seed=0)
        game = PlayableGame(env)
        assert game.video_size == (FRAME_WIDTH, FRAME_HEIGHT)


# --------------------------------------------------------------------------- autoreset


def _masked_sampler(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Fails (``ValueError``) on an all-zero row, as masked samplers do."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("mode", [gymnasium.vector.AutoresetMode.NEXT_STEP, gymnasium.vector.AutoresetMode.SAME_STEP])
def test_every_row_of_a_gymnasium_vector_env_has_a_legal_action(mode: Any) -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make("holdem_env/Holdem-v1", num_players=2, opponents=make_agent("lag")) for _ in range(3)],
        autoreset_mode=mode,
    )
    rng = np.random.default_rng(5)
    obs, _ = envs.reset(seed=2)
    ended = np.zeros(3, dtype=bool)
    finished = 0
    for _ in range(80):
        obs, reward, terminated, _, info = envs.step(_masked_sampler(obs["action_mask"], rng))
        if mode == gymnasium.vector.AutoresetMode.NEXT_STEP:
            assert (reward[ended] == 0).all() and not terminated[ended].any()  # the reset step
            rows = obs["action_mask"][terminated]
            assert (rows == np.eye(rows.shape[1], dtype=np.int8)[1]).all()  # the placeholder: check/call only
        else:
            assert obs["action_mask"][terminated].sum(axis=1).min(initial=2) >= 1
        ended = terminated
        finished += int(terminated.sum())
    assert finished > 5
    envs.close()


# --------------------------------------------------------------------------- misuse


def test_an_illegal_action_warns_once_and_is_counted_per_episode() -> None:
    env = HoldemGymEnv(0, _call, num_players=2)
    env.reset(seed=0, options={"button": 1})  # the first masked-out id (raise sizes out of range, say) is played
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _, _, _, _, info = env.step(int(np.flatnonzero(env.action_masks() == 0)[0]))
        assert info["illegal_actions"] == 1
        while True:
            illegal = np.flatnonzero(env.action_masks() == 0)
            _, _, terminated, _, info = env.step(int(illegal[0]) if illegal.size else 1)
            if terminated:
                break
    ours = [w for w in caught if issubclass(w.category, IllegalActionWarning)]
    assert len(ours) == 1 and "masked out" in str(ours[0].message) and "illegal_action='raise'" in str(ours[0].message)
    assert env.illegal_action_count == info["illegal_actions"] >= 1
    _, info = env.reset()
    assert info["illegal_actions"] == 0 and env.illegal_action_count >= 1


def test_legal_play_counts_nothing_and_raise_mode_still_raises() -> None:
    env = HoldemGymEnv(0, num_players=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", IllegalActionWarning)
        _trajectory(env, seed=1, steps=40)
    assert env.illegal_action_count == 0
    strict = HoldemGymEnv(0, num_players=2, illegal_action="raise")
    strict.reset(seed=0)
    bad = int(np.flatnonzero(strict.action_masks() == 0)[0])
    with pytest.raises(IllegalActionError):
        strict.step(bad)
    assert strict.illegal_action_count == 0


def test_holdem_v1_is_the_id_and_v0_is_a_warning_alias() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make("holdem_env/Holdem-v1", num_players=2)
    assert type(env.unwrapped) is HoldemGymEnv
    with pytest.warns(FutureWarning, match="Holdem-v0' is deprecated: use 'holdem_env/Holdem-v1'"):
        old = gymnasium.make("holdem_env/Holdem-v0", num_players=2)
    assert type(old.unwrapped) is HoldemGymEnv
    assert old.reset(seed=3)[0]["observation"].tobytes() == env.reset(seed=3)[0]["observation"].tobytes()


def test_rgb_array_draws_ten_seats_with_one_sitting_out_and_the_end_of_a_hand() -> None:
    env = HoldemGymEnv(0, _call, num_players=10, render_mode="rgb_array")
    before = env.render()  # before the first deal: the empty table
    env.reset(seed=3, options={"stacks": [1000] * 9 + [0]})
    dealt = env.render()
    assert before.shape == dealt.shape == (FRAME_HEIGHT, FRAME_WIDTH, 3) and not np.array_equal(before, dealt)
    while True:
        _, _, terminated, _, _ = env.step(0 if env.action_masks()[0] else 1)
        if terminated:
            break
    assert not np.array_equal(env.render(), dealt)
