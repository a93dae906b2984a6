"""The cfr-lite policy file: average strategies per abstract information set, in one ``.npz``.

Layout of the file (all plain numpy arrays, so it loads without pickle):

=============  ===============================================================
``keys``       ``[N]`` bytes: information-set keys (see :mod:`holdem_env.agents.cfr_lite.game`)
``probs``      ``[N, A]`` float16: action probabilities (0 for actions not offered)
``meta``       JSON text: format version, table config, action and card abstraction
``th_*``       the card-abstraction thresholds used in training (so no cache is needed)
=============  ===============================================================
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from holdem_env.engine.config import TableConfig
from holdem_env.engine.errors import ConfigError
from holdem_env.fileutil import atomic_write_bytes
from holdem_env.safefiles import UnsafeFileError, read_npz

from .actions import ActionAbstraction
from .buckets import CardAbstraction

__all__ = ["POLICY_FORMAT", "CfrLitePolicy"]

#: Version written into ``meta["format"]``; bumped when the layout changes.
POLICY_FORMAT = 1
#: Largest policy file accepted, uncompressed (checked from the zip headers before decompressing).
MAX_POLICY_BYTES = 1 << 30


@dataclass
class CfrLitePolicy:
    """A trained cfr-lite strategy: key -> action probabilities, plus the abstraction it needs."""

    table: TableConfig
    actions: ActionAbstraction
    cards: CardAbstraction
    keys: list[str]
    probs: np.ndarray
    info: dict[str, Any] = field(default_factory=dict)
    _index: dict[str, int] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.probs = np.asarray(self.probs)
        if self.probs.ndim != 2 or self.probs.shape != (len(self.keys), self.actions.num_actions):
            raise ConfigError("probs", self.probs.shape, f"must have shape ({len(self.keys)}, {self.actions.num_actions})")
        if self.probs.size and not (np.isfinite(self.probs).all() and (self.probs >= 0).all() and (self.probs <= 1).all()):
            raise ConfigError("probs", "NaN, infinite or out-of-range entries", "must be probabilities in 0..1")
        self._index = {k: i for i, k in enumerate(self.keys)}

    def __len__(self) -> int:
        return len(self.keys)

    def lookup(self, key: str) -> np.ndarray | None:
        """Action probabilities of an information set, or ``None`` when training never reached it."""
        i = self._index.get(key)
        return None if i is None else self.probs[i].astype(np.float64)

    def save(self, path: str | Path) -> None:
        """Write the policy as a compressed ``.npz`` (atomically)."""
        th = self.cards.thresholds()
        meta = {
            "format": POLICY_FORMAT,
            "table": self.table.to_dict(),
            "actions": self.actions.to_dict(),
            "cards": self.cards.to_dict(),
            "info": self.info,
        }
        keys = np.array([k.encode("ascii") for k in self.keys], dtype=bytes) if self.keys else np.zeros(0, dtype="S1")
        arrays: dict[str, Any] = {
            "keys": keys,
            "probs": self.probs.astype(np.float16),
            "meta": np.array(json.dumps(meta, sort_keys=True)),
            **{f"th_{k}": v for k, v in th.items()},
        }
        atomic_write_bytes(path, lambda fh: np.savez_compressed(fh, **arrays))

    @classmethod
    def load(cls, path: str | Path) -> CfrLitePolicy:
        """Read a policy written by :meth:`save`; a missing or foreign file is a :class:`ConfigError`."""
        p = Path(path)
        if not p.is_file():
            raise ConfigError("policy", str(p), "must be an existing cfr-lite .npz policy file")
        try:
            data = read_npz(p, MAX_POLICY_BYTES)
        except UnsafeFileError as exc:
            raise ConfigError("policy", str(p), f"is not a cfr-lite policy file ({exc})") from None
        try:
            meta = json.loads(str(data["meta"]))
            if not isinstance(meta, dict):
                raise TypeError("meta is not a JSON object")
            keys = [k.decode("ascii") for k in data["keys"].tolist()]
            probs = data["probs"].astype(np.float32)
            th = {k[3:]: data[k] for k in data if k.startswith("th_")}
            if meta.get("format") != POLICY_FORMAT:
                raise ConfigError(
                    "policy", str(p), f"has format {meta.get('format')!r}; this version reads format {POLICY_FORMAT}"
                )
            a = meta["actions"]
            actions = ActionAbstraction(
                tuple(a["pot_fractions"]), a["all_in"], a["max_raises_per_street"], a.get("all_in_max_pot"),
                a.get("preflop_max_raises"), a.get("summarize_preflop", False),
            )
            c = meta["cards"]
            cards = CardAbstraction(
                c["preflop_buckets"], tuple(c["postflop_buckets"]), c["rollouts"], c["sample_size"], c["seed"],
                spacing=c.get("spacing", 1.0),
            )
            cards.set_thresholds(th)
            table = TableConfig.from_dict(meta["table"])
            info = meta.get("info", {})
            if not isinstance(info, dict):
                raise TypeError("info is not a JSON object")
            return cls(table, actions, cards, keys, probs, info)
        except ConfigError as exc:
            if exc.field == "policy":
                raise
            raise ConfigError("policy", str(p), f"is not a usable cfr-lite policy file ({exc})") from None
        except (KeyError, ValueError, TypeError, AttributeError, IndexError, UnicodeError, OverflowError) as exc:
            what = f"missing entry {exc}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
            raise ConfigError("policy", str(p), f"is not a cfr-lite policy file ({what})") from None
