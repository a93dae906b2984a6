"""Errors that travel and read well (issue 27): every exception class pickles; disk and path errors, Ctrl-C give one line."""

from __future__ import annotations

import errno
import importlib
import pickle
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest
from enginekit import default_sigint

import holdem_env
from holdem_env.cli import main
from holdem_env.engine.errors import ConfigError, HoldemError


def _all_subclasses(cls: type) -> set[type]:
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub, *_all_subclasses(sub)}
    return out


def _import_everything() -> None:
    for info in pkgutil.walk_packages(holdem_env.__path__, "holdem_env."):
        if ".play" in info.name or info.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(info.name)
        except Exception:  # optional extras (sb3, ...) missing
            pass


def _instance(cls: type[HoldemError]) -> HoldemError:
    import inspect

    params = [
        p for p in inspect.signature(cls.__init__).parameters.values()
        if p.name != "self" and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    return cls(*[f"arg{i}" for i in range(len(params))]) if params else cls("a message")


def test_every_exception_class_pickles_with_its_message_and_fields() -> None:
    _import_everything()
    classes = _all_subclasses(HoldemError) | {HoldemError}
    assert len(classes) >= 12
    for cls in classes:
        err = _instance(cls)
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is cls and str(back) == str(err) and vars(back) == vars(err), cls
    err = ConfigError("buy_in", lambda: 0, "must be an integer")  # an unpicklable value travels as its repr
    back = pickle.loads(pickle.dumps(err))
    assert str(back) == str(err) and back.field == "buy_in" and back.value.startswith("<function")


def test_a_config_error_in_a_pool_worker_reaches_the_cli_as_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["eval", "random", "tag", "--action-mode", "exact", "--buy-in", "1000001", "--hands", "4", "--workers", "2", "--no-progress"]
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2
    assert "BrokenProcessPool" not in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "is invalid" in err


_EVAL = ["eval", "random", "random", "--hands", "4", "--workers", "1", "--no-progress"]


@pytest.mark.parametrize("flag", ["--history", "--tensorboard"])
def test_an_unusable_output_path_gives_one_line(tmp_path: Path, flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    code = main([*_EVAL, flag, str(blocker / "sub")])
    err = capsys.readouterr().err
    assert code in (1, 2) and "Traceback" not in err
    assert err.strip().splitlines() == [err.strip()] and str(blocker) in err and "Not a directory" in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_gives_one_line_naming_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    code = main([*_EVAL, "--json", "/dev/full"])  # every write to /dev/full fails with ENOSPC
    err = capsys.readouterr().err
    assert code == 1
    assert err.strip() == "holdem eval: cannot use '/dev/full': No space left on device (the disk is full)"


def test_atomic_writes_name_the_file_on_a_full_disk(tmp_path: Path) -> None:
    from holdem_env.fileutil import atomic_write_bytes

    def full(fh) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError, match="No space left on device") as info:
        atomic_write_bytes(tmp_path / "ckpt.pt", full)
    assert info.value.filename == str(tmp_path / "ckpt.pt") and info.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []


def test_a_torch_write_failure_is_one_line() -> None:
    from holdem_env.cli import file_problem

    try:
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError as inner:
            raise RuntimeError("[enforce fail at inline_container.cc:672] . unexpected pos 704 vs 598") from inner
    except RuntimeError as exc:
        assert file_problem(exc) == "file system error: No space left on device (the disk is full)"
    assert file_problem(RuntimeError("PytorchStreamWriter failed writing file data/0: file write failed")).startswith(
        "writing a file failed (is the disk full?)"
    )
    assert file_problem(ValueError("unrelated")) is None


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
@pytest.mark.parametrize("command", ["eval", "lbr"])
def test_ctrl_c_prints_one_line(tmp_path: Path, command: str) -> None:
    import os
    import signal
    import time

    args = ["random", "random"] if command == "eval" else ["random"]
    cmd = [sys.executable, "-m", "holdem_env.cli", command, *args, "--hands", "2000000", "--workers", "2", "--no-progress"]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=tmp_path,
        preexec_fn=default_sigint,
    )
    try:
        while len(_children(proc.pid)) < 2 and proc.poll() is None:  # wait until the pool's workers play
            time.sleep(0.2)
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal does: the whole foreground group
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert err.strip() == f"holdem {command}: interrupted"
