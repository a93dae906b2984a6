"""Untrusted policy files are checked before they cost anything, and every crafted file gives one clear error (issue 27).

Each crafted file here was a bare traceback, a minutes-long build, or a silent acceptance before.
"""

from __future__ import annotations

import io
import json
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holdem_env.agents import ppo
from holdem_env.agents.base import AgentError
from holdem_env.agents.cfr_lite.agent import SHIPPED_POLICY as CFR_HU
from holdem_env.agents.cfr_lite.policy import CfrLitePolicy
from holdem_env.agents.ppo import PolicyConfig, PolicyFileError, PpoPolicy
from holdem_env.engine.errors import ConfigError
from holdem_env.safefiles import UnsafeFileError, read_npz
from holdem_env.training.arena import ArenaConfig, run_match


# -- ppo .pt ---------------------------------------------------------------------------------------------
def _payload() -> dict:
    return torch.load(ppo.SHIPPED_POLICY, weights_only=True)


def _save(tmp_path: Path, payload: dict, name: str = "p.pt") -> Path:
    path = tmp_path / name
    torch.save(payload, path)
    return path


def test_a_huge_architecture_is_refused_before_any_tensor_is_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    payload = _payload()
    payload["config"]["hidden"] = [4096] * 12
    path = _save(tmp_path, payload)

    def never(*args: object, **kw: object) -> None:
        raise AssertionError("the network was built before its size was checked")

    monkeypatch.setattr(ppo.ActorCritic, "__init__", never)
    with pytest.raises(PolicyFileError, match=r"describes a network of 3\d\d,\d{3},\d{3} parameters .*limit is 20,000,000"):
        PpoPolicy.load(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p.pop("config"), "has no config"),  # was KeyError
        (lambda p: p.update(config=[1, 2]), "has no config"),  # was AttributeError
        (lambda p: p.update(state_dict=[]), "has no weights"),
        (lambda p: p["state_dict"].pop("critic.0.bias"), r"missing \['critic.0.bias'\]"),
        (lambda p: p["state_dict"].update({"actor.0.weight": torch.zeros(3, 3)}), "has shape .3, 3.; its config needs"),
        (lambda p: p["state_dict"]["actor.2.weight"].__setitem__((0, 0), float("nan")), "NaN or infinite"),
        (lambda p: p["state_dict"].update({"critic.0.bias": torch.zeros(128, dtype=torch.int64)}), "not a float tensor"),
        (lambda p: p.update(metadata=[1]), "metadata must be a dict"),
        (lambda p: p["config"].update(hidden="wide"), "has a bad config"),
    ],
)
def test_crafted_ppo_files_give_one_clear_error(tmp_path: Path, change, message: str) -> None:
    payload = _payload()
    change(payload)
    with pytest.raises(PolicyFileError, match=message):
        PpoPolicy.load(_save(tmp_path, payload))


def test_a_ppo_file_too_large_to_unpack_is_refused_from_its_zip_headers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ppo, "MAX_POLICY_FILE_BYTES", 100_000)
    with pytest.raises(PolicyFileError, match=r"would decompress to [\d,]+ bytes; the limit is 100,000"):
        PpoPolicy.load(ppo.SHIPPED_POLICY)


def test_the_shipped_ppo_policy_still_loads() -> None:
    policy = PpoPolicy.load(ppo.SHIPPED_POLICY)
    assert sum(p.numel() for p in policy.model.parameters()) == sum(
        int(np.prod(s)) for s in ppo.expected_shapes(policy.config).values()
    )
    assert ppo.expected_shapes(PolicyConfig()) == {k: tuple(v.shape) for k, v in ppo.ActorCritic(PolicyConfig()).state_dict().items()}


# -- cfr-lite .npz ---------------------------------------------------------------------------------------
def _members() -> dict[str, np.ndarray]:
    with np.load(CFR_HU, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def _npz(path: Path, arrays: dict[str, np.ndarray]) -> Path:
    np.savez_compressed(path, **arrays)
    return path


def test_a_zip_bomb_is_refused_before_decompressing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from holdem_env.agents.cfr_lite import policy as policy_module

    arrays = _members()
    arrays["probs"] = np.zeros((len(arrays["keys"]) * 40, 64), dtype=np.float16)  # ~20 MB of zeros, ~40 KB on disk
    path = _npz(tmp_path / "bomb.npz", arrays)
    assert path.stat().st_size < 2_000_000
    monkeypatch.setattr(policy_module, "MAX_POLICY_BYTES", 8_000_000)
    tracemalloc.start()
    try:
        with pytest.raises(ConfigError, match=r"would decompress to [\d,]+ bytes; the limit is 8,000,000"):
            CfrLitePolicy.load(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4_000_000  # nothing was decompressed


def _npy_with_header(shape: tuple[int, ...], payload: bytes = b"\0" * 64) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": "<f8", "fortran_order": False, "shape": shape})
    return buf.getvalue() + payload


def test_a_huge_npy_header_is_refused_before_allocating(tmp_path: Path) -> None:
    path = tmp_path / "huge.npz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, value in _members().items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, value, allow_pickle=False)
            zf.writestr(f"{name}.npy", buf.getvalue() if name != "probs" else _npy_with_header((125_000_000_000,)))
    with pytest.raises(ConfigError, match=r"announces .125000000000,. float64 .*refused before allocating"):  # was a 931 GiB MemoryError
        CfrLitePolicy.load(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"PK\x03\x04" + b"\x00" * 60, "not a readable zip archive"),  # was BadZipFile
        (b"\x93NUMPY junk", "not a readable zip archive"),
    ],
)
def test_corrupt_npz_files_give_one_clear_error(tmp_path: Path, content: bytes, message: str) -> None:
    (tmp_path / "bad.npz").write_bytes(content)
    with pytest.raises(ConfigError, match=message):
        CfrLitePolicy.load(tmp_path / "bad.npz")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda a: a.update(meta=np.array(json.dumps([1, 2]))), "meta is not a JSON object"),  # was AttributeError
        (lambda a: a.pop("keys"), "missing entry 'keys'"),
        (lambda a: a.update(meta=np.array(json.dumps({**json.loads(str(a["meta"])), "actions": {}}))), "missing entry 'pot_fractions'"),
        (lambda a: a["probs"].__setitem__((0, 0), np.nan), r"NaN, infinite or out-of-range.*must be probabilities"),
        (lambda a: a["probs"].__setitem__((1, 0), 7.0), r"must be probabilities"),
    ],
)
def test_crafted_cfr_lite_files_give_one_clear_error(tmp_path: Path, change, message: str) -> None:
    arrays = _members()
    arrays["probs"] = arrays["probs"].copy()
    change(arrays)
    with pytest.raises(ConfigError, match=message):
        CfrLitePolicy.load(_npz(tmp_path / "p.npz", arrays))


def test_a_cfr_lite_policy_for_another_table_size_is_refused() -> None:
    spec = f"cfr-lite(policy='{CFR_HU}')"
    with pytest.raises(AgentError, match=r"was built for 2 seats; this table has 6"):  # it folded every hand
        run_match(ArenaConfig(agents=(spec, "random"), players=6, hands=6, seed=0))


# -- Hypothesis: the npz reader on mutated and random bytes ---------------------------------------------
_VALID = io.BytesIO()
np.savez_compressed(_VALID, a=np.arange(12, dtype=np.int32).reshape(3, 4), b=np.array("text"))
_VALID_BYTES = _VALID.getvalue()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_read_npz_fails_only_with_its_own_error(data: st.DataObject) -> None:
    raw = bytearray(_VALID_BYTES)
    for _ in range(data.draw(st.integers(1, 6))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(1, len(raw)))
    try:
        arrays = read_npz(io.BytesIO(bytes(raw[:cut])), max_bytes=10_000)
    except UnsafeFileError:
        return
    assert sum(a.nbytes for a in arrays.values()) <= 10_000


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_read_npz_on_random_bytes(raw: bytes) -> None:
    try:
        arrays = read_npz(io.BytesIO(raw))
    except UnsafeFileError:
        return
    assert arrays == {}  # only an empty archive can be read


# -- torchscript -----------------------------------------------------------------------------------------
def test_torchscript_files_are_size_checked_and_nan_scores_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_integrations import _save_policy

    from holdem_env import nlhe_v1
    from holdem_env.agents import external
    from holdem_env.agents.external import ExternalPolicyError, TorchScriptAgent

    env = nlhe_v1.raw_env(num_players=2)
    env.reset(seed=0)
    name = env.agent_selection
    obs, info = env.observe(name), env.infos[name]
    n = len(obs["action_mask"])
    path = _save_policy(tmp_path, [float("nan")] * n)
    agent = TorchScriptAgent(path)
    with pytest.raises(ExternalPolicyError, match="NaN or infinite scores"):  # it played a NaN argmax before
        agent.act(obs, info)
    monkeypatch.setattr(external, "MAX_EXTERNAL_BYTES", 100)
    with pytest.raises(ExternalPolicyError, match="would decompress to .* the limit is 100"):
        TorchScriptAgent(path)
    (tmp_path / "bad.pt").write_bytes(b"PK\x03\x04" + b"\x00" * 60)
    monkeypatch.setattr(external, "MAX_EXTERNAL_BYTES", 1 << 30)
    with pytest.raises(ExternalPolicyError, match="not a readable zip archive"):
        TorchScriptAgent(str(tmp_path / "bad.pt"))
