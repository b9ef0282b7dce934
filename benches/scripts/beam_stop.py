#!/usr/bin/env python3
"""How late a 100,000-wide solitaire beam answers its deadline and `stop`.

usage: beam_stop.py DAMAS_BINARY

One process, Chinese checkers with one player, `BeamWidth 100000`,
`MoveOverhead 0`: `go movetime 200` twice and `go movetime 500`, timed
from `go` to `bestmove`; then `go infinite` and `stop` after 50, 300,
1000 and 3000 ms, timed from `stop` to `bestmove`.
Example (docs/PERFORMANCE.md, "Solitaire"):
  beam_stop.py target/release/damas
"""
exe=sys.argv[1]
p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(l): p.stdin.write(l+"\n"); p.stdin.flush()
def until(pre):
    while True:
        l=p.stdout.readline()
        if l.startswith(pre): return l
send("setoption name Game value chinese"); send("setoption name Players value 1"); send("setoption name BeamWidth value 100000"); send("setoption name MoveOverhead value 0")
send("isready"); until("readyok")
res=[]
for mt in [200, 200, 500]:
    send("position startpos"); t=time.perf_counter(); send(f"go movetime {mt}"); until("bestmove"); res.append(f"movetime {mt}: {(time.perf_counter()-t)*1000:.0f}")
for wait in [0.05, 0.3, 1.0, 3.0]:
    send("position startpos"); send("go infinite"); time.sleep(wait); t=time.perf_counter(); send("stop"); until("bestmove"); res.append(f"stop after {wait*1000:.0f}: {(time.perf_counter()-t)*1000:.1f}")
print("; ".join(res)); send("quit")
