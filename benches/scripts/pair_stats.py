#!/usr/bin/env python3
"""Pair statistics over `damas match --out` PDN files of two engines.

A match of two engines plays each opening twice with the colours swapped
(games 2k-1 and 2k of a file, by their `Round` tags); a long match is run
in chunks, one seed a chunk, each into its own file. This script adds the
chunks up the way `damas match` counts one run: the pentanomial of the
pairs, the Elo of the first engine (e1) with its 95% interval, and the
log-likelihood ratio of an SPRT (generalised, normal approximation over
pairs, as in cli/src/matches/stats.rs and fishtest).

    python3 benches/scripts/pair_stats.py --sprt 0,10,0.05,0.05 a.pdn b.pdn

Only whole pairs count; a pair cut short by an interruption is left out.
"""

import argparse
import math
import re
import sys


def games_of(path):
    """(round, e1 points) of each game in a PDN file."""
    text = open(path, encoding="utf-8").read()
    games = []
    for block in text.split('[Event "')[1:]:
        rnd = re.search(r'\[Round "(\d+)"\]', block)
        white = re.search(r'\[White "(e\d)', block)
        result = re.search(r'\[Result "([^"]+)"\]', block)
        if not (rnd and white and result):
            sys.exit(f"{path}: a game without Round, White or Result")
        white_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result.group(1))
        if white_points is None:
            continue  # unfinished
        e1 = white_points if white.group(1) == "e1" else 1.0 - white_points
        games.append((int(rnd.group(1)), e1))
    return games


def elo(score):
    return -400.0 * math.log10(1.0 / score - 1.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--sprt", help="elo0,elo1,alpha,beta")
    args = parser.parse_args()
    penta = [0] * 5
    wins = draws = losses = 0
    for path in args.files:
        by_round = dict(games_of(path))
        for rnd, points in by_round.items():
            if rnd % 2 == 1 and rnd + 1 in by_round:
                penta[int(round(2 * (points + by_round[rnd + 1])))] += 1
            if rnd % 2 == 1 and rnd + 1 not in by_round:
                continue
            if rnd % 2 == 0 and rnd - 1 not in by_round:
                continue
            wins += points == 1.0
            draws += points == 0.5
            losses += points == 0.0
    pairs = sum(penta)
    print(f"games {2 * pairs}: e1 +{wins} ={draws} -{losses}; pairs 0/½/1/1½/2: {' '.join(map(str, penta))}")
    if pairs < 4:
        print("too few pairs")
        return
    mean = sum(c * i / 4 for i, c in enumerate(penta)) / pairs
    var = sum(c * (i / 4 - mean) ** 2 for i, c in enumerate(penta)) / pairs
    # Every pair alike: another result has a chance of at most 3/pairs (the
    # rule of three, as `damas match` bounds it).
    half = 1.96 * math.sqrt(var / pairs) if var > 0 else 3 / pairs * max(mean, 1 - mean)
    lo, hi = mean - half, mean + half
    text = f"Elo {elo(mean):+.1f}" if 0 < mean < 1 else "Elo beyond ±inf"
    if 0 < lo and hi < 1:
        text += f" (95%: {elo(lo):+.1f} to {elo(hi):+.1f})"
    print(text)
    if args.sprt:
        elo0, elo1, alpha, beta = map(float, args.sprt.split(","))
        # Half a pair more in each cell, as `damas match --sprt` adds
        # (SPRT_PRIOR_PAIRS in cli/src/matches/stats.rs).
        reg = [c + 0.5 for c in penta]
        n = sum(reg)
        m = sum(c * i / 4 for i, c in enumerate(reg)) / n
        v = sum(c * (i / 4 - m) ** 2 for i, c in enumerate(reg)) / n
        s0 = 1 / (1 + 10 ** (-elo0 / 400))
        s1 = 1 / (1 + 10 ** (-elo1 / 400))
        llr = pairs * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)
        low, high = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
        verdict = "H1 accepted" if llr >= high else "H0 accepted" if llr <= low else "continue"
        print(f"SPRT ({elo0:g}, {elo1:g}): LLR {llr:.2f} in [{low:.2f}, {high:.2f}]: {verdict}")


if __name__ == "__main__":
    main()
