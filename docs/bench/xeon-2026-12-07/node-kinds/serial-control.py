import json, sys, math, statistics as st
# A one-thread search at another table size against the one-thread search at 64 MiB, the way an.py sets the
# two-thread searches against it: whole-set sums and per-position shifts.
def positions(path, threads):
    d = json.load(open(path)); acc = {}
    for r in d['runs']:
        if r['threads'] == threads:
            for p in r['positions']: acc.setdefault(p['index'], []).append(p)
    return acc
base = positions(sys.argv[1], 1)
avg = lambda ps, f: sum(f(p) for p in ps) / len(ps)
fh = lambda k: (lambda p: p['move_loop_fail_highs'][k] / p['move_loops'][k])
mv = lambda k: (lambda p: p['move_loop_moves'][k] / p['move_loops'][k])
for label, path in zip(sys.argv[2::2], sys.argv[3::2]):
    other = positions(path, 1)
    idx = sorted(other)
    tot = lambda ps_by, key: sum(sum(key(p) for p in ps_by[i]) / len(ps_by[i]) for i in idx)
    ov = [math.log(avg(other[i], lambda p: p['nodes']) / avg(base[i], lambda p: p['nodes'])) for i in idx]
    line = f"{label:10s} nodes× per position {math.exp(st.mean(ov)):.3f} (sd of log {st.stdev(ov):.3f}), whole set {tot(other, lambda p: p['nodes'])/tot(base, lambda p: p['nodes']):.3f}"
    line += f"; table cutoffs ‰ {1000*tot(other, lambda p: p['table_cutoffs'])/tot(other, lambda p: p['main_nodes']):.1f}"
    for k, name in [(1, 'cut'), (2, 'all')]:
        shift = [avg(other[i], fh(k)) - avg(base[i], fh(k)) for i in idx]
        mr = [math.log(avg(other[i], mv(k)) / avg(base[i], mv(k))) for i in idx]
        whole = tot(other, lambda p: p['move_loop_fail_highs'][k]) / tot(other, lambda p: p['move_loops'][k])
        wmv = tot(other, lambda p: p['move_loop_moves'][k]) / tot(other, lambda p: p['move_loops'][k])
        line += f" | {name}: failed high {100*whole:.1f}% (shift per position {100*st.mean(shift):+.2f} pts, sd {100*st.stdev(shift):.2f}), moves {wmv:.2f} (× {math.exp(st.mean(mr)):.3f})"
        print(f"   {name} corr(nodes×, shift) {st.correlation(ov, shift):+.2f}")
    print(line)
