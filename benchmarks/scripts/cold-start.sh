#!/bin/bash
# Cold start of `ragkit ask`, wall time per run in milliseconds (docs/benchmarks.md, "Cold start of ragkit ask").
#
#   benchmarks/scripts/cold-start.sh <index> <jar of the build to compare with> [runs, default 10]
#
# Alternates three ways of running the same question on the same index: the other build's jar with `java -jar`,
# this repository's bin/ragkit with RAGKIT_CDS=off, and bin/ragkit with its class-data-sharing archive (written
# first, in a temporary folder). Prints one line per round and the medians. Build this repository's jar first:
# mvn -B -q -DskipTests -pl rag-cli -am package
set -euo pipefail
index=${1:?the index folder (e.g. made by: bin/ragkit index docs --index /tmp/docs-index)}
other=${2:?the jar of the build to compare with}
runs=${3:-10}
launcher=$(cd "$(dirname "$0")/../.." && pwd)/bin/ragkit
question="How are tenants isolated?"
RAGKIT_CDS_DIR=$(mktemp -d)
export RAGKIT_CDS_DIR
trap 'rm -rf "$RAGKIT_CDS_DIR"' EXIT
"$launcher" ask "$question" --index "$index" >/dev/null 2>&1 || true   # writes the archive
millis() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
rounds=$RAGKIT_CDS_DIR/rounds.txt
for _ in $(seq 1 "$runs"); do
  echo "$(millis java -jar "$other" ask "$question" --index "$index")" \
    "$(RAGKIT_CDS=off millis "$launcher" ask "$question" --index "$index")" \
    "$(millis "$launcher" ask "$question" --index "$index")"
done | tee "$rounds"
median() { cut -d ' ' -f "$1" "$rounds" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "median ms: other jar $(median 1), RAGKIT_CDS=off $(median 2), with CDS $(median 3)"
