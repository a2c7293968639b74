import csv, math, statistics as st, sys
# args: label_for_run=path ...   e.g. "abdada --pv-ancestor-checks true=xeon-2026-12-03/pvac-long-r2/positions.csv"
runs = [a.rsplit('=', 1) for a in sys.argv[1:]]
per = {}
for label, path in runs:
    for r in csv.DictReader(open(path)):
        if r['algorithm'] == label and r['threads'] == '2':
            per.setdefault(int(r['index']), []).append((math.log(float(r['speedup'])), math.log(float(r['node_overhead']))))
logs = [sum(x[0] for x in v) / len(v) for v in per.values()]
ovh = [sum(x[1] for x in v) / len(v) for v in per.values()]
m, s = st.mean(logs), st.stdev(logs) / math.sqrt(len(logs))
print(f"{len(per)} positions, {len(runs)} runs: speedup {math.exp(m):.2f} ({math.exp(m-2.201*s):.2f}-{math.exp(m+2.201*s):.2f}), overhead {math.exp(st.mean(ovh)):.2f}")
