"""What several test files share: running the command line in this process."""

from __future__ import annotations

import pytest

from metricdiff.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    """``metricdiff ARGV...`` (each argument as a string): exit status, stdout, stderr."""
    status = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err
