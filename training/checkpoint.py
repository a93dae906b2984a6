"""Checks of training checkpoints before a run resumes from them: every field's type, range and shape.

A checkpoint is read back by the run that wrote it, but the file may have been damaged or
edited since: :func:`validate_league_state` (a league's ``checkpoint/state.json``) and
:func:`validate_ppo_checkpoint` (a ppo run's ``checkpoint.pt``) raise :class:`CheckpointError`
naming the first field that is wrong and what it must be, before anything uses it.

>>> validate_league_state({"round": True, "history": [], "elapsed": 0.0, "config": {}, "trainer_files": {}})
Traceback (most recent call last):
...
holdem_env.training.checkpoint.CheckpointError: checkpoint field 'round' is True: must be an integer >= 1
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

from holdem_env.engine.errors import HoldemError, short_repr

__all__ = ["CheckpointError", "validate_league_state", "validate_ppo_checkpoint"]


class CheckpointError(HoldemError):
    """A checkpoint field is missing, of the wrong type, out of range, or inconsistent with another."""


def _fail(field: str, value: object, allowed: str) -> CheckpointError:
    return CheckpointError(f"checkpoint field {field!r} is {short_repr(value)}: {allowed}")


def _int(state: Mapping[str, Any], key: str, lo: int, where: str = "") -> int:
    value = state.get(key) if isinstance(state, Mapping) else None
    if isinstance(value, bool) or not isinstance(value, int) or value < lo:
        raise _fail(where + key, value, f"must be an integer >= {lo}")
    return value


def _number(value: object, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _fail(field, value, "must be a finite number")
    return float(value)


def _mapping(state: Mapping[str, Any], key: str, where: str = "") -> Mapping[str, Any]:
    value = state.get(key)
    if not isinstance(value, Mapping):
        raise _fail(where + key, value, "must be a mapping")
    return value


def _list(state: Mapping[str, Any], key: str, where: str = "") -> list[Any]:
    value = state.get(key)
    if not isinstance(value, list):
        raise _fail(where + key, value, "must be a list")
    return value


def _evaluation(h: object, i: int, last_round: int, previous: int) -> int:
    where = f"history[{i}]."
    if not isinstance(h, Mapping):
        raise _fail(f"history[{i}]", h, "must be a mapping with round, agents and pairs")
    r = _int(h, "round", 1, where)
    if not previous < r <= last_round:
        raise _fail(where + "round", r, f"must be after the previous entry's round ({previous}) and at most the checkpoint's ({last_round})")
    for name, keys in (("agents", ("agent", "mbb_per_hand", "ci95")), ("pairs", ("agent", "opponent", "mbb_per_hand", "ci95", "hands"))):
        for j, row in enumerate(_list(h, name, where)):
            field = f"{where}{name}[{j}]"
            if not isinstance(row, Mapping) or not all(k in row for k in keys):
                raise _fail(field, row, f"must be a mapping with {', '.join(keys)}")
            if not isinstance(row["agent"], str):
                raise _fail(field + ".agent", row["agent"], "must be an agent name")
            _number(row["mbb_per_hand"], field + ".mbb_per_hand")
            if row["ci95"] is not None:
                _number(row["ci95"], field + ".ci95")
    return r


def validate_league_state(state: object) -> None:
    """Check a league's ``state.json`` contents; :class:`CheckpointError` on the first problem.

    ``round``: an integer >= 1 (a checkpoint is written after a round); ``elapsed``: seconds
    >= 0; ``config``: a mapping; ``trainer_files``: file names (no folders); ``history``: one
    evaluation per evaluated round, rounds increasing and at most ``round``, with an entry
    for every multiple of the config's ``league.eval_every`` up to ``round``.
    """
    if not isinstance(state, Mapping):
        raise _fail("(top level)", state, "must be a mapping")
    last = _int(state, "round", 1)
    elapsed = _number(state.get("elapsed"), "elapsed")
    if elapsed < 0:
        raise _fail("elapsed", elapsed, "must be >= 0 seconds")
    config = _mapping(state, "config")
    files = _mapping(state, "trainer_files")
    for name, f in files.items():
        if not isinstance(name, str) or not isinstance(f, str) or not f or f != PurePath(f).name or f in (".", ".."):
            raise _fail(f"trainer_files[{short_repr(name)}]", f, "must be a file name in the checkpoint folder")
    history = _list(state, "history")
    previous, seen = 0, set()
    for i, h in enumerate(history):
        previous = _evaluation(h, i, last, previous)
        seen.add(previous)
    league = config.get("league")
    every = league.get("eval_every") if isinstance(league, Mapping) else None
    if isinstance(every, int) and not isinstance(every, bool) and every >= 1:
        missing = [r for r in range(every, last + 1, every) if r not in seen]
        if missing:
            raise _fail("history", f"{len(history)} entries", f"lacks the evaluation of round {missing[0]} (league.eval_every is {every})")


def _tensor_dict(value: object, field: str) -> None:
    import torch

    if not isinstance(value, Mapping) or not value:
        raise _fail(field, value, "must be a non-empty mapping of tensors")
    for k, t in value.items():
        if not isinstance(t, torch.Tensor):
            raise _fail(f"{field}[{short_repr(k)}]", type(t).__name__, "must be a tensor")
        if t.is_floating_point() and not bool(torch.isfinite(t).all()):
            raise _fail(f"{field}[{short_repr(k)}]", "NaN or infinite values", "must be finite")


def validate_ppo_checkpoint(state: object) -> None:
    """Check a ppo run's ``checkpoint.pt`` contents (as ``torch.load`` returns them).

    ``model``: finite tensors; ``optimizer``: a mapping with ``state`` and ``param_groups``;
    ``pool``: ``snapshots`` (each a name, a config mapping and finite weights) and ``results``
    (one list of integer chip results per member); ``iteration``, ``global_step``,
    ``rounds_done``: integers >= 0; ``settings``, ``policy_config`` (and ``run_config`` when
    present): mappings.
    """
    if not isinstance(state, Mapping):
        raise _fail("(top level)", state, "must be a mapping")
    _tensor_dict(state.get("model"), "model")
    optimizer = _mapping(state, "optimizer")
    if not isinstance(optimizer.get("state"), Mapping) or not isinstance(optimizer.get("param_groups"), list):
        raise _fail("optimizer", "its contents", "must hold 'state' (a mapping) and 'param_groups' (a list)")
    pool = _mapping(state, "pool")
    snapshots = _list(pool, "snapshots", "pool.")
    for i, snap in enumerate(snapshots):
        if not isinstance(snap, Mapping) or not isinstance(snap.get("name"), str) or not isinstance(snap.get("config"), Mapping):
            raise _fail(f"pool.snapshots[{i}]", snap, "must be a mapping with a name, a config and weights")
        _tensor_dict(snap.get("weights"), f"pool.snapshots[{i}].weights")
    for i, r in enumerate(_list(pool, "results", "pool.")):
        if not isinstance(r, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in r):
            raise _fail(f"pool.results[{i}]", r, "must be a list of integer chip results")
    rounds = _int(state, "rounds_done", 0)
    iteration = _int(state, "iteration", 0)
    steps = _int(state, "global_step", 0)
    if steps < iteration:
        raise _fail("global_step", steps, f"must be at least iteration ({iteration})")
    if rounds and not iteration:
        raise _fail("iteration", iteration, f"must be positive after {rounds} rounds")
    _mapping(state, "settings")
    _mapping(state, "policy_config")
    if "run_config" in state:
        _mapping(state, "run_config")
