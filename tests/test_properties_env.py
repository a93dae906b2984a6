"""Property test: random legal and illegal actions through the env never break a rule.

Random tables of 2/3/6/10 seats, every betting structure and both action modes; illegal
actions (masked ids, ids out of range, huge integers, non-integers) are refused with the
state unchanged; chips are conserved at every step; payoffs and rewards sum to zero. The
long version is ``python tests/envfuzz.py --hands 200000``.
"""

from __future__ import annotations

from envfuzz import BETTINGS, MODES, SEATS, fuzz
from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=60, deadline=None)
@given(
    num_players=st.sampled_from(SEATS),
    betting=st.sampled_from(BETTINGS),
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_legal_and_illegal_actions_keep_every_rule(num_players: int, betting: str, mode: str, seed: int) -> None:
    refused = fuzz(num_players, betting, mode, hands=3, seed=seed, illegal_rate=0.5)
    assert refused >= 3  # at least one illegal action per hand was tried and refused
