#!/bin/sh
# Install the peers that cannot share one environment into directories of
# their own: pltrdy's `rouge` (PyPI rouge==1.0.1) and py-rouge (PyPI
# py-rouge==1.1) both install a top-level package named `rouge`.
#
#   scripts/install-isolated-peers.sh            # both, skipping what is there
#   scripts/install-isolated-peers.sh --force    # reinstall
#   scripts/install-isolated-peers.sh py-rouge   # one of them
#
# Where: $METRICDIFF_PEERS_DIR, else <venv>/metricdiff-peers (see
# src/metricdiff/implementations/peers/_isolated.py).  PYTHON selects the interpreter of the
# environment metricdiff is installed in (default: .venv/bin/python).
set -eu
PYTHON="${PYTHON:-.venv/bin/python}"
exec "$PYTHON" -m metricdiff.implementations.peers._isolated install "$@"
