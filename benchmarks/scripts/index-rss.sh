#!/bin/bash
# usage: index-rss.sh <folder> <label> <jar> [java opts...]  (from the folder that holds it, with benchmarks.jar as bench.jar)
# Runs `ragkit index <folder>` against HashEmbeddingServer (an Ollama stand-in) and samples, every 2 s, VmHWM, VmRSS,
# RssAnon and RssFile of the indexing JVM, and every 10 s the resident pages of the index's files by type (smaps).
# Writes rss-<label>.log, smaps-<label>.log, err-<label>.log (time-stamped progress lines), out-<label>.log.
folder=$1; shift; label=$1; shift; jar=$1; shift
rm -rf index-$label
java -cp bench.jar dev.ragkit.benchmarks.HashEmbeddingServer 11435 384 > server-$label.out 2>&1 &
srv=$!
sleep 2
start=$(date +%s.%N)
OLLAMA_BASE_URL=http://127.0.0.1:11435 java "$@" -jar $jar index "$folder" --index index-$label --embedder ollama:hash --chunk-tokens 200 \
  2> >(while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done > err-$label.log) > out-$label.log &
pid=$!
sleep 1
jpid=$(pgrep -f "index-$label" | grep -v "^$$\$" | head -1)
echo "java pid $jpid"
n=0
while kill -0 $pid 2>/dev/null; do
  if [ -r /proc/$jpid/status ]; then
    printf '%s %s\n' "$(date +%s.%N)" "$(grep -E 'VmRSS|RssAnon|RssFile|VmHWM' /proc/$jpid/status | tr -s ' \n' ' ')" >> rss-$label.log
    n=$((n+1))
    if [ $((n % 5)) = 0 ]; then
      awk -v t="$(date +%s)" '/^[0-9a-f]+-[0-9a-f]+ /{f=$6} /^Rss:/{ if (f ~ /index/) { n=f; sub(/.*\//,"",n); e=n; sub(/^[^.]*\./,"",e); if (n ~ /tmp/) e="tmp:" e; r[e]+=$2 } } END{ s=t; for (k in r) if (r[k] > 10240) s=s " " k "=" int(r[k]/1024) "M"; print s }' /proc/$jpid/smaps >> smaps-$label.log 2>/dev/null
    fi
  fi
  sleep 2
done
wait $pid; echo "exit $?" >> out-$label.log
end=$(date +%s.%N)
echo "start $start end $end" >> out-$label.log
kill $srv
