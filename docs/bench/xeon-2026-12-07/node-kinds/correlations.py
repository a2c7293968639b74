import json, sys, math, statistics as st
d = json.load(open(sys.argv[1]))
runs = d['runs']
def group(cond):
    acc = {}
    for r in runs:
        if cond(r):
            for p in r['positions']:
                acc.setdefault(p['index'], []).append(p)
    return acc
base = group(lambda r: r['threads'] == 1)
def avg(ps, f): return sum(f(p) for p in ps) / len(ps)
fh = lambda k: (lambda p: p['move_loop_fail_highs'][k] / p['move_loops'][k])
mv = lambda k: (lambda p: p['move_loop_moves'][k] / p['move_loops'][k])
for alg in sorted({r['algorithm'] for r in runs}):
    two = group(lambda r: r['threads'] == 2 and r['algorithm'] == alg)
    idx = sorted(two)
    ov = [math.log(avg(two[i], lambda p: p['nodes']) / avg(base[i], lambda p: p['nodes'])) for i in idx]
    cut = [avg(two[i], fh(1)) - avg(base[i], fh(1)) for i in idx]
    al = [avg(two[i], fh(2)) - avg(base[i], fh(2)) for i in idx]
    cm = [math.log(avg(two[i], mv(1)) / avg(base[i], mv(1))) for i in idx]
    tt = [math.log(avg(two[i], lambda p: p['table_cutoffs']/p['main_nodes']) / avg(base[i], lambda p: p['table_cutoffs']/p['main_nodes'])) for i in idx]
    print(f"{alg:18s} corr(overhead, cut fail-high diff) {st.correlation(ov, cut):+.2f}  corr(ov, all fh diff) {st.correlation(ov, al):+.2f}  corr(ov, cut moves×) {st.correlation(ov, cm):+.2f} corr(ov, tt-cut rate×) {st.correlation(ov, tt):+.2f}")
    # Also within the 1T baseline: repeats identical so skip
