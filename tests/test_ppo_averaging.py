"""Weight averaging of ppo networks (training/ppo/averaging.py): a run's ``average_from`` rounds,
the same mean from policy files, a resumed run averaging the same networks, and bad settings."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from holdem_env.agents.ppo import PpoPolicy
from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError
from holdem_env.training.ppo import PpoRunConfig, PpoSettings
from holdem_env.training.ppo.averaging import WeightAverage, average_files
from holdem_env.training.ppo.standalone import run


def _config(tmp_path, name: str, rounds: int, average_from: int = 0, every: int = 10) -> PpoRunConfig:
    settings = PpoSettings(num_envs=4, num_steps=16, hidden=(8, 8), opponents=("random",), snapshot_every=0)
    return PpoRunConfig(name=name, seed=3, table=TableConfig(num_players=2), ppo=settings, rounds=rounds,
                        iterations_per_round=1, runs_dir=str(tmp_path), average_from=average_from, average_every=every)


def _state(path) -> dict[str, torch.Tensor]:
    return PpoPolicy.load(path).model.state_dict()


def _same(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_a_run_averages_the_rounds_it_names_as_the_files_would(tmp_path) -> None:
    averaged = _config(tmp_path, "avg", rounds=3, average_from=1, every=2)  # rounds 1 and 3
    run(averaged, log=lambda *_: None)
    # the same seed without averaging: its policy after round 1 and after round 3
    run(_config(tmp_path, "r1", rounds=1), log=lambda *_: None)
    run(_config(tmp_path, "r3", rounds=3), log=lambda *_: None)
    r1, r3 = tmp_path / "r1" / "policy.pt", tmp_path / "r3" / "policy.pt"
    avg = PpoPolicy.load(tmp_path / "avg" / "policy_avg.pt")
    assert avg.metadata["averaged_rounds"] == [1, 3] and avg.metadata["round"] == 3
    assert _same(avg.model.state_dict(), average_files([r1, r3]).model.state_dict())
    # a real average: neither end point, and the live network stays the run's policy.pt
    assert not _same(avg.model.state_dict(), _state(r3)) and not _same(avg.model.state_dict(), _state(r1))
    assert _same(_state(tmp_path / "avg" / "policy.pt"), _state(r3))
    # by hand, one tensor: the mean of the two
    key = next(iter(avg.model.state_dict()))
    assert torch.allclose(avg.model.state_dict()[key], (_state(r1)[key] + _state(r3)[key]) / 2)


def test_a_resumed_run_averages_the_same_networks(tmp_path) -> None:
    straight = _config(tmp_path / "a", "avg", rounds=3, average_from=1, every=1)
    run(straight, log=lambda *_: None)

    def stop_after_round_2(line: str) -> None:
        if line.startswith("round 2/"):
            raise KeyboardInterrupt

    cut = _config(tmp_path / "b", "avg", rounds=3, average_from=1, every=1)
    with pytest.raises(KeyboardInterrupt):
        run(cut, log=stop_after_round_2)
    assert PpoPolicy.load(tmp_path / "b" / "avg" / "policy_avg.pt").metadata["averaged_rounds"] == [1, 2]
    run(cut, resume=True, log=lambda *_: None)
    a, b = (PpoPolicy.load(p / "avg" / "policy_avg.pt") for p in (tmp_path / "a", tmp_path / "b"))
    assert a.metadata["averaged_rounds"] == b.metadata["averaged_rounds"] == [1, 2, 3]
    assert _same(a.model.state_dict(), b.model.state_dict())


def test_weighted_files_and_the_running_sum_agree_by_hand() -> None:
    avg = WeightAverage()
    avg.add({"w": torch.tensor([1.0, 4.0])}, 1, weight=3.0)
    avg.add({"w": torch.tensor([5.0, 0.0])}, 2, weight=1.0)
    assert avg.mean()["w"].tolist() == [2.0, 3.0] and avg.mean()["w"].dtype == torch.float32
    back = WeightAverage()
    back.load_state_dict(avg.state_dict())
    assert back.mean()["w"].tolist() == [2.0, 3.0] and back.rounds == [1, 2]


def test_bad_averaging_settings_are_clear_errors(tmp_path) -> None:
    with pytest.raises(ConfigError, match="average_from"):
        _config(tmp_path, "x", rounds=3, average_from=4)
    with pytest.raises(ConfigError, match="average_every"):
        _config(tmp_path, "x", rounds=3, average_from=1, every=0)
    with pytest.raises(ConfigError, match="at least one"):
        average_files([])
    with pytest.raises(ConfigError, match="weight"):
        average_files(["a.pt", "b.pt"], [1.0])
    empty = WeightAverage()
    with pytest.raises(ConfigError, match="no network"):
        empty.mean()
    with pytest.raises(ConfigError, match="same network"):
        empty.add({"w": torch.zeros(2)}, 1)
        empty.add({"v": torch.zeros(2)}, 2)


def test_a_config_without_averaging_keeps_its_stored_form() -> None:
    """Checkpoints written before averaging existed store no average keys: they still resume."""
    plain = PpoRunConfig(name="p")
    assert "average_from" not in plain.to_dict() and "average_every" not in plain.to_dict()
    assert dataclasses.replace(plain, average_from=2, rounds=4).to_dict()["average_from"] == 2
