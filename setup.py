"""Package layout for setuptools (everything else is in ``pyproject.toml``).

The repository keeps ``agents/`` and ``training/`` as top-level folders, but they are installed
as ``holdem_env.agents`` and ``holdem_env.training``: generic top-level names would collide with a
user's own ``agents`` or ``training`` package.
"""

from __future__ import annotations

from setuptools import find_packages, setup

MAPPED = ("agents", "training")  # repository folder -> installed as holdem_env.<folder>

packages = find_packages(include=["holdem_env", "holdem_env.*"])
for folder in MAPPED:
    packages += [f"holdem_env.{name}" for name in find_packages(include=[folder, f"{folder}.*"])]

setup(
    packages=packages,
    package_dir={f"holdem_env.{folder}": folder for folder in MAPPED},
)
