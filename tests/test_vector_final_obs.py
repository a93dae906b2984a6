"""``final_obs`` and the ``NEXT_STEP`` autoreset on the vector env's batched backend: with a pool (the
batched backend then plays the same hands as the per-table backend from the same seed) every step's
observations, masks, rewards, terminations, infos and finished hands' last observations equal the
per-table backend's (``backend="tables"``, one ``nlhe_v1`` env per table), under both autoreset modes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from holdem_env.batched import BatchedTables
from holdem_env.engine.errors import IllegalActionError
from holdem_env.env._vector_batched import FinalObs
from holdem_env.env.vector import HoldemVectorEnv
from holdem_env.training.pool import OpponentPool

POOL = ["tag", "min-raiser", "shover", "calling-station"]
INFO_KEYS = ("seat", "opponent", "payoff", "final_opponent", "final_seat")


def _run(backend: str, players: int, steps: int, mode: AutoresetMode, **kw: Any) -> list[dict[str, Any]]:
    pool = OpponentPool(POOL, uniform_share=1.0, max_snapshots=1)  # uniform weights: they never move
    venv = HoldemVectorEnv(5, pool, num_players=players, backend=backend, autoreset_mode=mode, **kw)
    assert venv.backend == backend, venv.backend_reason
    obs, infos = venv.reset(seed=33)
    rng = np.random.default_rng(8)
    out = [{"obs": obs, "infos": infos}]
    for _ in range(steps):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]], dtype=np.int64)
        obs, rew, term, trunc, infos = venv.step(acts)
        out.append({"obs": obs, "infos": infos, "rew": rew, "term": term, "trunc": trunc})
    return out


def _same_array(a: np.ndarray, b: np.ndarray, where: str) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape, where
    if a.dtype == np.float32:  # bit for bit
        assert (a.view(np.int32) == b.view(np.int32)).all(), where
    else:
        assert np.array_equal(a, b), where


def _compare(batched: list[dict[str, Any]], tables: list[dict[str, Any]]) -> int:
    finals = 0
    for i, (b, t) in enumerate(zip(batched, tables, strict=True)):
        for k in ("observation", "action_mask"):
            _same_array(b["obs"][k], t["obs"][k], f"step {i} {k}")
        for k in ("rew", "term", "trunc"):
            if k in t:
                _same_array(np.asarray(b[k]), np.asarray(t[k]), f"step {i} {k}")
        bi, ti = b["infos"], t["infos"]
        assert set(bi) == set(ti), f"step {i}: info keys {sorted(bi)} != {sorted(ti)}"
        for k in INFO_KEYS:
            if k in ti:
                _same_array(bi[k], ti[k], f"step {i} info {k}")
                _same_array(bi["_" + k], ti["_" + k], f"step {i} info _{k}")
        if "final_obs" in ti:
            _same_array(bi["_final_obs"], ti["_final_obs"], f"step {i} _final_obs")
            for r, (x, y) in enumerate(zip(bi["final_obs"], ti["final_obs"], strict=True)):
                assert (x is None) == (y is None), f"step {i} row {r}"
                if y is not None:
                    assert isinstance(x, FinalObs) and sorted(x) == sorted(y)
                    for k in y:
                        _same_array(x[k], y[k], f"step {i} row {r} final_obs {k}")
                    finals += 1
    return finals


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
@pytest.mark.parametrize(("players", "kw"), [(2, {"action_mode": "exact"}), (6, {"action_mode": "exact", "ante": 2})])
def test_both_backends_give_the_same_steps_and_final_observations(mode: AutoresetMode, players: int, kw: dict) -> None:
    steps = 70 if players == 2 else 40
    batched = _run("batched", players, steps, mode, **kw)
    tables = _run("tables", players, steps, mode, **kw)
    finals = _compare(batched, tables)
    ended = sum(int(s["term"].sum()) for s in tables[1:])
    assert ended > 10  # hands did end (and their rows were compared)
    if mode == AutoresetMode.SAME_STEP:
        assert finals == ended
    else:  # the row after each end is the finished hand's last observation, with only id 1 allowed
        assert finals == 0
        term = batched[1]["term"]
        for s in batched[1:]:
            for t in np.flatnonzero(s["term"]).tolist():
                assert s["obs"]["action_mask"][t].tolist() == [0, 1] + [0] * (len(s["obs"]["action_mask"][t]) - 2)
        assert term.dtype == bool


def test_next_step_ignores_the_action_of_a_row_showing_a_finished_hand() -> None:
    pool = OpponentPool(POOL, uniform_share=1.0, max_snapshots=1)
    venv = HoldemVectorEnv(4, pool, num_players=2, autoreset_mode="next_step", action_mode="exact")
    assert venv.backend == "batched"
    obs, _ = venv.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(200):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]], dtype=np.int64)
        obs, rew, term, _, _ = venv.step(acts)
        if term.any():
            break
    assert term.any()
    showing = term.copy()
    acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]], dtype=np.int64)
    acts[showing] = 10**6  # ignored: no error, whatever it is
    obs, rew, term, _, _ = venv.step(acts)
    assert not term[showing].any() and not rew[showing].any()
    assert (obs["action_mask"][showing].sum(axis=1) >= 2).all()  # the next hand's live legal set


def test_final_obs_reads_as_a_mapping_of_arrays() -> None:
    pool = OpponentPool(["tag"], uniform_share=1.0, max_snapshots=1)
    venv = HoldemVectorEnv(8, pool, num_players=2)
    assert venv.backend == "batched"
    obs, _ = venv.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(100):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]], dtype=np.int64)
        obs, _, term, _, infos = venv.step(acts)
        if term.any():
            break
    t = int(np.flatnonzero(term)[0])
    final = infos["final_obs"][t]
    plain = dict(final)
    assert sorted(plain) == ["action_mask", "observation"] and len(final) == 2
    assert plain["observation"].shape == obs["observation"][t].shape and plain["observation"].dtype == np.float32
    assert {**final}.keys() == plain.keys() and "FinalObs" in repr(final)
    import copy
    import pickle

    for twin in (pickle.loads(pickle.dumps(final)), copy.deepcopy(final)):  # travels as the plain dict
        assert type(twin) is dict and all(np.array_equal(twin[k], plain[k]) for k in plain)
    assert all(infos["final_obs"][r] is None for r in np.flatnonzero(~term).tolist())


def test_the_core_leaves_a_table_with_action_minus_one_as_it_was() -> None:
    bt = BatchedTables(3, 2, 1, 2, 200, seed=5, random_opponents=True)
    before = (bt.actor.copy(), bt.contrib.copy(), bt.stacks.copy(), bt.hands_played.copy())
    acts = bt.random_actions()
    acts[1] = -1
    bt.step(acts)
    assert bt.actor[1] == before[0][1] and np.array_equal(bt.contrib[1], before[1][1])
    assert np.array_equal(bt.stacks[1], before[2][1]) and bt.hands_played[1] == before[3][1]
    assert not np.array_equal(bt.contrib[[0, 2]], before[1][[0, 2]]) or bt.hands_played[[0, 2]].sum() > 0
    acts = bt.random_actions()
    acts[1], acts[2] = -1, 10**6
    with pytest.raises(IllegalActionError, match="table 2"):
        bt.step(acts)
    acts[1], acts[2] = -2, 1
    with pytest.raises(IllegalActionError, match="table 1"):
        bt.step(acts)


def test_final_obs_false_leaves_it_out_on_both_backends_and_changes_nothing_else() -> None:
    runs = {}
    for backend in ("batched", "tables"):
        for final_obs in (True, False):
            runs[backend, final_obs] = _run(backend, 2, 40, AutoresetMode.SAME_STEP, action_mode="exact", final_obs=final_obs)
    for backend in ("batched", "tables"):
        with_, without = runs[backend, True], runs[backend, False]
        assert any("final_obs" in s["infos"] for s in with_)
        assert not any("final_obs" in s["infos"] or "_final_obs" in s["infos"] for s in without)
        for s in with_:
            s["infos"].pop("final_obs", None)
            s["infos"].pop("_final_obs", None)
        _compare(with_, without)
    _compare(runs["batched", False], runs["tables", False])
    venv = HoldemVectorEnv(2, OpponentPool(["tag"]), num_players=2, final_obs=False)
    assert venv._batched is not None and not venv._batched.finals
    obs, _ = venv.reset(seed=0)
    assert venv._batched.bt is not None and not venv._batched.bt.record and venv._batched.bt.trace == []


def test_a_bad_final_obs_is_refused_clearly() -> None:
    from holdem_env.engine.errors import ConfigError

    with pytest.raises(ConfigError, match="final_obs.*True or False"):
        HoldemVectorEnv(2, OpponentPool(["tag"]), num_players=2, final_obs="yes")  # type: ignore[arg-type]
