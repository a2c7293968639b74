import sys, re, glob
tot_thread=0; tot_stale=0; fails=0; nwin=0; diffwin=0
for f in sorted(glob.glob(sys.argv[1]+"/*.log"), key=lambda x:int(x.split('/')[-1][:-4])):
    recs=[]
    for line in open(f):
        if 'rootwin' not in line: continue
        kv=dict(re.findall(r'(\w+)=(-?\w+)', line))
        recs.append({k:(int(v) if re.fullmatch(r'-?\d+',v) else v) for k,v in kv.items()})
    if not recs: continue
    end=max(r['end'] for r in recs)
    thread_time=sum(r['end']-r['start'] for r in recs)
    stale=0
    for x in recs:
        if x['stopped']=='true': continue
        if x['score']>=x['beta']: kind='hi'
        elif x['score']<=x['alpha']: kind='lo'
        else: continue
        fails+=1
        for y in recs:
            if y['thread']==x['thread'] or y['depth']!=x['depth']: continue
            if y['end']<=x['end']: continue
            if kind=='hi' and y['beta']<=x['score'] or kind=='lo' and y['alpha']>=x['score']:
                stale+= y['end']-max(y['start'],x['end'])
    # windows per depth per thread
    by={}
    for r in recs: by.setdefault((r['depth'],r['thread']),[]).append((r['alpha'],r['beta']))
    for d in set(k[0] for k in by):
        ws=[tuple(by.get((d,t),[])) for t in (0,1)]
        nwin+=1; diffwin+= ws[0]!=ws[1]
    tot_thread+=thread_time; tot_stale+=stale
    print(f"{f.split('/')[-1]:8} wall {end/1e6:6.2f}s stale {stale/1e6:6.2f}s of thread {thread_time/1e6:6.2f}s ({100*stale/max(thread_time,1):4.1f}%)")
print(f"total stale {100*tot_stale/tot_thread:.1f}% of thread time; failed windows {fails}; depths where the two threads' window sequences differ {diffwin}/{nwin}")
