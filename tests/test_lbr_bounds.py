"""LBR matches are bounded like eval's (issue 27): a hands cap, work made lazily, no silent --workers 0."""

from __future__ import annotations

import pytest

from holdem_env.cli import main
from holdem_env.engine.errors import ConfigError
from holdem_env.training import lbr
from holdem_env.training.arena import MAX_HANDS
from holdem_env.training.lbr import LbrConfig, run_lbr


def test_a_huge_lbr_match_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConfigError, match=rf"hands=1000000000000000000 is invalid: must be an integer in 2..{MAX_HANDS}"):
        LbrConfig(agent="random", hands=10**18)
    assert main(["lbr", "random", "--hands", str(10**18), "--no-progress"]) == 2
    assert f"must be an integer in 2..{MAX_HANDS}" in capsys.readouterr().err


@pytest.mark.parametrize("workers", [1, 2])
def test_lbr_work_is_made_as_it_is_sent(monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    sent: list[list[int]] = []

    def fake(cfg, deals):
        sent.append(list(deals))
        if len(sent) == 3:
            raise KeyboardInterrupt  # stop early: the later chunks must not exist yet
        return [(d, 0, 0) for d in deals]

    if workers == 1:
        monkeypatch.setattr(lbr, "_play_deals", fake)
        with pytest.raises(KeyboardInterrupt):
            run_lbr(LbrConfig(agent="random", hands=MAX_HANDS, workers=1))
        assert [len(c) for c in sent] == [25, 25, 25] and sent[2][0] == 50
    else:
        made: list[int] = []  # results folded in when each chunk was made
        folded: list[int] = []
        real_imap = lbr.WorkerPool.imap

        def imap(self, fn, tasks, window):
            def counted():
                for cfg, deals in tasks:
                    made.append(len(folded))
                    if len(made) == 20:
                        raise KeyboardInterrupt
                    yield cfg, deals[:1]  # play one deal of each chunk (quick)

            assert window == 8
            return real_imap(self, fn, counted(), window)

        monkeypatch.setattr(lbr.WorkerPool, "imap", imap)
        with pytest.raises(KeyboardInterrupt):
            run_lbr(
                LbrConfig(agent="random", hands=MAX_HANDS, workers=2, check_until="flop"),
                callback=lambda hands, mbb, half: folded.append(hands),
            )
        # chunks are made as workers take them (two each), never more than the window of 8 ahead
        # of the results folded in (the callback starts at the second deal), not 200,000 at once
        assert made[:4] == [0] * 4 and len(made) == 20
        assert all(made[k] >= k - 8 for k in range(20))


def test_lbr_workers_zero_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["lbr", "random", "--workers", "0", "--no-progress"])
    assert "0 is not a positive integer (use 'all' for every CPU core)" in capsys.readouterr().err
    with pytest.raises(ConfigError, match="workers=0 is invalid"):
        LbrConfig(agent="random", workers=0)
