"""The ``acpc`` agent spec: a program speaking the ACPC protocol plays in our arena.

The program is the ACPC reference ``example_player`` (built from the vendored sources in
``tests/acpc_reference``, licence quoted in tests/test_acpc_interop.py): it reads every state
we send with the reference's own ``readMatchState`` (which rejects any action the ACPC rules
do not allow) and exits on the first one it cannot read, so a match that finishes means every
state was valid ACPC. The state built from a seat's view is also compared with the one our
dealer sends for the same hand.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from holdem_env.acpc.game import AcpcHand, table_for
from holdem_env.agents.acpc import AcpcAgent, gamedef_for_view
from holdem_env.agents.base import AgentSpecError, make_agent
from holdem_env.engine.cards import shuffled_deck
from holdem_env.env.nlhe_v1 import raw_env
from holdem_env.training.arena import ArenaConfig, run_match

REF = Path(__file__).resolve().parent / "acpc_reference"


@pytest.fixture(scope="module")
def example_player(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.fail("a C compiler (gcc) is needed to build the ACPC reference in tests/acpc_reference")
    out = tmp_path_factory.mktemp("acpc_player") / "example_player"
    subprocess.run(
        [cc, "-O2", "-o", str(out), "-I", str(REF), *(str(REF / f) for f in ("game.c", "rng.c", "net.c", "example_player.c"))],
        check=True, capture_output=True, timeout=300,
    )
    return out


@pytest.mark.parametrize(("players", "betting"), [(2, "no-limit"), (3, "no-limit"), (3, "fixed-limit")])
def test_the_reference_example_player_plays_a_match_in_our_arena(example_player: Path, players: int, betting: str) -> None:
    limit = betting == "fixed-limit"
    spec = f"acpc(command='{example_player} {{game}} {{host}} {{port}}', limit={limit})"
    cfg = ArenaConfig(agents=(spec, "random"), players=players, hands=150, seed=3, betting=betting, workers=1)
    result = run_match(cfg)
    rows = {r["agent"]: r for r in result.rows}
    assert set(rows) == {spec, "random"}
    assert all(r["stats"]["timeouts"] == 0 for r in result.rows)


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_the_state_from_a_seat_view_is_the_dealers_state(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    env = raw_env(num_players=n, small_blind=50, big_blind=100, buy_in=20000, action_mode="exact", reward_unit="chips")
    agent = AcpcAgent(port=1)  # never connects: only its state-building is used
    for hand in range(20):
        deck = shuffled_deck(rng)
        env.reset(options={"deck": list(deck), "button": n - 1})
        first = env.infos[env.agent_selection]["view"]
        game = gamedef_for_view(first, 20000, False)
        table, stacks = table_for(game)
        acpc = AcpcHand(game, table, stacks, deck, hand)
        agent._hand = hand
        while not all(env.terminations.values()):
            name = env.agent_selection
            info = env.infos[name]
            state, _, position = agent._matchstate(info["view"])
            assert position == env.agent_name_mapping[name]
            assert state == acpc.matchstate(position)
            legal = info["legal"]
            r = rng.random()
            if r < 0.15 and legal["fold"]:
                env.step(0)
                acpc.apply("f", 0)
            elif r < 0.7 or not legal["min_raise_to"]:  # None or 0: no raise (the env writes 0 in some paths)
                env.step(1)
                acpc.apply("c", 0)
            else:
                to = int(rng.integers(legal["min_raise_to"], legal["max_raise_to"] + 1))
                assert to > 0, (legal, state)
                seat = position
                total = acpc.hand.contributions[seat] - acpc.hand.street_bet_of(seat) + to
                env.step(to + 1)
                acpc.apply("r", total)
        assert acpc.hand.is_over


def test_a_bad_acpc_spec_says_what_to_give() -> None:
    with pytest.raises(AgentSpecError, match="command="):
        make_agent("acpc")
    with pytest.raises(AgentSpecError, match="timeout"):
        make_agent("acpc(port=5, timeout=0)")
