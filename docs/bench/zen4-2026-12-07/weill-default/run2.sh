#!/usr/bin/env bash
# Second pass: the same two configurations and simplified ABDADA beside them, as a reference for the VM's state.
set -u
cd /work/main
OUT=/tmp/wd/out
echo "long2 start $(date -u +%H:%M:%S)" >> $OUT/times.txt
/tmp/wd/xtask bench --engine /tmp/wd/eldest --set long --threads 1,2 --repeat 1 --hash 64 \
   --algorithms abdada,simplified-abdada --variant "abdada --abdada-min-depth 3" --interleave positions --out $OUT/long2 > $OUT/long2.terminal.txt 2>&1
echo "long2 end $(date -u +%H:%M:%S) rc $?" >> $OUT/times.txt
echo "game2 start $(date -u +%H:%M:%S)" >> $OUT/times.txt
/tmp/wd/xtask bench --engine /tmp/wd/eldest --set game --depth 23 --threads 1,2 --repeat 1 --hash 64 \
   --algorithms abdada,simplified-abdada --variant "abdada --abdada-min-depth 3" --out $OUT/game2 > $OUT/game2.terminal.txt 2>&1
echo "game2 end $(date -u +%H:%M:%S) rc $?" >> $OUT/times.txt
