"""The blueprint build through ``holdem cfr-search build``: a tiny build, its checkpoints, and clear errors for bad options."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from holdem_env.agents.cfr_search.abstraction import AbstractionConfig
from holdem_env.agents.cfr_search.blueprint import Blueprint
from holdem_env.cli import main as holdem
from holdem_env.training.cfr.game import GameError
from holdem_env.training.cfr_search import build as build_module
from holdem_env.training.cfr_search.build import build_blueprint
from holdem_env.training.cfr_search.nolimit import NoLimitConfig

TINY_ARGS = ["--stack-bb", "10", "--abstraction-flops", "1", "--pool-flops", "1",
             "--buckets", "3", "3", "3", "--bins", "5", "--seed", "4"]  # fmt: skip
TINY = AbstractionConfig(flop_buckets=3, turn_buckets=3, river_buckets=3, bins=5, flops=1)


def test_a_tiny_build_through_the_cli_writes_the_blueprint_and_shows_progress(tmp_path, capsys) -> None:
    out = tmp_path / "bp.npz"
    status = holdem(["cfr-search", "build", "--out", str(out), "--iterations", "20000", *TINY_ARGS])
    assert status == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["iterations"] == 20_000 and summary["bytes"] == out.stat().st_size
    assert "MCCFR (iterations)" in captured.err and "20000/20000" in captured.err  # the progress bar
    bp = Blueprint(out)
    assert bp.info["iterations"] == 20_000 and bp.game["stack"] == 1_000
    # the same options through `python -m holdem_env.training.cfr_search` give the same policy
    assert (
        build_module.main(["build", "--out", str(tmp_path / "m.npz"), "--iterations", "20000", "--quiet", *TINY_ARGS])
        == 0
    )
    assert np.array_equal(np.load(out)["policy"], np.load(tmp_path / "m.npz")["policy"])


@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        ("--iterations", "-5", "argument --iterations: -5 is invalid: expected an integer >= 0"),
        ("--iterations", "lots", "argument --iterations: 'lots' is not an integer"),
        ("--pool-flops", "0", "argument --pool-flops: 0 is invalid: expected an integer >= 1"),
        ("--checkpoint-every", "15000", "argument --checkpoint-every: 15000 is invalid: expected a multiple of 10,000"),
        ("--bins", "0", "argument --bins: 0 is invalid: expected an integer >= 1"),
        (
            "--reraise-sizes",
            "1 0.5,x 1 1",
            "argument --reraise-sizes: '0.5,x' is invalid: expected pot fractions separated by commas, e.g. 0.5,1",
        ),
        (
            "--reraise-sizes",
            "1 0 1 1",
            "argument --reraise-sizes: '0' is invalid: expected pot fractions in (0, 100], e.g. 0.5,1",
        ),
        (
            "--reraise-sizes",
            "1 nan 1 1",
            "argument --reraise-sizes: 'nan' is invalid: expected pot fractions in (0, 100], e.g. 0.5,1",
        ),
    ],
)
def test_a_bad_option_is_one_clear_line_and_status_2(tmp_path, capsys, option: str, value: str, expected: str) -> None:
    out = tmp_path / "bp.npz"
    with pytest.raises(SystemExit) as exit_:
        holdem(["cfr-search", "build", "--out", str(out), option, *value.split(), "--quiet"])
    assert exit_.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == f"holdem cfr-search build: error: {expected}"
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--stack-bb", "0"], "holdem cfr-search build: stack=0 is invalid: expected an int >= 1"),
        (["--out", "/nonexistent-folder-h-bp/bp.npz"], "the folder '/nonexistent-folder-h-bp' does not exist"),
    ],
)
def test_a_bad_setting_is_refused_before_any_work(tmp_path, capsys, args: list[str], expected: str) -> None:
    out = tmp_path / "bp.npz"
    status = holdem(["cfr-search", "build", "--out", str(out), "--quiet", *args])
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and expected in err[0]
    assert not out.exists()


def test_reraise_sizes_reach_the_tree_and_the_header(tmp_path, capsys) -> None:
    """``--reraise-sizes 1 0.5,1 1 1``: facing a flop bet, a raise to 3x the bet besides the pot raise (5x)."""
    out = tmp_path / "bp.npz"
    args = ["cfr-search", "build", "--out", str(out), "--iterations", "10000", "--quiet", *TINY_ARGS]
    assert holdem([*args, "--reraise-sizes", "1", "0.5,1", "1", "1"]) == 0
    bp = Blueprint(out)
    assert bp.game["reraise_sizes"] == [[1.0], [0.5, 1.0], [1.0], [1.0]]

    # 10 bb stacks: the button limps and the big blind checks (100 each, pot 200); on the flop the big
    # blind checks and the button bets half the pot, to 200. Facing it, the raises are to 200 + f * 400
    # (the pot after the call): r400 (f = 0.5: 3x the street's bet of 100) only with the option, r600
    # (f = 1: 5x) always, and the all-in.
    def flop_raises(blueprint: Blueprint) -> set[str]:
        node = 0
        for label in ("c", "c", "c", "r200"):
            node = blueprint.child(node, label)
        return {label for label, _ in blueprint.children(node)}

    assert flop_raises(bp) == {"f", "c", "r400", "r600", "a"}
    plain = tmp_path / "plain.npz"
    capsys.readouterr()
    assert holdem([*args[:3], str(plain), *args[4:]]) == 0
    assert flop_raises(Blueprint(plain)) == {"f", "c", "r600", "a"}
    assert Blueprint(plain).game["reraise_sizes"] == [[1.0]] * 4 and len(Blueprint(plain).labels) < len(bp.labels)


def test_a_missing_action_is_refused(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        holdem(["cfr-search"])
    assert exit_.value.code == 2
    assert "ACTION" in capsys.readouterr().err


def test_checkpoints_hold_the_policy_of_a_shorter_build(tmp_path, monkeypatch) -> None:
    written: list[tuple[int, np.ndarray]] = []
    real = build_module.write_blueprint

    def spy(path: Any, **kw: Any) -> None:
        written.append((kw["info"]["iterations"], np.array(kw["probabilities"])))
        real(path, **kw)

    kw: dict[str, Any] = {
        "game": NoLimitConfig(stack=1_000),
        "abstraction": TINY,
        "pool_flops": 1,
        "seed": 7,
        "quiet": True,
    }
    monkeypatch.setattr(build_module, "write_blueprint", spy)
    build_blueprint(str(tmp_path / "c.npz"), iterations=30_000, checkpoint_every=20_000, **kw)
    assert [k for k, _ in written] == [20_000, 30_000]
    build_blueprint(str(tmp_path / "s.npz"), iterations=20_000, **kw)
    build_blueprint(str(tmp_path / "f.npz"), iterations=30_000, **kw)
    assert [k for k, _ in written[2:]] == [20_000, 30_000]
    assert np.array_equal(written[0][1], written[2][1])  # the checkpoint is the 20,000-iteration build
    assert np.array_equal(written[1][1], written[3][1])  # checkpointing changes nothing at the end
    assert not np.array_equal(written[0][1], written[1][1])
    with pytest.raises(GameError, match="checkpoint_every=15000 is invalid"):
        build_blueprint(str(tmp_path / "x.npz"), iterations=30_000, checkpoint_every=15_000, **kw)
