cd /work/main
for r in 1 2 3; do
  date -u +"run$r start %H:%M:%S" >> /tmp/m70n/times.txt
  /tmp/m70n/xtask bench --engine /tmp/m70n/eldest --set game --movetime 70 --threads 1,2 --repeat 10 --hash 64 --algorithms abdada,simplified-abdada,ybwc,lazy --out /tmp/m70n/run$r > /tmp/m70n/run$r-terminal.txt 2>&1
done
date -u +"end %H:%M:%S" >> /tmp/m70n/times.txt
