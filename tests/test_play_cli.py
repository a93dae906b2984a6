"""``holdem play`` from the command line: options, errors, the missing extra, a real server."""

from __future__ import annotations

import signal
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from enginekit import default_sigint

from holdem_env.cli import main as holdem_main
from holdem_env.cli.play import INSTALL_HINT


def test_play_is_a_subcommand_with_the_options_of_the_issue(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        holdem_main(["play", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for option in ("--no-browser", "--port", "--seed", "--opponents", "--players", "--clock", "--bot-delay", "--host"):
        assert option in out


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--players", "11"], "players=11 is invalid: must be an integer in 2..10"),
     (["--opponents", "tag", "lag"], "must be 5 agent specs"),
     (["--opponents", "tag", "lag", "nobot", "tag", "tag"], "unknown agent 'nobot'"),
     (["--clock", "-2"], "clock=-2.0 is invalid"),
     (["--port", "70000"], "--port 70000 is invalid")],
)
def test_bad_options_exit_2_with_the_reason(args: list[str], message: str, capsys) -> None:
    pytest.importorskip("starlette")
    assert holdem_main(["play", "--no-browser", *args]) == 2
    assert message in capsys.readouterr().err


def test_without_the_play_extra_it_says_how_to_install_it(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "starlette", None)  # import starlette now raises ImportError
    assert holdem_main(["play", "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == INSTALL_HINT and "pip install 'holdem-env[play]'" in err


def test_holdem_play_serves_the_table_on_localhost() -> None:
    pytest.importorskip("starlette")
    proc = subprocess.Popen(
        [sys.executable, "-m", "holdem_env.cli", "play", "--no-browser", "--port", "0", "--seed", "1",
         "--bot-delay", "0", "--opponents", "random", "random", "random", "random", "random"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("holdem play: the table is at http://127.0.0.1:")
        url = line.split(" at ", 1)[1].strip()
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.status == 200 and "<title>Texas Hold'em" in response.read().decode()
        base = url.split("/t/")[0]
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(base + "/", timeout=10)
        assert info.value.code == 403
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)


def test_binding_beyond_localhost_warns_and_names_the_ssh_tunnel() -> None:
    pytest.importorskip("starlette")
    proc = subprocess.Popen(
        [sys.executable, "-m", "holdem_env.cli", "play", "--no-browser", "--port", "0", "--host", "0.0.0.0",
         "--seed", "1", "--opponents", "random", "random", "random", "random", "random"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint,
    )
    try:
        err = proc.stderr.readline()  # type: ignore[union-attr]
        assert err.startswith("holdem play: WARNING: listening on 0.0.0.0, beyond this machine")
        assert "plain HTTP" in err and "ssh -L" in err
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)


def test_the_warning_names_the_tunnel_for_the_port() -> None:
    from holdem_env.cli.play import lan_warning

    assert "ssh -L 8765:127.0.0.1:8765" in lan_warning("0.0.0.0", 8765)
