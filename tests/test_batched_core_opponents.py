"""BatchedTables with external decide() opponents against the single-table nlhe_v1 env: the same
seeds and the same scripted policies give the same hands (a SHA-256 digest per hand), the learner's
payoffs are those of its seat, runs are deterministic, and a bot's illegal action is refused."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from holdem_env.batched import BatchedTables
from holdem_env.batched.views import BatchViews
from holdem_env.engine.errors import ConfigError, IllegalActionError
from holdem_env.env import nlhe_v1


class ScriptedBot:
    """A deterministic policy of the whole view (cards, pot, bets, stacks, history, legal set): any
    field read wrong changes its actions. ``act_single`` is the same policy on one single-table view."""

    uniforms_per_decision = 0

    def __init__(self, salt: int) -> None:
        self.salt = salt
        self.calls: list[np.ndarray] = []

    def decide(self, v: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        r = v.rows
        assert uniforms.shape == (r, 0)
        self.calls.append(v.seat.copy())
        idx = np.arange(r)
        last = np.where(v.hist_len > 0, v.hist_kind[idx, np.maximum(v.hist_len - 1, 0)], 7)
        last_to = np.where(v.hist_len > 0, v.hist_to[idx, np.maximum(v.hist_len - 1, 0)], 0)
        own = v.stacks[idx, v.seat] + v.street_bets[idx, v.seat]
        board = np.where(v.board >= 0, v.board, 0).sum(axis=1)
        x = (v.hole[:, 0] * 7 + v.hole[:, 1] * 13 + board * 3 + v.pot // v.big_blind + v.hist_len * 3 + v.seat * 5
             + last * 11 + last_to // v.big_blind + own // 50 + v.current_bet // v.big_blind + v.call
             + v.folded.sum(axis=1) + v.button + v.street + self.salt) % 20
        lo, hi = v.min_raise_to, v.max_raise_to
        a = np.ones(r, dtype=np.int64)
        a = np.where((v.legal_fold == 1) & (x < 4), 0, a)
        a = np.where((lo > 0) & (x >= 16), lo + 1, a)
        a = np.where((lo > 0) & (x == 15), np.minimum(hi, lo + 3 * v.big_blind) + 1, a)
        a = np.where((lo > 0) & (x == 14) & (v.street >= 2), hi + 1, a)
        return a

    def act_single(self, view: object, legal: object) -> int:
        return int(self.decide(BatchViews.from_seat_views([view], [legal]), np.empty((1, 0)))[0])  # type: ignore[list-item]


class UniformBot:
    """Random from its uniforms: fold (when legal), call, or a raise size drawn from the second uniform."""

    uniforms_per_decision = 2
    name = "uniform"

    def decide(self, v: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        assert uniforms.shape == (v.rows, 2) and ((uniforms >= 0) & (uniforms < 1)).all()
        u, w = uniforms[:, 0], uniforms[:, 1]
        lo, hi = v.min_raise_to, v.max_raise_to
        top = np.minimum(hi, 4 * np.maximum(lo, 1))
        a = np.ones(v.rows, dtype=np.int64)
        a = np.where((v.legal_fold == 1) & (u < 0.15), 0, a)
        return np.where((lo > 0) & (u > 0.8), lo + (w * (top - lo + 1)).astype(np.int64) + 1, a)


def _digest(deck: tuple, button: int, actions: list, payoffs: tuple) -> str:
    return hashlib.sha256(repr((tuple(deck), int(button), [tuple(map(int, x)) for x in actions],
                                tuple(map(int, payoffs)))).encode()).hexdigest()


def _batched_hands(bt: BatchedTables) -> list[list[dict]]:
    """Each table's finished hands from the trace: deck, button, learner seat, actions, payoffs."""
    hands: list[list[dict]] = [[] for _ in range(bt.num_tables)]
    current: list[dict | None] = [None] * bt.num_tables
    for t, seat, what in bt.trace:
        if seat == -1:
            button, deck, learner = what
            current[t] = {"deck": deck, "button": button, "learner": learner, "actions": []}
        elif seat == -2:
            hand = current[t]
            assert hand is not None
            hand["payoffs"] = what
            hands[t].append(hand)
            current[t] = None
        else:
            hand = current[t]
            assert hand is not None
            hand["actions"].append((seat, what))
    return hands


def _run_batched(seeds: list[int], players: int, hands: int, learner: ScriptedBot, opponents: dict,
                 random_learner_seat: bool = False) -> tuple[BatchedTables, list[list[dict]], np.ndarray, np.ndarray]:
    bt = BatchedTables(len(seeds), players, 5, 10, 600, table_seeds=seeds, opponents=opponents, record=True,
                       random_learner_seat=random_learner_seat)
    lv = BatchViews.empty(len(seeds), players, 5, 10)
    reward = np.zeros(len(seeds), dtype=np.int64)
    done = np.zeros(len(seeds), dtype=np.int64)
    while bt.hands_played.min() < hands:
        assert (bt.actor == bt.learner).all()
        bt.fill_views(None, lv)
        bt.step(learner.decide(lv, np.empty((len(seeds), 0))))
        reward += bt.learner_reward
        done += bt.learner_done
        assert ((bt.final_seat >= 0) == (bt.learner_done == 1)).all()
    return bt, _batched_hands(bt), reward, done


def _single_table_hands(seed: int, players: int, learner_seats: list[int], learner: ScriptedBot,
                        seat_bot: dict[int, ScriptedBot]) -> list[dict]:
    """The same hands on nlhe_v1 (reset(seed) then plain resets), each seat played by its policy."""
    env = nlhe_v1.env(num_players=players, action_mode="exact", buy_in=600)
    env.reset(seed=seed)
    out = []
    for ls in learner_seats:
        state = env.unwrapped.state_object
        hand = {"deck": state.deck, "button": state.button, "learner": ls, "actions": []}
        while not all(env.terminations.values()):
            agent = env.agent_selection
            seat = env.unwrapped.agent_name_mapping[agent]
            info = env.infos[agent]
            bot = learner if seat == ls else seat_bot[seat]
            a = bot.act_single(info["view"], info["legal"])
            hand["actions"].append((seat, a))
            env.step(a)
        hand["payoffs"] = env.unwrapped.state_object.payoffs
        out.append(hand)
        env.reset()
    return out


def _learner_totals(hands: list[dict]) -> tuple[int, int]:
    """(the learner's payoff summed over the hands it acted in, how many such hands)."""
    mine = [h for h in hands if any(s == h["learner"] for s, _ in h["actions"])]
    return sum(h["payoffs"][h["learner"]] for h in mine), len(mine)


@pytest.mark.parametrize("players", [2, 6])
def test_digest_same_seeds_same_hands_and_results(players: int) -> None:
    # issue 25: the same seeds give the same hands and results in the single-table env and the batched core
    seeds = [11, 12, 2**33, 7]
    k = 120
    learner, other = ScriptedBot(1), ScriptedBot(2)
    bt, batched, reward, done = _run_batched(seeds, players, k, learner, {"others": other})
    for t, s in enumerate(seeds):
        single = _single_table_hands(s, players, [h["learner"] for h in batched[t][:k]], learner,
                                     dict.fromkeys(range(players), other))
        got = [_digest(h["deck"], h["button"], h["actions"], h["payoffs"]) for h in batched[t][:k]]
        want = [_digest(h["deck"], h["button"], h["actions"], h["payoffs"]) for h in single]
        assert got == want, f"table {t}: first differing hand {next(i for i, (a, b) in enumerate(zip(got, want, strict=True)) if a != b)}"
        assert (reward[t], done[t]) == _learner_totals(batched[t])
    outcomes = [h["payoffs"] for hs in batched for h in hs]
    assert len(set(outcomes)) > 10 and any(len(h["actions"]) > 8 for hs in batched for h in hs)


def test_two_bots_by_seat_and_a_random_learner_seat_match_the_single_table_env() -> None:
    seeds = [3, 4, 5]
    learner, bot_a, bot_b = ScriptedBot(0), ScriptedBot(5), ScriptedBot(9)
    seat_bot = {0: bot_a, 2: bot_a, 1: bot_b, 3: bot_b}
    bt, batched, reward, done = _run_batched(seeds, 4, 150, learner, seat_bot, random_learner_seat=True)
    seats = [h["learner"] for hs in batched for h in hs]
    assert set(seats) == {0, 1, 2, 3}  # drawn at every hand
    # each bot saw only the tables where one of its seats was to act, and played every such decision
    assert set(np.concatenate(bot_a.calls).tolist()) == {0, 2} and set(np.concatenate(bot_b.calls).tolist()) == {1, 3}
    opponent_decisions = sum(len(c) for c in bot_a.calls + bot_b.calls)
    learner_decisions = int(sum(len(c) for c in learner.calls))
    assert opponent_decisions + learner_decisions == bt.decisions
    for t, s in enumerate(seeds):
        single = _single_table_hands(s, 4, [h["learner"] for h in batched[t]], learner, seat_bot)
        assert [_digest(h["deck"], h["button"], h["actions"], h["payoffs"]) for h in batched[t]] == \
               [_digest(h["deck"], h["button"], h["actions"], h["payoffs"]) for h in single]
        assert (reward[t], done[t]) == _learner_totals(batched[t])


def test_same_seed_same_play_and_another_seed_differs() -> None:
    def run(seed: int) -> tuple:
        bt = BatchedTables(16, 6, seed=seed, opponents={"others": UniformBot()}, random_learner_seat=True, record=True)
        out = []
        for _ in range(40):
            bt.step(bt.random_actions())
            out.append((bt.learner_reward.tolist(), bt.learner_done.tolist(), bt.rewards.tolist()))
        return out, bt.trace

    assert run(5) == run(5)
    assert run(5) != run(6)


class _Illegal:
    """Calls everywhere but at one table, where it answers an impossible raise; remembers the state."""

    def __init__(self, bt_box: list, table: int) -> None:
        self.box, self.table = bt_box, table
        self.seen: tuple | None = None

    def decide(self, v: BatchViews, uniforms: np.ndarray) -> np.ndarray:
        bt = self.box[0] if self.box else None
        a = np.ones(v.rows, dtype=np.int64)
        if bt is not None:
            self.seen = (bt.actor.copy(), bt.hist_len.copy(), bt.stacks.copy())
            a[:] = np.where(np.arange(v.rows) == 0, 10**6, 1)
        return a


def test_an_illegal_bot_action_names_the_bot_and_table_and_applies_nothing_of_its_round() -> None:
    box: list = []
    bot = _Illegal(box, 0)
    bt = BatchedTables(4, 3, seed=1, opponents={"others": bot})
    box.append(bt)
    with pytest.raises(IllegalActionError, match=r"opponent _Illegal at table \d \(seat \d\) chose action 1000000.*not legal \(.*1 (call|check)"):
        bt.step(np.ones(4, dtype=np.int64))
    assert bot.seen is not None
    assert (bt.actor == bot.seen[0]).all() and (bt.hist_len == bot.seen[1]).all() and (bt.stacks == bot.seen[2]).all()
    with pytest.raises(IllegalActionError, match="stopped in the middle of a step"):
        bt.step(np.ones(4, dtype=np.int64))


def test_a_bot_answering_the_wrong_shape_is_named() -> None:
    class Short:
        def decide(self, v: BatchViews, uniforms: np.ndarray) -> list[int]:
            return [1]

    with pytest.raises(IllegalActionError, match="opponent Short: decide returned shape"):
        BatchedTables(4, 3, seed=1, opponents={"others": Short()})


def test_opponents_are_checked() -> None:
    bot = UniformBot()
    with pytest.raises(ConfigError, match="random_opponents"):
        BatchedTables(2, 3, opponents={"others": bot}, random_opponents=True)
    with pytest.raises(ConfigError, match=r"seats \[2\] have none"):
        BatchedTables(2, 3, opponents={1: bot})
    with pytest.raises(ConfigError, match="learner's"):
        BatchedTables(2, 3, opponents={0: bot, "others": bot})
    with pytest.raises(ConfigError, match=r"every seat needs a bot \(seats \[0\]"):
        BatchedTables(2, 3, opponents={1: bot, 2: bot}, random_learner_seat=True)
    with pytest.raises(ConfigError, match="decide"):
        BatchedTables(2, 3, opponents={"others": object()})
    with pytest.raises(ConfigError, match="opponents"):
        BatchedTables(2, 3, opponents={"rest": bot})
    bad = UniformBot()
    bad.uniforms_per_decision = -1
    with pytest.raises(ConfigError, match="uniforms_per_decision"):
        BatchedTables(2, 3, opponents={"others": bad})


def test_random_learner_seat_with_random_opponents_reports_the_learner_payoffs() -> None:
    bt = BatchedTables(32, 6, 5, 10, 300, seed=8, random_opponents=True, random_learner_seat=True, record=True)
    hands_seen = 0
    for _ in range(60):
        bt.trace.clear()
        bt.step(bt.random_actions())
        assert (bt.actor == bt.learner).all()
        for t in np.flatnonzero(bt.learner_done):
            # the finished hand the learner decided in: its payoff at its seat then
            finished = [what for tt, s, what in bt.trace if tt == t and s == -2]
            assert finished and bt.learner_reward[t] == finished[0][bt.final_seat[t]]
            hands_seen += 1
    assert hands_seen > 100
    assert len(set(bt.learner.tolist())) > 1


def test_uniforms_per_decision_defaults_to_one_and_rows_are_the_seats_to_act() -> None:
    class Plain:
        def __init__(self) -> None:
            self.shapes: list[tuple[int, ...]] = []
            self.box: list[BatchedTables] = []

        def decide(self, v: BatchViews, uniforms: np.ndarray) -> np.ndarray:
            self.shapes.append(uniforms.shape)
            if self.box:  # every row is a table where this bot's seat is to act, with that seat's own cards
                bt = self.box[0]
                rows = [t for t in range(bt.num_tables) if bt.actor[t] != bt.learner[t]]
                assert v.seat.tolist() == [int(bt.actor[t]) for t in rows]
                assert v.hole.tolist() == [bt.hole[t, 2 * s : 2 * s + 2].tolist() for t, s in zip(rows, v.seat.tolist(), strict=True)]
            return np.ones(v.rows, dtype=np.int64)

    bot = Plain()
    bt = BatchedTables(8, 4, seed=2, opponents={"others": bot}, learner_seat=3)
    bot.box.append(bt)
    for _ in range(10):
        bt.step(np.ones(8, dtype=np.int64))
    assert bot.shapes and all(len(s) == 2 and s[1] == 1 for s in bot.shapes)


def test_set_opponents_replaces_the_bots_from_the_next_step() -> None:
    first, second = ScriptedBot(1), ScriptedBot(2)
    bt = BatchedTables(8, 3, seed=4, opponents={"others": first})
    for _ in range(5):
        bt.step(np.ones(8, dtype=np.int64))
    with pytest.raises(ConfigError, match="opponents"):
        bt.set_opponents({"others": object()})  # refused: the first bot stays
    with pytest.raises(ConfigError, match="replaced only"):
        bt.set_opponents(None)
    n_first = len(first.calls)
    bt.set_opponents({1: second, 2: second})
    for _ in range(5):
        bt.step(np.ones(8, dtype=np.int64))
    assert len(first.calls) == n_first and second.calls
    with pytest.raises(ConfigError, match="replaced only"):
        BatchedTables(2, 3).set_opponents({"others": second})
