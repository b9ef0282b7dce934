#!/usr/bin/env python3
"""An independent Brazilian draughts perft (the international rules on the
8x8 board), written plainly on (row, file) coordinates, to check the
engine's bitboard generator against a second count.

Rules: men step forward and capture forward and backward; kings fly and
capture at distance; capturing is compulsory and the capture must take the
most pieces (kings count as pieces, no tie-break); captured pieces leave the
board only when the move ends (no piece is jumped twice); a man is crowned
only when the move ends on its last row (one crossing it mid-capture goes on
as a man). A move is its (from, to, set of captured squares): two paths
giving the same are one move.

Usage: brazilian_perft.py FEN DEPTH   (FEN as W:W1-12:B21-32, square 1 at h1)
"""
import sys

DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def square_rc(n):
    r, k = (n - 1) // 4, (n - 1) % 4
    return r, 7 - 2 * k - (r % 2)


def parse_fen(fen):
    side, *parts = fen.split(":")
    board = {}
    for part in parts:
        color = part[0]
        for item in filter(None, part[1:].split(",")):
            king = item.startswith("K")
            item = item.lstrip("K")
            if "-" in item:
                a, b = map(int, item.split("-"))
                numbers = range(a, b + 1)
            else:
                numbers = [int(item)]
            for n in numbers:
                board[square_rc(n)] = (color, king)
    return board, side


def on(r, c):
    return 0 <= r < 8 and 0 <= c < 8


def captures_from(board, side, start, king):
    """Every (to, captured frozenset) of a capture by the piece on start."""
    found = []
    forward = 1 if side == "W" else -1

    def walk(at, taken, is_king):
        extended = False
        for dr, dc in DIRS:
            if is_king:
                r, c = at[0] + dr, at[1] + dc
                while on(r, c) and (r, c) not in board:
                    r, c = r + dr, c + dc
                if not on(r, c) or (r, c) in taken or board[(r, c)][0] == side:
                    continue
                victim = (r, c)
                r, c = r + dr, c + dc
                while on(r, c) and (r, c) not in board:
                    extended = True
                    walk((r, c), taken | {victim}, True)
                    r, c = r + dr, c + dc
            else:
                victim = (at[0] + dr, at[1] + dc)
                land = (at[0] + 2 * dr, at[1] + 2 * dc)
                if (
                    on(*land)
                    and land not in board
                    and victim in board
                    and victim not in taken
                    and board[victim][0] != side
                ):
                    extended = True
                    walk(land, taken | {victim}, False)
        if not extended and taken:
            found.append((at, frozenset(taken)))

    del_piece = board.pop(start)
    walk(start, frozenset(), king)
    board[start] = del_piece
    del forward
    return found


def moves(board, side):
    caps = set()
    for sq, (color, king) in list(board.items()):
        if color == side:
            for to, taken in captures_from(board, side, sq, king):
                caps.add((sq, to, taken))
    if caps:
        most = max(len(t) for _, _, t in caps)
        return [m for m in caps if len(m[2]) == most]
    quiet = []
    forward = 1 if side == "W" else -1
    for (r, c), (color, king) in board.items():
        if color != side:
            continue
        if king:
            for dr, dc in DIRS:
                rr, cc = r + dr, c + dc
                while on(rr, cc) and (rr, cc) not in board:
                    quiet.append(((r, c), (rr, cc), frozenset()))
                    rr, cc = rr + dr, cc + dc
        else:
            for dc in (1, -1):
                to = (r + forward, c + dc)
                if on(*to) and to not in board:
                    quiet.append(((r, c), to, frozenset()))
    return quiet


def play(board, side, move):
    start, to, taken = move
    b = dict(board)
    color, king = b.pop(start)
    for t in taken:
        del b[t]
    last = 7 if side == "W" else 0
    b[to] = (color, king or to[0] == last)
    return b, "B" if side == "W" else "W"


def perft(board, side, depth):
    ms = moves(board, side)
    if depth == 1:
        return len(ms)
    return sum(perft(*play(board, side, m), depth - 1) for m in ms)


if __name__ == "__main__":
    board, side = parse_fen(sys.argv[1])
    for d in range(1, int(sys.argv[2]) + 1):
        print(d, perft(board, side, d), flush=True)
