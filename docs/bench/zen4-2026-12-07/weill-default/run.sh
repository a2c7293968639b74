#!/usr/bin/env bash
# Weill's ABDADA at its default (AbdadaMinDepth 1) against AbdadaMinDepth 3, long set depth 22 and game set depth 23, 64 MiB.
set -u
cd /work/main
OUT=/tmp/wd/out
mkdir -p $OUT
for pass in 1 2; do
  echo "long$pass start $(date -u +%H:%M:%S)" >> $OUT/times.txt
  /tmp/wd/xtask bench --engine /tmp/wd/eldest --set long --threads 1,2 --repeat 1 --hash 64 \
     --algorithms abdada --variant "abdada --abdada-min-depth 3" --interleave positions --out $OUT/long$pass > $OUT/long$pass.terminal.txt 2>&1
  echo "long$pass end $(date -u +%H:%M:%S) rc $?" >> $OUT/times.txt
  echo "game$pass start $(date -u +%H:%M:%S)" >> $OUT/times.txt
  /tmp/wd/xtask bench --engine /tmp/wd/eldest --set game --depth 23 --threads 1,2 --repeat 1 --hash 64 \
     --algorithms abdada --variant "abdada --abdada-min-depth 3" --out $OUT/game$pass > $OUT/game$pass.terminal.txt 2>&1
  echo "game$pass end $(date -u +%H:%M:%S) rc $?" >> $OUT/times.txt
done
