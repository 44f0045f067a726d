"""Where the cases that ship with metricdiff live: the fixture files and the specs'
worked examples (``fixtures.bundled_cases`` reads them).

Both live once, at the root of the source checkout, where they are written and
documented: ``fixtures/**/*.toml`` and the ``toml metricdiff-example`` blocks of
``spec/*.md``.  The wheel carries them inside the package (``metricdiff/fixtures``,
``metricdiff/spec``: the ``force-include`` table of ``pyproject.toml``), so that
``metricdiff check`` and ``metricdiff audit`` find them wherever metricdiff is
installed.  One source, two places to look: inside the package (an installed
wheel), else beside ``src/`` (a checkout, or an editable install of one).

A bundled case's location names its file from the package or the checkout
(``fixtures/bleu/basics.toml:12``, ``metricdiff/fixtures/bleu/basics.toml:12``),
never with the machine's path: locations end up in ``audit.json`` and reports.
"""

from __future__ import annotations

from pathlib import Path

from metricdiff.machine_paths import portable_name

PACKAGE = Path(__file__).resolve().parents[1]


def shipped_folder(name: str) -> Path:
    """The folder ``name`` (``fixtures`` or ``spec``) that ships with metricdiff."""
    packaged = PACKAGE / name
    if packaged.is_dir():
        return packaged
    return PACKAGE.parent.parent / name  # <checkout>/src/metricdiff -> <checkout>/name


def fixtures_folder() -> Path:
    """The bundled fixture files' folder: ``--fixtures``' default."""
    return shipped_folder("fixtures")


def spec_files() -> list[Path]:
    """The literate specs whose worked examples are cases too."""
    return sorted(shipped_folder("spec").glob("*.md"))


def shown(path: Path) -> Path:
    """How a case file is named in its cases' locations: a bundled file from the
    package or the checkout, any other file as it was given."""
    resolved = path.resolve()
    if any(resolved.is_relative_to(shipped_folder(name)) for name in ("fixtures", "spec")):
        return Path(portable_name(resolved))
    return path
