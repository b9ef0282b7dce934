#!/usr/bin/env bash
# A deliberately faulty engine for the match runner's tests.
# Usage: faulty_engine.sh illegal|crash|slow
mode="$1"
while IFS= read -r line; do
  case "$line" in
    ugi|uci) echo "id name faulty-$mode"; echo "ugiok" ;;
    isready) echo "readyok" ;;
    go*)
      case "$mode" in
        illegal) echo "bestmove 1-2" ;;
        crash) exit 3 ;;
        slow) sleep 5; echo "bestmove (none)" ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
