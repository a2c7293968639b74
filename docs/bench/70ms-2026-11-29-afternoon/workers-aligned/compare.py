import json,glob,statistics as st,sys
d=sys.argv[1]; bins=sys.argv[2:]
for alg in ('lazy','simplified-abdada'):
    res={}
    for b in bins:
        for t in (1,2):
            v=[]
            for f in sorted(glob.glob(f'{d}/{b}-*/bench.json')):
                for r in json.load(open(f))['runs']:
                    if r['threads']==t and (t==1 or r['algorithm']==alg):
                        v.append(sum(p['nodes'] for p in r['positions'])/sum(p['time_us'] for p in r['positions']))
            res[(b,t)]=v
    one=st.median([x for b in bins for x in res[(b,1)]])
    print(alg,'1T %.3f'%one, ' '.join('%s 2T n=%d median %.3f NPSx %.3f'%(b,len(res[(b,2)]),st.median(res[(b,2)]),st.median(res[(b,2)])/one) for b in bins))
