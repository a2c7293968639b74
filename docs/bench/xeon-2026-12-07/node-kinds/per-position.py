import json, sys, math, statistics as st
# Per-position geometric means of counter ratios 2T/1T, and rates.
d = json.load(open(sys.argv[1]))
runs = d['runs']
base = {}
for r in runs:
    if r['threads'] == 1:
        for p in r['positions']:
            base.setdefault(p['index'], []).append(p)
K = ['PV', 'cut', 'all']
def feats(p):
    f = {'nodes': p['nodes'], 'main': p['main_nodes'], 'tt_cut': p['table_cutoffs']}
    for i, k in enumerate(K):
        f[k] = p['move_loops'][i]
        f[k + '_fh'] = p['move_loop_fail_highs'][i]
        f[k + '_mv'] = p['move_loop_moves'][i]
    f['other'] = p['main_nodes'] - p['table_cutoffs'] - sum(p['move_loops'])
    return f
def mean_feats(ps):
    fs = [feats(p) for p in ps]
    return {k: sum(f[k] for f in fs) / len(fs) for k in fs[0]}
cfgs = sorted({(r['algorithm'], r['threads']) for r in runs if r['threads'] > 1})
b = {i: mean_feats(ps) for i, ps in base.items()}
def show(label, f, g=None):
    print(label)
rows = []
for cfg in [('1T', 1)] + cfgs:
    if cfg[1] == 1:
        per = b
    else:
        acc = {}
        for r in runs:
            if (r['algorithm'], r['threads']) == cfg:
                for p in r['positions']:
                    acc.setdefault(p['index'], []).append(p)
        per = {i: mean_feats(ps) for i, ps in acc.items()}
    idx = sorted(per)
    tot = {k: sum(per[i][k] for i in idx) for k in per[idx[0]]}
    def gm(k):
        v = [math.log(per[i][k] / b[i][k]) for i in idx if per[i][k] > 0 and b[i][k] > 0]
        return math.exp(sum(v) / len(v))
    line = f"{cfg[0]:18s}"
    line += f" nodes×{gm('nodes'):.3f} main×{gm('main'):.3f} ttcut×{gm('tt_cut'):.3f} ttcut‰{1000*tot['tt_cut']/tot['main']:.1f} other‰{1000*tot['other']/tot['main']:.1f} other×{gm('other'):.3f}"
    for k in K:
        line += f" | {k}×{gm(k):.3f} fh{100*tot[k+'_fh']/tot[k]:.1f}% mv{tot[k+'_mv']/tot[k]:.2f} share{100*tot[k]/tot['main']:.1f}%"
    print(line)
    # per-position fail-high rate differences for cut/all
    if cfg[1] > 1:
        for k in ['cut', 'all']:
            dif = [per[i][k+'_fh']/per[i][k] - b[i][k+'_fh']/b[i][k] for i in idx]
            mvr = [math.log((per[i][k+'_mv']/per[i][k]) / (b[i][k+'_mv']/b[i][k])) for i in idx]
            print(f"    {k}: fail-high rate diff mean {100*st.mean(dif):+.2f} pts (sd {100*st.stdev(dif):.2f}); moves/node × {math.exp(st.mean(mvr)):.3f}")
