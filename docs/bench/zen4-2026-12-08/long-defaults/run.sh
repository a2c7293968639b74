cd /work/main
date -u +"start %H:%M:%S" >> /tmp/long5/times.txt
/tmp/long5/xtask bench --engine /tmp/long5/eldest --set long --threads 1,2 --repeat 5 --hash 64 --algorithms ybwc,abdada,simplified-abdada --interleave positions --out /tmp/long5/long > /tmp/long5/long-terminal.txt 2>&1
echo "exit $?" >> /tmp/long5/times.txt
date -u +"end %H:%M:%S" >> /tmp/long5/times.txt
