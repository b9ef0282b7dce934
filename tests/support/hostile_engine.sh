#!/usr/bin/env bash
# Faulty and hostile engines for the match runner's tests
# (tests/match_runner.rs, tests/match_hostile.rs).
# Usage: hostile_engine.sh MODE [DAMAS] [PIDFILE]
#   illegal    answers every go with an illegal move
#   crash      exits on go
#   slow       answers after 5 s
#   hang       answers the handshake, never a bestmove
#   flood      prints info lines without end instead of a bestmove
#   nonewline  prints bytes without end and never a line end
#   deaf       stops reading its input after the handshake and answers nothing
#   exit       exits at once, before reading anything (a message on stderr)
#   nonutf8    the real engine DAMAS, with a non-UTF-8 line before each of its lines
#   wrapper    the real engine DAMAS as a child (not exec'd), plus a sleeping
#              grandchild whose pid goes to PIDFILE
#   tee        the real engine DAMAS, its input copied to the file PIDFILE
mode="$1"
damas="$2"
case "$mode" in
  exit)
    echo "cannot load the evaluation file" >&2
    exit 2 ;;
  nonutf8)
    "$damas" | while IFS= read -r line; do
      printf 'info string \377\376 bytes\n'
      printf '%s\n' "$line"
    done
    exit 0 ;;
  tee)
    tee -a "$3" | "$damas"
    exit 0 ;;
  wrapper)
    sleep 300 &
    echo "$!" > "$3"
    "$damas"
    exit 0 ;;
esac
while IFS= read -r line; do
  case "$line" in
    ugi|uci) echo "id name hostile-$mode"; echo "ugiok" ;;
    isready) echo "readyok" ;;
    go*)
      case "$mode" in
        illegal) echo "bestmove 1-2" ;;
        crash) exit 3 ;;
        slow) sleep 5; echo "bestmove (none)" ;;
        hang) ;;
        flood) exec yes "info depth 1 score cp 0 nodes 1 pv 11-15" ;;
        nonewline) exec cat /dev/zero ;;
        deaf) exec sleep 300 ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
