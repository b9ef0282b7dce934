#!/usr/bin/env python3
"""A blocking player for two-player Chinese checkers, speaking UGI.

It seals its home base (the opponent's goal) with seven pieces: the
three tip pieces leave first, and the seven on the base's two front rows
(j14, k14, l14, m14, k15, l15, m15 for the north side) then move only
when no other piece can. To get the tips out it opens a front-row point
that a tip piece can take or pass through, and refills it from behind,
so the three tip points end empty behind a full seal: the goal is never
full (the anti-blocking rule, which finishes a player whose goal is full
with at least one own piece, never applies) and every way into it runs
over an occupied landing point. Otherwise it plays the move that
advances most towards its own goal, ties broken by a seeded random
choice. No CCERL rule forces a player to leave
home; this bot is the opponent that tests whether a search can still win
against a sealed goal.

It runs on the Python package (`pip install ./python`):

    damas match --game chinese --rule Rules=ccerl \
      --engine target/release/damas \
      --engine ".venv/bin/python benches/scripts/blocking_bot.py" \
      --games 20 --movetime 100 --openings random:4 --seed 5

Options: `Seed` (a whole number) sets the tie-breaking; the game's own
options (`Game`, `Players`, `Rules`, `AntiBlocking`, ...) are passed to
the rules as the match sends them. Only two-player Chinese checkers is
played; anything else is answered with an `info string error` line.
"""

import random
import sys

import damas

# The options that go to the rules (the game and player count are fixed).
RULE_OPTIONS = {"Rules", "AntiBlocking", "MoveLimit"}


def row(point):
    """The row number of a point name such as `k13`."""
    return int(point[1:])


def home_and_seal(me):
    """A player's home base (the points it starts on) and the seven of them
    that seal it: the base's two rows nearest the centre."""
    start = damas.Game("chinese", players=2)
    home = {p for p in start.points() if (start.piece_at(p) or (None,))[0] == me}
    rows = sorted({row(p) for p in home}, reverse=(me == 0))
    return home, {p for p in home if row(p) in rows[:2]}


class Bot:
    # Each seat's home base and seal, read once from the start position.
    HOMES = [home_and_seal(0), home_and_seal(1)]

    def __init__(self):
        self.options = {}
        self.seed = 1
        self.rng = random.Random(self.seed)
        self.game = None

    def new_game(self, position):
        rules = {k: v for k, v in self.options.items() if k in RULE_OPTIONS}
        game = damas.Game("chinese", players=2, rules=rules or None)
        if position is not None:
            game = game.read_position(position)
        return game

    def choose(self, game):
        me = game.to_move
        home, seal = self.HOMES[me]
        tips = home - seal
        moves = list(game.legal_moves())
        if not moves:
            return None
        # Player 0 starts at the south (rows 1-4) and moves north.
        sign = 1 if me == 0 else -1

        def gain(m):
            return sign * (row(m.to) - row(m.from_))

        def mine(point):
            piece = game.piece_at(point)
            return piece is not None and piece[0] == me

        behind = any(mine(p) for p in tips)
        if behind:
            # The tips go out first: refill a seal point from behind, take
            # a tip piece out of home, bring one forward among the tips,
            # or open a seal point that a tip piece can then take.
            refilling = [m for m in moves if m.from_ in tips and m.to in seal]
            leaving = [m for m in moves if m.from_ in tips and m.to not in home]
            advancing = [m for m in moves if m.from_ in tips and m.to in tips and gain(m) > 0]
            # Opening is tried on a copy of the game, so only when nothing
            # above applies.
            pool = (
                refilling
                or leaving
                or advancing
                or [
                    m
                    for m in moves
                    if m.from_ in seal and m.to not in home and self.frees_a_tip(game, m, tips, seal, home)
                ]
            )
        else:
            pool = []
        # Then any piece but the seal's, and the seal only when nothing
        # else can move.
        pool = pool or [m for m in moves if m.from_ not in seal and m.from_ not in tips] or moves
        best = max(gain(m) for m in pool)
        return self.rng.choice([m for m in pool if gain(m) == best])

    @staticmethod
    def frees_a_tip(game, move, tips, seal, home):
        """Whether, after `move` and with the same side to move again, a
        tip piece could refill a seal point or leave home."""
        after = game.copy()
        after.play(move)
        words = after.position.split(" ")
        words[1] = str(game.to_move + 1)
        again = after.read_position(" ".join(words))
        return any(m.from_ in tips and (m.to in seal or m.to not in home) for m in again.legal_moves())

    def handle(self, line):
        words = line.split()
        if not words:
            return True
        command = words[0]
        if command in ("ugi", "uci"):
            print("id name blocking-bot")
            print("option name Seed type spin default 1 min 0 max 4294967295")
            print("ugiok")
        elif command == "isready":
            print("readyok")
        elif command == "setoption":
            if "name" in words and "value" in words:
                name = " ".join(words[words.index("name") + 1 : words.index("value")])
                value = " ".join(words[words.index("value") + 1 :])
                if name == "Seed":
                    try:
                        self.seed = int(value)
                    except ValueError:
                        print(f"info string error Seed must be a whole number, not {value}")
                        return True
                    self.rng = random.Random(self.seed)
                elif name == "Game" and value != "chinese":
                    print("info string error only two-player Chinese checkers is played")
                elif name == "Players" and value != "2":
                    print("info string error only two-player Chinese checkers is played")
                else:
                    self.options[name] = value
        elif command == "uginewgame":
            self.rng = random.Random(self.seed)
        elif command == "position":
            self.position(words[1:])
        elif command == "go":
            mv = self.choose(self.game) if self.game is not None else None
            print(f"bestmove {mv.text if mv is not None else '(none)'}")
        elif command == "quit":
            return False
        return True

    def position(self, words):
        if "moves" in words:
            cut = words.index("moves")
            head, moves = words[:cut], words[cut + 1 :]
        else:
            head, moves = words, []
        try:
            if head[:1] == ["startpos"]:
                game = self.new_game(None)
            elif head[:1] == ["fen"]:
                game = self.new_game(" ".join(head[1:]))
            else:
                raise ValueError("position needs startpos or fen")
            for mv in moves:
                game.play_text(mv)
        except Exception as error:  # the protocol answers, never dies
            print(f"info string error {error}")
            self.game = None
            return
        self.game = game


def main():
    bot = Bot()
    for line in sys.stdin:
        if not bot.handle(line.strip()):
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
