#!/usr/bin/env bash
# Builds kestog_ugi: KestoG (github.com/maksimKorzh/KestoG, pinned commit)
# behind the UGI subset `damas match` speaks. KestoG's source is fetched
# into the output directory and never committed here.
#
#   benches/kestog/build.sh [OUT_DIR]      # default: target/kestog
#
# KESTOG_SRC=path/to/KestoG.C uses a local copy instead of downloading.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../../target/kestog}"
commit=96b4f68c1f0caf7af739e653ffb5bbbfd80e06b2
mkdir -p "$out"
if [ -n "${KESTOG_SRC:-}" ]; then
  cp "$KESTOG_SRC" "$out/KestoG.C"
elif [ ! -f "$out/KestoG.C" ]; then
  curl -fsSL "https://raw.githubusercontent.com/maksimKorzh/KestoG/$commit/KestoG.C" -o "$out/KestoG.C"
fi
cp "$here/kestog_ugi.c" "$out/"
# KestoG's own code draws many warnings from a modern compiler; they are
# its, not the shim's.
gcc -O3 -w -pthread -o "$out/kestog_ugi" "$out/kestog_ugi.c"
echo "$out/kestog_ugi"
