"""A small pure-Python Chinese checkers for two players, the benchmark's
pure-Python comparison: the star's 121 points in cube coordinates, steps to
a free neighbour and chains of single jumps over an adjacent piece, each
(from, to) once; a player finishes with all ten pieces in the opposite
triangle. The game ends at a finisher, after 200 rounds, or after 30 rounds
in which neither player improved its pieces in goal or its total distance
(the library's default limits; its anti-blocking rule is left out).
"""

import random

DIRECTIONS = [(1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1)]


def _star():
    cells = []
    for q in range(-8, 9):
        for r in range(-8, 9):
            s = -q - r
            if min(q, r, s) >= -4 or max(q, r, s) <= 4:
                cells.append((q, r, s))
    return cells


CELLS = _star()
INDEX = {cell: i for i, cell in enumerate(CELLS)}
NEIGHBOURS = []
JUMPS = []
for q, r, s in CELLS:
    NEIGHBOURS.append([INDEX[c] for c in ((q + a, r + b, s + c) for a, b, c in DIRECTIONS) if c in INDEX])
    JUMPS.append([
        (INDEX[(q + a, r + b, s + c)], INDEX[(q + 2 * a, r + 2 * b, s + 2 * c)])
        for a, b, c in DIRECTIONS
        if (q + 2 * a, r + 2 * b, s + 2 * c) in INDEX
    ])
CAMPS = [[i for i, (q, r, s) in enumerate(CELLS) if r > 4], [i for i, (q, r, s) in enumerate(CELLS) if r < -4]]
GOALS = [CAMPS[1], CAMPS[0]]
# Distance to the far tip of the goal, in steps.
TIPS = [INDEX[(4, -8, 4)], INDEX[(-4, 8, -4)]]
DISTANCE = [
    [max(abs(q - CELLS[t][0]), abs(r - CELLS[t][1]), abs(s - CELLS[t][2])) for q, r, s in CELLS]
    for t in TIPS
]


def legal_moves(board, pieces, mark):
    moves = []
    for start in pieces:
        seen = {start}
        for n in NEIGHBOURS[start]:
            if board[n] == 0:
                seen.add(n)
                moves.append((start, n))
        frontier = [start]
        board[start] = 0
        visited = {start}
        while frontier:
            cell = frontier.pop()
            for mid, land in JUMPS[cell]:
                if board[mid] and not board[land] and land not in visited:
                    visited.add(land)
                    frontier.append(land)
                    if land not in seen:
                        seen.add(land)
                        moves.append((start, land))
        board[start] = mark
    return moves


def playout(rng):
    """Plays one random game; returns its plies."""
    board = [0] * len(CELLS)
    pieces = [set(CAMPS[0]), set(CAMPS[1])]
    for p in (0, 1):
        for cell in pieces[p]:
            board[cell] = p + 1
    best = [(0, sum(DISTANCE[p][c] for c in pieces[p])) for p in (0, 1)]
    quiet = 0
    plies = 0
    for _round in range(200):
        improved = False
        for p in (0, 1):
            moves = legal_moves(board, pieces[p], p + 1)
            plies += 1
            if not moves:
                continue
            start, end = moves[int(rng.random() * len(moves))]
            board[start] = 0
            board[end] = p + 1
            pieces[p].remove(start)
            pieces[p].add(end)
            in_goal = sum(1 for c in GOALS[p] if board[c] == p + 1)
            if in_goal == 10:
                return plies
            distance = sum(DISTANCE[p][c] for c in pieces[p])
            if in_goal > best[p][0] or distance < best[p][1]:
                best[p] = (max(in_goal, best[p][0]), min(distance, best[p][1]))
                improved = True
        quiet = 0 if improved else quiet + 1
        if quiet >= 30:
            break
    return plies


if __name__ == "__main__":
    print(playout(random.Random(1)))
