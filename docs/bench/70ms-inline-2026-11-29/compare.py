"""Medians, quartiles and a one-sided permutation test of two binaries' two-thread NPS from a repeats.csv
(the first binary named in the file is the old one).

python3 compare.py repeats.csv ybwc            (or abdada/repeats.csv abdada | simplified-abdada, padded/repeats.csv ybwc)
"""
import csv, random, statistics as st, sys

rows = list(csv.DictReader(open(sys.argv[1])))
algorithm = sys.argv[2]
one = st.median(float(r["mnps"]) for r in rows if r["threads"] == "1")
binaries = list(dict.fromkeys(r["binary"] for r in rows))
two = {b: [float(r["mnps"]) for r in rows if r["threads"] == "2" and r["algorithm"] == algorithm and r["binary"] == b]
       for b in binaries}
print(f"one thread, pooled median {one:.3f} M nodes/s")
for b, v in two.items():
    q = st.quantiles(v, n=4)
    print(f"{b}: n={len(v)} median {st.median(v):.3f} (quartiles {q[0]:.3f}-{q[2]:.3f}) NPS x {st.median(v) / one:.3f}")
old, new = two[binaries[0]], two[binaries[1]]
def u(x, y):
    return sum((a > b) + 0.5 * (a == b) for a in x for b in y)
observed, pooled, hits, draws = u(new, old), old + new, 0, 5000
random.seed(1)
for _ in range(draws):
    random.shuffle(pooled)
    hits += u(pooled[len(old):], pooled[:len(old)]) >= observed
print(f"P(new repeat > old repeat) = {observed / (len(old) * len(new)):.3f}, one-sided permutation p = {hits / draws:.4f}")
