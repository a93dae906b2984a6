"""Hypothesis over the file loaders and the CLI flag parsers (issue 27): bad input gives the loader's own error, nothing else.

Each loader is fed mutations of a valid file (bytes flipped, cut short) and random input;
it must either read it or raise its documented error class (never AttributeError, KeyError,
MemoryError, BadZipFile, ...). The CLI parsers must answer a flag with a value of the wrong
kind with usage (exit status 2) and one clear line, never a traceback.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holdem_env.agents import ppo
from holdem_env.agents.cfr_lite.agent import SHIPPED_POLICY as CFR_HU
from holdem_env.agents.cfr_lite.policy import CfrLitePolicy
from holdem_env.agents.ppo import PolicyFileError, PpoPolicy
from holdem_env.cli import main
from holdem_env.engine.errors import ConfigError, HoldemError
from holdem_env.formats.phh import PHHError, loads
from holdem_env.training.checkpoint import CheckpointError, validate_league_state
from holdem_env.training.config import load_config

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _mutate(data: st.DataObject, raw: bytes, max_flips: int = 8) -> bytes:
    out = bytearray(raw)
    for _ in range(data.draw(st.integers(0, max_flips), label="flips")):
        i = data.draw(st.integers(0, len(out) - 1))
        out[i] = data.draw(st.integers(0, 255))
    return bytes(out[: data.draw(st.integers(1, len(out)), label="cut")])


PHH_TEXT = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ["d dh p1 AsKs", "d dh p2 7c2d", "p2 cbr 6", "p1 cc", "d db Ah7h2s", "p1 cc", "p2 f"]
"""


@FUZZ
@given(data=st.data())
def test_phh_loader_fails_only_with_phh_errors(data: st.DataObject) -> None:
    text = _mutate(data, PHH_TEXT.encode(), 6).decode("utf-8", "replace")
    try:
        loads(text)
    except PHHError:
        pass


@FUZZ
@given(data=st.data())
def test_yaml_config_loader_fails_only_with_config_errors(data: st.DataObject, tmp_path: Path) -> None:
    raw = _mutate(data, (CONFIGS / "tiny.yaml").read_bytes(), 6)
    path = tmp_path / "c.yaml"
    path.write_bytes(raw)
    try:
        load_config(path)
    except ConfigError:
        pass


_CFR_BYTES = CFR_HU.read_bytes()


@FUZZ
@given(data=st.data())
def test_cfr_lite_loader_fails_only_with_config_errors(data: st.DataObject, tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    path.write_bytes(_mutate(data, _CFR_BYTES[:4096] if data.draw(st.booleans()) else _CFR_BYTES, 8))
    try:
        CfrLitePolicy.load(path)
    except ConfigError:
        pass


_PPO_BYTES = ppo.SHIPPED_POLICY.read_bytes()


@FUZZ
@given(data=st.data())
def test_ppo_loader_fails_only_with_policy_file_errors(data: st.DataObject, tmp_path: Path) -> None:
    path = tmp_path / "p.pt"
    path.write_bytes(_mutate(data, _PPO_BYTES, 8))
    try:
        PpoPolicy.load(path)
    except PolicyFileError:
        pass


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**6) | st.floats(allow_nan=True) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@FUZZ
@given(st.dictionaries(st.sampled_from(["round", "history", "elapsed", "config", "trainer_files"]), _JSON))
def test_league_checkpoint_validator_fails_only_with_checkpoint_errors(state: dict) -> None:
    try:
        validate_league_state(json.loads(json.dumps(state)))
    except CheckpointError:
        pass


_FLAGS = {
    "eval": (["random", "random", "--no-progress"], ["--hands", "--seed", "--workers", "--players", "--buy-in", "--small-blind"]),
    "lbr": (["random", "--no-progress"], ["--hands", "--seed", "--workers", "--stack", "--big-blind"]),
}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    command=st.sampled_from(sorted(_FLAGS)),
    flag_index=st.integers(0, 5),
    value=st.sampled_from(["-1", "0", "x", "1e3", "", "99999999999999999999999", "nan", "-0", "1.5", "--"]),
)
def test_cli_flags_with_bad_values_give_usage_not_tracebacks(
    command: str, flag_index: int, value: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    from holdem_env.training import arena, lbr

    for module in ("holdem_env.cli.eval", "holdem_env.cli.lbr"):  # before the patches: they bind the real functions
        importlib.import_module(module)

    # whatever passes validation is not played: only the parsing and checking are under test
    monkeypatch.setattr(arena, "run_match", _refuse)
    monkeypatch.setattr(lbr, "run_lbr", _refuse)
    monkeypatch.setattr("holdem_env.cli.eval.run_match", _refuse, raising=False)
    monkeypatch.setattr("holdem_env.cli.lbr.run_lbr", _refuse, raising=False)
    base, flags = _FLAGS[command]
    flag = flags[flag_index % len(flags)]
    try:
        code = main([command, *base, flag, value])
    except SystemExit as exc:  # argparse's usage error
        code = exc.code
    except _PlayedError:
        return
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert err.strip(), "an error must say what was wrong"


class _PlayedError(Exception):
    pass


def _refuse(*args: object, **kwargs: object) -> None:
    raise _PlayedError


def test_the_harness_can_fail() -> None:
    """The ppo harness's oracle really refuses a foreign error: a file whose config is a list raised AttributeError before."""
    payload = torch.load(ppo.SHIPPED_POLICY, weights_only=True)
    payload["config"] = [1]
    buf = io.BytesIO()
    torch.save(payload, buf)
    with pytest.raises(HoldemError):
        PpoPolicy.load(_write(buf.getvalue()))


def _write(raw: bytes) -> Path:
    import tempfile

    fd, name = tempfile.mkstemp(suffix=".pt")
    Path(name).write_bytes(raw)
    import os

    os.close(fd)
    return Path(name)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("league:\n  rounds: 2\n  rounds: 3\n", "duplicate key 'rounds' at lines 2 and 3"),
        ("name: a\nname: b\n", "duplicate key 'name' at lines 1 and 2"),
        ("agents:\n  - {name: a, spec: random, name: b}\n", "duplicate key 'name' at lines 2 and 2"),
    ],
)
def test_duplicate_yaml_keys_are_refused(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=f"is not valid YAML: {where}: give each key once"):
        load_config(path)
