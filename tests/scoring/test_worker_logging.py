"""A peer that configures logging when imported (compare-mt calls
``logging.basicConfig(level=INFO)``; rouge-score then logs absl's "Using default
tokenizer" at INFO on every scorer) must not put its INFO chatter on the user's
terminal through metricdiff's workers; its warnings still reach it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

CHATTY = textwrap.dedent('''
    import logging

    logging.basicConfig(level=logging.INFO)  # as compare_mt/reporters.py does on import


    def bleu(hypotheses, references, metric):
        logging.getLogger("chatty").info("INFO-CHATTER")
        logging.getLogger("chatty").warning("WARNING-KEPT")
        return {"score": 50.0}
''')


def test_a_peers_logging_setup_does_not_reach_the_terminal(tmp_path: Path) -> None:
    (tmp_path / "chatty.py").write_text(CHATTY, encoding="utf-8")
    (tmp_path / "h.txt").write_text("a b c\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("a b d\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from metricdiff.cli import main; sys.exit(main())",
         "score", "--metric", "bleu",
         "--impl", f"python:{tmp_path / 'chatty.py'}:bleu",
         "--hyp", str(tmp_path / "h.txt"), "--ref", str(tmp_path / "r.txt")],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "BLEU = 50.00" in done.stdout, done.stdout  # the function's own answer
    assert "INFO-CHATTER" not in done.stderr, done.stderr
    assert "WARNING-KEPT" in done.stderr, done.stderr
