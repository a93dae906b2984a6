"""Registers holdem-env's environments with PettingZoo and Gymnasium without importing either.

``import holdem_env`` calls :func:`install`. Neither library discovers third-party environments
by itself (PettingZoo 1.27 has no plug-in group; Gymnasium 1.x dropped its ``gymnasium.envs``
entry points), and importing them eagerly would cost every engine-only user a second of start-up
and pull PettingZoo, Gymnasium and pygame into processes that never use them. So:

* a library already imported gets the ids at once;
* otherwise a small import hook (a :data:`sys.meta_path` finder) waits for the library's top
  package to finish importing, registers the ids right then, and removes itself once every
  library is served.

The registries hold only ``"module:callable"`` strings, so the environment modules themselves are
imported by ``make`` on first use.

==========================  ==================  ===========================================
id                          registry            entry point
==========================  ==================  ===========================================
``holdem_env/nlhe-v1``      PettingZoo ``aec``  :func:`holdem_env.env.nlhe_v1.env`
``holdem_env/nlhe-v0``      PettingZoo ``aec``  the same (the previous name, kept for old code)
``holdem_env/Holdem-v1``    Gymnasium           :class:`holdem_env.env.gym_wrapper.HoldemGymEnv`
``holdem_env/Holdem-v0``    Gymnasium           the same, with a ``FutureWarning`` (deprecated)
==========================  ==================  ===========================================

The Gymnasium id's version follows the AEC env's (``nlhe-v1``). ``Holdem-v1`` also differs from
``Holdem-v0`` in what the wrapper hands out: infos carry ``illegal_actions``, a terminal
observation's mask allows the (never applied) check/call id, ``render_mode="rgb_array"`` exists
and ``reset(seed=...)`` reseeds the opponents (see :mod:`holdem_env.env.gym_wrapper`).

>>> PETTINGZOO_AEC_IDS["holdem_env/nlhe-v1"]
'holdem_env.env.nlhe_v1:env'
>>> GYMNASIUM_IDS["holdem_env/Holdem-v1"]
'holdem_env.env.gym_wrapper:HoldemGymEnv'
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

__all__ = [
    "PETTINGZOO_AEC_IDS",
    "GYMNASIUM_IDS",
    "GYMNASIUM_ID",
    "install",
    "make_deprecated_holdem_v0",
    "register_pettingzoo",
    "register_gymnasium",
]

#: PettingZoo AEC id -> ``"module:callable"`` building the environment.
PETTINGZOO_AEC_IDS: dict[str, str] = {
    "holdem_env/nlhe-v1": "holdem_env.env.nlhe_v1:env",
    "holdem_env/nlhe-v0": "holdem_env.env.nlhe_v1:env",  # the previous name (module alias holdem_env.nlhe_v0)
}
#: The current Gymnasium id of the single-learner environment.
GYMNASIUM_ID = "holdem_env/Holdem-v1"
#: Gymnasium id -> ``"module:callable"`` building the single-learner environment.
GYMNASIUM_IDS: dict[str, str] = {
    GYMNASIUM_ID: "holdem_env.env.gym_wrapper:HoldemGymEnv",
    "holdem_env/Holdem-v0": "holdem_env.env.registration:make_deprecated_holdem_v0",  # the previous id
}


def make_deprecated_holdem_v0(**kwargs: Any) -> Any:
    """``holdem_env/Holdem-v0``: warns (``FutureWarning``) and builds today's ``HoldemGymEnv``."""
    # late import: this module must not import Gymnasium (it registers ids before Gymnasium is loaded)
    from holdem_env.env.gym_wrapper import HoldemGymEnv

    warnings.warn(
        f"'holdem_env/Holdem-v0' is deprecated: use '{GYMNASIUM_ID}' (the same wrapper; its version follows the "
        "AEC env nlhe-v1)",
        FutureWarning,
        stacklevel=3,
    )
    return HoldemGymEnv(**kwargs)


make_deprecated_holdem_v0.metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 2}  # type: ignore[attr-defined]


def register_pettingzoo(module: ModuleType) -> None:
    """Add the ids of :data:`PETTINGZOO_AEC_IDS` missing from ``module`` (the ``pettingzoo`` package)."""
    registry = getattr(module, "aec_registry", None)
    register = getattr(module, "register", None)
    if registry is None or register is None:  # PettingZoo < 1.26 has no registry
        return
    for env_id, entry_point in PETTINGZOO_AEC_IDS.items():
        if env_id not in registry:
            register("aec", env_id, entry_point=entry_point)


def register_gymnasium(module: ModuleType) -> None:
    """Add the ids of :data:`GYMNASIUM_IDS` missing from ``module`` (the ``gymnasium`` package)."""
    for env_id, entry_point in GYMNASIUM_IDS.items():
        if env_id not in module.registry:
            module.register(id=env_id, entry_point=entry_point)


_HOOKS: dict[str, Callable[[ModuleType], None]] = {"pettingzoo": register_pettingzoo, "gymnasium": register_gymnasium}


class _RegisteringLoader(importlib.abc.Loader):
    """Runs the real loader, then the registration; every other attribute is the real loader's."""

    def __init__(self, loader: Any, hook: Callable[[ModuleType], None]) -> None:
        self._loader = loader
        self._hook = hook

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        self._hook(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _RegisterOnImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: wraps the loader that the other finders return for a hooked package."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        hook = _HOOKS.get(fullname)
        if hook is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec  # a namespace package or a legacy loader: leave it alone
        _PENDING.discard(fullname)
        if not _PENDING:
            _uninstall_finder()
        spec.loader = _RegisteringLoader(spec.loader, hook)
        return spec


_FINDER = _RegisterOnImport()
_PENDING: set[str] = set()


def _uninstall_finder() -> None:
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)


def install() -> None:
    """Register now with the libraries already imported; hook the others' first import.

    Idempotent: calling it again adds nothing twice.
    """
    for name, hook in _HOOKS.items():
        module = sys.modules.get(name)
        if module is not None:
            hook(module)
            _PENDING.discard(name)
        else:
            _PENDING.add(name)
    if _PENDING and _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
