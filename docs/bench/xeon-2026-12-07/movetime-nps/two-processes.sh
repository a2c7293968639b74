E=/tmp/eldest-kinds
for i in $(seq 1 10); do
  a=$($E bench --set game --movetime 70 --hash 64 2>/dev/null | tail -1)
  $E bench --set game --movetime 70 --hash 64 2>/dev/null | tail -1 > /tmp/kinds/p1 &
  $E bench --set game --movetime 70 --hash 64 2>/dev/null | tail -1 > /tmp/kinds/p2 &
  wait
  echo "$i alone: $a | pair: $(cat /tmp/kinds/p1) + $(cat /tmp/kinds/p2)"
done
