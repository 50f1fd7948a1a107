#!/usr/bin/env bash
# Regenerates the gallery's images (docs/img/) from the shipped studies at their own trial counts:
#   bash docs/regenerate.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run --release --quiet -- run scenarios/*.toml --out "$out" --quiet
rm -f docs/img/*.png docs/img/*.svg
for dir in "$out"/*/; do
  stem=$(basename "$dir")
  for chart in "$dir"*.png "$dir"*.svg; do
    [ -e "$chart" ] && cp "$chart" "docs/img/$stem--$(basename "$chart")"
  done
done
ls docs/img
