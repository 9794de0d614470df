#!/usr/bin/env bash
# Compares our Web IDL toolchain's speed with webidl2.js on the same machine,
# side by side, over every .idl file of @webref/idl:
#   1. "webidl check" end to end (process start, reading, parsing and
#      validating all files) against webidl2.js parsing the same files warm
#      inside node (its best case: no start-up, no file reading);
#   2. the Go parser's in-process throughput (BenchmarkParseCorpus) against
#      webidl2.js's warm in-process throughput (BenchmarkWebidl2NodeParseCorpus).
# Runs are interleaved so that machine load affects both sides alike; the
# medians and their ratios are printed.
# Usage: tools/webidl/compare.sh [ROUNDS]   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds="${1:-7}"
cache="${WEBLOCKS_NPM_CACHE:-$HOME/.cache/gowebengine-npm}"
if [ ! -f "$cache/node_modules/webidl2/package.json" ] || [ ! -d "$cache/node_modules/@webref/idl" ]; then
  mkdir -p "$cache"
  npm install --no-audit --no-fund --prefix "$cache" @webref/idl webidl2 >/dev/null
fi
webidl2="$cache/node_modules/webidl2"
corpus="$cache/node_modules/@webref/idl"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/webidl" ./tools/webidl

node_ms=()
check_ms=()
for ((i = 0; i < rounds; i++)); do
  # webidl2.js: 3 warm-up parses of the whole corpus, then 1 timed one.
  ms=$(node idl/testdata/webidl2-bench.js "$webidl2" "$corpus" 1 3 |
    sed -e 's/.*"ms":\[\([0-9.]*\)\].*/\1/')
  node_ms+=("$ms")
  start=$(date +%s%N)
  "$tmp/webidl" check -warnings=false "$corpus" >/dev/null 2>&1
  end=$(date +%s%N)
  check_ms+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')")
done

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
nm=$(median "${node_ms[@]}")
cm=$(median "${check_ms[@]}")
bytes=$(cat "$corpus"/*.idl | wc -c)
files=$(ls "$corpus"/*.idl | wc -l)
echo "corpus: $files files, $bytes bytes; $rounds interleaved rounds (medians)"
echo "webidl2.js parse (warm, in node):   $nm ms   ($(awk -v b="$bytes" -v m="$nm" 'BEGIN { printf "%.1f", b / m / 1e3 }') MB/s)"
echo "webidl check (end to end, process): $cm ms"
echo "ratio: webidl check is $(awk -v n="$nm" -v c="$cm" 'BEGIN { printf "%.1f", n / c }')x faster"

# In-process throughput: the Go benchmark and webidl2.js's, side by side in
# one "go test" run (BenchmarkWebidl2NodeParseCorpus times node).
bench=$(go test ./idl -run '^$' -bench '^(BenchmarkParseCorpus|BenchmarkWebidl2NodeParseCorpus)$' -benchtime 20x)
echo "$bench" | grep '^Benchmark'
gomb=$(echo "$bench" | awk '/^BenchmarkParseCorpus/ { for (i = 1; i <= NF; i++) if ($(i+1) == "MB/s") print $i }')
nodemb=$(echo "$bench" | awk '/^BenchmarkWebidl2NodeParseCorpus/ { for (i = 1; i <= NF; i++) if ($(i+1) == "MB/s") print $i }')
echo "parse throughput: Go $gomb MB/s, webidl2.js $nodemb MB/s: $(awk -v g="$gomb" -v n="$nodemb" 'BEGIN { printf "%.1f", g / n }')x"
