#!/usr/bin/env bash
# System packages the ROUGE-1.5.5 Perl adapter needs: Perl's XML::Parser, from
# Debian's libxml-parser-perl.  Installed with apt-get when we are root on a Debian
# machine; elsewhere the adapter reports itself unavailable, with this hint.
set -euo pipefail
if perl -MXML::Parser -e1 2>/dev/null; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq libxml-parser-perl >/dev/null
else
    echo "note: Perl's XML::Parser is missing; the rouge155 adapter stays unavailable" \
         "(install Debian's libxml-parser-perl as root)" >&2
fi
