"""The configuration checks of holdem_env.engine.validate: exactly the allowed values pass, all else is a ConfigError."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from holdem_env.agents.base import check_bet_sizes as agents_check_bet_sizes
from holdem_env.engine.errors import ConfigError
from holdem_env.engine.validate import (
    MAX_BET_SIZE,
    check_ascending,
    check_bet_sizes,
    check_bool,
    check_choice,
    check_fraction,
    check_int,
    check_number,
    check_seed,
    is_int,
    is_number,
)

#: Anything a YAML file, a keyword argument or a careless caller may pass.
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**2000), max_value=2**2000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.binary(max_size=5),
    st.complex_numbers(allow_nan=True),
    st.decimals(allow_nan=True),
    st.integers(-(2**62), 2**62).map(np.int64),
    st.floats(width=32).map(np.float32),
    st.booleans().map(np.bool_),
    st.just(object()),
)
ANYTHING = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.tuples(inner, inner), st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


def _call_all(value: Any) -> None:
    checks = [
        lambda: check_int("k", value, 0, 10),
        lambda: check_int("k", value, none_ok=True),
        lambda: check_number("k", value, -1.0, 1.0, lo_open=True),
        lambda: check_number("k", value, none_ok=True),
        lambda: check_bool("k", value),
        lambda: check_choice("k", value, ("a", 1, None)),
        lambda: check_fraction("k", value),
        lambda: check_seed("k", value),
        lambda: check_bet_sizes(value),
        lambda: check_ascending("k", value, max_len=3),
        lambda: agents_check_bet_sizes(value),
    ]
    for check in checks:
        try:
            check()
        except ConfigError as exc:
            assert str(exc).startswith(("k=", "bet_sizes=")), str(exc)
            assert " is invalid: must be " in str(exc)


@given(ANYTHING)
def test_no_check_raises_anything_but_a_config_error_naming_the_key(value: Any) -> None:
    _call_all(value)


@given(st.one_of(st.integers(-50, 50), st.integers(-50, 50).map(np.int32)), st.integers(-20, 20), st.integers(-20, 20))
def test_check_int_accepts_exactly_the_integers_in_range(value: Any, lo: int, hi: int) -> None:
    inside = lo <= int(value) <= hi
    if inside:
        out = check_int("n", value, lo, hi)
        assert out == value and type(out) is int
    else:
        with pytest.raises(ConfigError, match=rf"^n=.* is invalid: must be an integer in {lo}\.\.{hi}$"):
            check_int("n", value, lo, hi)


@given(st.one_of(st.booleans(), st.floats(), st.text(max_size=3), st.decimals(), st.just(np.bool_(True))))
def test_check_int_rejects_booleans_floats_strings_and_decimals(value: Any) -> None:
    with pytest.raises(ConfigError):
        check_int("n", value)
    assert not is_int(value)


@given(
    st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-(2**1100), 2**1100)),
    st.floats(-10, 10),
    st.floats(-10, 10),
    st.booleans(),
    st.booleans(),
)
def test_check_number_accepts_exactly_the_finite_numbers_in_range(
    value: Any, lo: float, hi: float, lo_open: bool, hi_open: bool
) -> None:
    try:
        x = float(value)
    except OverflowError:
        x = math.inf
    inside = math.isfinite(x) and (x > lo if lo_open else x >= lo) and (x < hi if hi_open else x <= hi)
    if inside:
        assert check_number("x", value, lo, hi, lo_open=lo_open, hi_open=hi_open) == x
    else:
        with pytest.raises(ConfigError, match=r"^x=.* is invalid: must be a finite number in \S+"):
            check_number("x", value, lo, hi, lo_open=lo_open, hi_open=hi_open)


def test_range_words_name_what_is_allowed() -> None:
    with pytest.raises(ConfigError, match=r"must be a finite number in \(0, 1\]$"):
        check_number("x", 0, 0, 1, lo_open=True)
    with pytest.raises(ConfigError, match=r"must be a finite number >= 2$"):
        check_number("x", 1.5, 2)
    with pytest.raises(ConfigError, match=r"must be an integer >= 1, or None$"):
        check_int("x", 0, 1, none_ok=True)
    with pytest.raises(ConfigError, match=r"x=True is invalid: must be an integer$"):
        check_int("x", True)
    with pytest.raises(ConfigError, match=r"x='on' is invalid: must be True or False$"):
        check_bool("x", "on")
    with pytest.raises(ConfigError, match=r"x=2 is invalid: must be one of 'linear', 'uniform'$"):
        check_choice("x", 2, ["linear", "uniform"])
    with pytest.raises(ConfigError, match=r"^x=.*: a hint$"):
        check_int("x", -1, 0, allowed="a hint")


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_check_fraction_accepts_exactly_zero_to_one_open_below(value: float) -> None:
    if 0 < value <= 1:
        assert check_fraction("f", value) == value
    else:
        with pytest.raises(ConfigError, match=r"must be a number in \(0, 1\]"):
            check_fraction("f", value)


def test_check_choice_compares_type_too() -> None:
    assert check_choice("c", "a", ["a", "b"]) == "a"
    assert check_choice("c", 1, [1, 2]) == 1
    with pytest.raises(ConfigError):
        check_choice("c", True, [1, 2])  # True == 1, but a boolean is not the option 1
    with pytest.raises(ConfigError):
        check_choice("c", 1.0, [1, 2])


@given(st.lists(st.floats(allow_nan=True, allow_infinity=True) | st.integers(-5, 2000), max_size=5))
def test_check_bet_sizes_accepts_exactly_positive_finite_fractions_up_to_the_cap(sizes: list[Any]) -> None:
    ok = all(math.isfinite(float(f)) and 0 < f <= MAX_BET_SIZE for f in sizes)
    if ok:
        assert check_bet_sizes(sizes) == tuple(float(f) for f in sizes)
        assert agents_check_bet_sizes(sizes) == check_bet_sizes(sizes)
    else:
        with pytest.raises(ConfigError, match=r"^bet_sizes=.* positive, finite pot fractions"):
            check_bet_sizes(sizes)


@pytest.mark.parametrize(
    "sizes", [[1e308], [0.5, float("inf")], [float("nan")], [True], "0.5", 0.5, [10**400], {0.5: 1}, [Decimal("0.5")]]
)
def test_overflowing_or_malformed_bet_sizes_are_rejected_up_front(sizes: Any) -> None:
    with pytest.raises(ConfigError, match="bet_sizes="):
        check_bet_sizes(sizes)


def test_numpy_numbers_pass_as_plain_python_values() -> None:
    assert check_bet_sizes(np.array([0.5, 1.0])) == (0.5, 1.0)
    assert type(check_int("n", np.int64(3))) is int
    assert type(check_number("x", np.float32(0.5))) is float
    assert is_number(np.float64(1.0)) and not is_number(np.bool_(True)) and not is_number("1")


@given(st.lists(st.floats(0.01, 50) | st.integers(1, 50), max_size=6))
def test_check_ascending_accepts_exactly_strictly_ascending_lists(values: list[Any]) -> None:
    ascending = all(a < b for a, b in zip(values, values[1:], strict=False))
    if ascending and 1 <= len(values) <= 4:
        assert check_ascending("p", values, max_len=4) == tuple(float(v) for v in values)
    else:
        with pytest.raises(ConfigError, match=r"^p=.*strictly ascending positive numbers"):
            check_ascending("p", values, max_len=4)
