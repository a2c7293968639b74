import csv, math, statistics as st, sys
root = sys.argv[1]
passes = ['call1-pass1', 'call1-pass2', 'call2-pass1', 'call2-pass2']
data = {}
for i, p in enumerate(passes):
    for r in csv.DictReader(open(f'{root}/{p}/positions.csv')):
        if r['threads'] == '16':
            data.setdefault(r['algorithm'], {})[(i, int(r['index']))] = float(r['time_ms_median']), float(r['nodes_median'])
T = 2.201  # Student's t, 11 degrees of freedom, 95%
for ref, alts in [('ybwc', ['ybwc --min-split-depth 6', 'ybwc --min-split-depth 7', 'ybwc --split-group 5', 'ybwc --split-group 8']),
                  ('abdada', ['abdada --abdada-pv-ancestor-checks false']),
                  ('simplified-abdada', ['simplified-abdada --cs-rows-by-node false'])]:
    for a in alts:
        for what, k in [('time', 0), ('nodes', 1)]:
            logs = []
            for j in range(12):
                runs = [i for i in range(4) if (i, j) in data[a]]
                logs.append(sum(math.log(data[a][(i, j)][k] / data[ref][(i, j)][k]) for i in runs) / len(runs))
            m, s = st.mean(logs), st.stdev(logs) / math.sqrt(len(logs))
            print(f'{a:44s} {what:5s} x {ref:18s} {math.exp(m):.2f} ({math.exp(m - T * s):.2f}-{math.exp(m + T * s):.2f})  passes {len(runs)}')
