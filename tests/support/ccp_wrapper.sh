#!/usr/bin/env bash
# The real engine DAMAS with its CCP answers rewritten, as other CCP
# engines write them (tests/ccp_match.rs).
# Usage: ccp_wrapper.sh MODE DAMAS
#   endpoints  bestmove gives only the two ends of a hop path (4-41)
#   commas     bestmove ids separated by commas (4,15,28)
#   noccp      refuses the ccp command (a UGI-only engine)
mode="$1"
damas="$2"
case "$mode" in
  endpoints)
    "$damas" | sed -u -E 's/^bestmove ([0-9]+)(-[0-9]+)*-([0-9]+)$/bestmove \1-\3/' ;;
  commas)
    "$damas" | sed -u -E '/^bestmove/s/-/,/g' ;;
  noccp)
    while IFS= read -r line; do
      case "$line" in
        ccp) echo "info string error unknown command 'ccp'" ;;
        isready) echo readyok ;;
        quit) exit 0 ;;
      esac
    done ;;
esac
