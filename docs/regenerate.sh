#!/usr/bin/env bash
# Regenerates the gallery's images (docs/img/) from the shipped studies at their own trial counts, and the
# screenshot of one study's report.html (with Chromium, if installed; else that one is kept as it was):
#   bash docs/regenerate.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run --release --quiet -- run scenarios/*.toml --out "$out" --quiet
# The ogre study again with its exact values, drawn dashed beside the simulated ones.
cargo run --release --quiet -- run scenarios/subdue-ogre.toml --exact --out "$out" --quiet
find docs/img -maxdepth 1 \( -name '*.png' -o -name '*.svg' \) ! -name 'report--*' -delete
for dir in "$out"/*/; do
  stem=$(basename "$dir")
  for chart in "$dir"*.png "$dir"*.svg; do
    [ -e "$chart" ] && cp "$chart" "docs/img/$stem--$(basename "$chart")"
  done
done
report=mugging-level-gap
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -n "$browser" ]; then
  # The top of the page at a desktop width: the title, the question, the chart and the headline table.
  "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,2400 \
    --screenshot="$PWD/docs/img/report--$report.png" "file://$out/$report/report.html" 2>/dev/null
else
  echo "no Chromium: docs/img/report--$report.png kept as it was" >&2
fi
ls docs/img
