"""The lent 16-vCPU Xeon of 2026-12-06: pass 1 of tools/bench/scaling.sh (1 and 16 threads, depth 20) and the
second call's `eldest bench --json` runs (16 and 8 threads, no 1-thread run of its own) against pass 1's 1-thread
baseline. Prints time to depth (geometric mean over the 24 positions of each position's 1-thread time over its
runs' mean log time, 95% interval over the positions, and the whole set's total-time ratio), node overhead and
NPS x, then knob values against their algorithm's default position by position.

    python3 combine.py docs/bench/16core-2026-12-06
"""
import gzip, json, math, statistics as st, sys

root = sys.argv[1]
bench = json.load(gzip.open(f"{root}/pass1/bench.json.gz"))
runs = {}  # configuration -> list of runs, each a list of (time_us, nodes) by position index


def label(run):
    return run.get('variant') or run['algorithm']


for run in bench['runs']:
    key = 'serial' if run['threads'] == 1 else f"{label(run)} @{run['threads']}"
    if key == 'serial' and 'serial' in runs:
        continue  # one 1-thread run serves every algorithm (the same tree)
    runs.setdefault(key, []).append([(p['time_us'], p['nodes']) for p in run['positions']])
for name, key in [('ybwc16', 'ybwc @16'), ('abdada16', 'abdada @16'), ('simp16', 'simplified-abdada @16'),
                  ('ybwc16msd8', 'ybwc --min-split-depth 8 @16'), ('ybwc8', 'ybwc @8'),
                  ('abdada8', 'abdada @8'), ('simp8', 'simplified-abdada @8')]:
    lines = [json.loads(l) for l in open(f'{root}/call2/{name}.jsonl') if l.startswith('{') and '"index"' in l]
    runs.setdefault(key, []).append([(p['time_us'], p['nodes']) for p in lines])

serial = runs.pop('serial')[0]
n = len(serial)
T = st.NormalDist().inv_cdf(0.975) if n > 30 else {24: 2.069, 23: 2.074}[n]


def per_position(key, k):
    return [st.mean(math.log(r[j][k]) for r in runs[key]) for j in range(n)]


def interval(logs):
    m, s = st.mean(logs), st.stdev(logs) / math.sqrt(len(logs))
    return math.exp(m), math.exp(m - T * s), math.exp(m + T * s)


print(f"{'configuration':32s} runs  time to depth (95%)   set    overhead  NPS x")
for key in sorted(runs, key=lambda k: (int(k.split('@')[1]), k)):
    t = [math.log(serial[j][0]) - x for j, x in enumerate(per_position(key, 0))]
    nodes = [x - math.log(serial[j][1]) for j, x in enumerate(per_position(key, 1))]
    g, lo, hi = interval(t)
    total1 = sum(s[0] for s in serial)
    totaln = st.mean(sum(p[0] for p in r) for r in runs[key])
    nodes_total = st.mean(sum(p[1] for p in r) for r in runs[key]) / sum(s[1] for s in serial)
    print(f"{key:32s} {len(runs[key]):4d}  {g:5.2f} ({lo:.2f}-{hi:.2f})  {total1 / totaln:5.2f}  "
          f"{math.exp(st.mean(nodes)):5.2f}    {nodes_total * total1 / totaln:5.2f}")
print()
for ref, alt in [('ybwc @16', 'ybwc --min-split-depth 8 @16'), ('ybwc @16', 'ybwc --window-updates true @16')]:
    for what, k in [('time', 0), ('nodes', 1)]:
        a, b = per_position(alt, k), per_position(ref, k)
        g, lo, hi = interval([x - y for x, y in zip(a, b)])
        print(f"{alt:32s} {what:5s} x {ref}: {g:.2f} ({lo:.2f}-{hi:.2f})")
print()
print('each run alone (time to depth, geometric mean over the positions):')
for key in sorted(runs, key=lambda k: (int(k.split('@')[1]), k)):
    each = [math.exp(st.mean(math.log(serial[j][0] / r[j][0]) for j in range(n))) for r in runs[key]]
    print(f"{key:32s} " + ', '.join(f'{x:.2f}' for x in each))
