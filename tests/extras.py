"""What an extra of metricdiff brings, read from pyproject.toml and from the
installed packages' own metadata (nothing is installed, nothing is downloaded):
the tests of ``Package`` (its extra pins its distribution and brings its modules)
and of the isolated peers (what they import is pinned or brought by the extra)."""

from __future__ import annotations

import functools
import importlib.metadata
import re
import sys

from packaging.requirements import Requirement

from helpers import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


def normalise(name: str) -> str:
    """A distribution's name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pyproject_extras() -> dict[str, list[Requirement]]:
    """Each extra of pyproject.toml -> its requirements."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {extra: [Requirement(text) for text in requirements]
            for extra, requirements in project["optional-dependencies"].items()}


def core_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [Requirement(text) for text in project["dependencies"]]


@functools.cache
def closure(extra: str | None) -> frozenset[str]:
    """The distributions ``pip install 'metricdiff[extra]'`` brings: metricdiff's
    core dependencies and the extra's, then theirs, as the installed packages'
    metadata lists them (with the extras each is asked for).  A requirement that is
    not installed here is kept by name, its own dependencies unknown."""
    wanted = [*core_requirements(), *(pyproject_extras()[extra] if extra else [])]
    found: set[str] = {"metricdiff"}
    queue = [(requirement, frozenset[str]()) for requirement in wanted]
    seen: set[tuple[str, frozenset[str]]] = set()
    while queue:
        requirement, asked = queue.pop()
        if requirement.marker is not None and not any(
                requirement.marker.evaluate({"extra": extra}) for extra in asked or {""}):
            continue
        name = normalise(requirement.name)
        found.add(name)
        key = (name, frozenset(requirement.extras))
        if key in seen:
            continue
        seen.add(key)
        try:
            requires = importlib.metadata.requires(requirement.name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        queue += [(Requirement(text), frozenset(requirement.extras)) for text in requires]
    return frozenset(found)


@functools.cache
def _top_level_owners() -> dict[str, list[str]]:
    return dict(importlib.metadata.packages_distributions())


def owners(module: str) -> list[str]:
    """The distributions of the main environment that install top-level ``module``."""
    return [normalise(d) for d in _top_level_owners().get(module.split(".")[0], [])]
