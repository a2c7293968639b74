import subprocess, sys, json, os
eng, alg, threads, depth, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
fens = [l.strip() for l in open(sys.argv[6]) if l.strip()]
os.makedirs(out, exist_ok=True)
for i, fen in enumerate(fens):
    err = open(f"{out}/{i}.log", "w")
    p = subprocess.Popen([eng], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True,
                         env=dict(os.environ, RUST_LOG="rootwin=debug"))
    def send(c): p.stdin.write(c + "\n"); p.stdin.flush()
    send("uci"); send("setoption name Hash value 64"); send(f"setoption name Threads value {threads}")
    send(f"setoption name ParallelAlgorithm value {alg}"); send("isready")
    for line in p.stdout:
        if line.startswith("readyok"): break
    send(f"position fen {fen}"); send(f"go depth {depth}")
    last = None
    for line in p.stdout:
        if line.startswith("info depth"): last = line
        if line.startswith("bestmove"): break
    send("quit"); p.wait(); err.close()
    t = last.split(" time ")[1].split()[0]
    print(i, t, line.strip(), flush=True)
