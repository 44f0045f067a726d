"""One exception root: every exception metricdiff defines derives from
``MetricdiffError`` and is in ``metricdiff.errors``, or, raised by one peer alone,
with that peer; the command line turns each into one line and the exit status of
whose fault it is."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import metricdiff
from metricdiff import errors
from metricdiff.cli import main


def _exception_classes() -> set[type[BaseException]]:
    """Every exception class reachable from a metricdiff module, by walking them all."""
    found: set[type[BaseException]] = set()
    for module in pkgutil.walk_packages(metricdiff.__path__, "metricdiff."):
        if module.name == "metricdiff.implementations":  # the deprecated alias of impls
            continue
        for value in vars(importlib.import_module(module.name)).values():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__.startswith("metricdiff")):
                found.add(value)
    return found


#: The exceptions one peer alone raises, defined with it.
PEER_ERRORS = {"DataDirError": "metricdiff.impls.peers.rouge155.data",
               "Rouge155Error": "metricdiff.impls.peers.rouge155.failures",
               "Rouge155ScriptDied": "metricdiff.impls.peers.rouge155.failures"}


def test_every_exception_is_defined_in_errors_or_its_peer_under_the_root() -> None:
    found = _exception_classes()
    # The one warning is no error: it is given, not raised (errors.py).
    assert {cls for cls in found if issubclass(cls, Warning)} == {errors.MetricdiffWarning}
    classes = {cls for cls in found if not issubclass(cls, Warning)}
    assert classes  # the walk found the ones the modules import
    for cls in classes:
        assert cls.__module__ == PEER_ERRORS.get(cls.__name__, "metricdiff.errors"), cls
        assert issubclass(cls, errors.MetricdiffError), cls
    # And errors.__all__ names all of its own.
    assert {cls.__name__ for cls in classes} - set(PEER_ERRORS) <= set(errors.__all__)
    assert set(PEER_ERRORS) <= {cls.__name__ for cls in classes}


def _class(name: str) -> type[BaseException]:
    """The exception class ``name``, wherever it is defined."""
    found: type[BaseException] = getattr(importlib.import_module(
        PEER_ERRORS.get(name, "metricdiff.errors")), name)
    return found


@pytest.mark.parametrize(("name", "builtin"), [
    # The built-in base each class had before it moved here, so that an
    # ``except ValueError`` / ``except RuntimeError`` written against it still works.
    ("InputError", ValueError),
    ("OutputError", ValueError),  # was an InputError
    ("FixtureError", ValueError),
    ("LockError", ValueError),
    ("ConventionError", ValueError),
    ("UnsupportedOption", ValueError),
    ("BadSpec", ValueError),
    ("EmptyInputError", ValueError),
    ("InvalidOutput", ValueError),
    ("MissingReferenceError", ValueError),
    ("AdapterUnavailable", RuntimeError),
    ("PeerNotInstalled", RuntimeError),
    ("TokenizerUnavailable", RuntimeError),
    ("TextResourceUnavailable", RuntimeError),
    ("DataDirError", RuntimeError),
    ("ImplementationFailed", RuntimeError),
    ("CommandFailed", RuntimeError),
    ("Rouge155Error", RuntimeError),
])
def test_the_builtin_bases_are_kept(name: str, builtin: type[Exception]) -> None:
    assert issubclass(_class(name), builtin)


def test_whose_fault_it_is() -> None:
    # What an implementation does while scoring is a finding about it (exit 1);
    # what metricdiff was given or this machine lacks is not (exit 2).
    failed = {"ImplementationFailed", "EmptyInputError", "InvalidOutput", "CommandFailed",
              "CommandTimedOut",
              "MissingReferenceError", "Rouge155Error", "Rouge155ScriptDied"}
    for name in [*errors.__all__, *PEER_ERRORS]:
        cls = _class(name)
        if cls in (errors.MetricdiffError, errors.ImplementationError, errors.MetricdiffWarning):
            continue
        assert issubclass(cls, errors.ImplementationError) == (name in failed), name


def test_an_output_folder_that_is_a_file_is_an_output_error(tmp_path: Path) -> None:
    from metricdiff.cli._common import output_folder

    blocker = tmp_path / "taken"
    blocker.write_text("", encoding="utf-8")
    with pytest.raises(errors.OutputError, match=f"--out {blocker}/sub: cannot create"):
        output_folder(str(blocker / "sub"))


def test_the_command_line_catches_the_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import metricdiff.cli.score

    hyp = tmp_path / "h.txt"
    hyp.write_text("a b\n", encoding="utf-8")
    argv = ["score", "--impl", "reference", "--hyp", str(hyp), "--ref", str(hyp)]

    def refuse(*_args: object) -> None:
        raise errors.TokenizerUnavailable("no such package; pip install it")

    # A refusal that used to escape as a traceback: one line, exit status 2.
    monkeypatch.setattr(metricdiff.cli.score, "stream_input", refuse)
    assert main(argv) == 2
    assert capsys.readouterr().err == "metricdiff: error: no such package; pip install it\n"

    def died(*_args: object) -> None:
        raise errors.CommandFailed("exit status 3")

    # An implementation's failure that escapes its command: one line, exit status 1.
    monkeypatch.setattr(metricdiff.cli.score, "stream_input", died)
    assert main(argv) == 1
    assert capsys.readouterr().err == "metricdiff: error: exit status 3\n"
