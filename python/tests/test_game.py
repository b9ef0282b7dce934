"""damas.Game, damas.Move and damas.Engine through Python."""

import pickle
import threading
import time

import pytest

import damas

KING_CAPTURE = "W:WK1:B14,26,27"


def test_start_positions_and_perft_match_the_suites():
    spanish = damas.Game()
    assert (spanish.kind, spanish.player_count, spanish.to_move) == ("spanish", 2, 0)
    assert [spanish.perft(d) for d in range(1, 7)] == [7, 49, 302, 1469, 7361, 36473]
    chinese = damas.Game("chinese", players=3)
    assert [chinese.perft(d) for d in (1, 2, 3)] == [14, 196, 2744]
    assert chinese.perft(3, threads=2, hash_mb=4) == 2744


def test_divide_rows_are_move_texts_summing_to_perft():
    game = damas.Game()
    rows = game.divide(4)
    assert sorted(text for text, _ in rows) == sorted(game.legal_moves_text())
    assert sum(count for _, count in rows) == 1469


def test_moves_are_objects_with_text_ends_path_and_captures():
    game = damas.Game(position=KING_CAPTURE)
    by_text = {mv.text: mv for mv in game.legal_moves()}
    capture = by_text["1x17"]
    assert (capture.from_, capture.to) == ("1", "17")
    assert capture.path == ["1", "23", "30", "17"]
    assert sorted(capture.captures, key=int) == ["14", "26", "27"]
    assert capture.kind == "capture" and not capture.promotes
    assert repr(capture) == 'Move("1x17")'
    step = [mv for mv in damas.Game("chinese").legal_moves() if mv.kind == "step"][0]
    assert step.kind == "step" and step.captures == [] and len(step.path) == 2


def test_play_undo_and_hash():
    game = damas.Game()
    start_hash, start_text = game.hash, game.position
    game.play(game.legal_moves()[0])
    assert game.to_move == 1 and game.hash != start_hash
    assert game.play_text("21-17") == "21-17"
    assert game.turns() == ["9-13", "21-17"]
    assert game.undo() and game.undo() and not game.undo()
    assert (game.hash, game.position) == (start_hash, start_text)


def test_a_move_object_still_works_after_the_game_moved_on():
    game = damas.Game()
    moves = game.legal_moves()
    game.play(moves[0])
    # The old list still reads its own position...
    assert moves[1].text == "10-14"
    # ...and playing it now is refused: White's move is not Black's.
    with pytest.raises(damas.IllegalMoveError):
        game.play(moves[1])


def test_illegal_moves_raise_and_change_nothing():
    game = damas.Game()
    before = game.position
    for bad in ["1-2", "9-14", "", "x" * 5000, "pass", "99-100"]:
        with pytest.raises(damas.IllegalMoveError):
            game.play(bad)
    with pytest.raises(TypeError):
        game.play(3)
    assert game.position == before
    with pytest.raises(damas.IllegalMoveError, match="illegal move '1-2'"):
        game.play("1-2")


def test_position_text_round_trip_and_errors():
    game = damas.Game("chinese", players=3)
    game.play(game.legal_moves()[3])
    again = game.read_position(game.position)
    assert again.position == game.position and again.hash == game.hash
    with pytest.raises(damas.PositionError):
        damas.Game(position="W:W1-40")
    with pytest.raises(damas.PositionError):
        damas.Game(position="W" * 20000)
    with pytest.raises(damas.PositionError):
        game.read_position("garbage")


def test_rules_and_arguments_are_checked():
    game = damas.Game("chinese", players=2, rules={"MoveLimit": 50, "GoalLock": True})
    assert game.rules["MoveLimit"] == "50" and game.rules["GoalLock"] == "true"
    assert damas.Game("chinese", rules={"Rules": "ccerl"}).rules["EqualTurns"] == "true"
    for kind, players, rules, error in [
        ("spanish", 3, None, damas.OptionError),
        ("chess", None, None, damas.OptionError),
        ("chinese", 7, None, damas.OptionError),
        ("chinese", 2, {"Hash": 16}, damas.OptionError),
        ("chinese", 2, {"NoSuchRule": 1}, damas.OptionError),
        ("chinese", 2, {"MoveLimit": -3}, damas.OptionError),
        ("chinese", 2, {"MoveLimit": 10**30}, damas.OptionError),
        ("chinese", 2, {"GoalLock": 1.5}, TypeError),
    ]:
        with pytest.raises(error):
            damas.Game(kind, players=players, rules=rules)
    with pytest.raises(OverflowError):
        damas.Game("chinese", players=-1)
    with pytest.raises(damas.OptionError):
        damas.Game("spanish", first_player=1)
    assert damas.Game("chinese", players=3, first_player=2).to_move == 2
    with pytest.raises(damas.OptionError):
        damas.Game().perft(65)
    with pytest.raises(damas.OptionError):
        damas.Game().perft(3, threads=1000)
    with pytest.raises(OverflowError):
        damas.Game().perft(-1)
    assert issubclass(damas.OptionError, ValueError)


def test_outcome_places_and_reason():
    game = damas.Game()
    assert game.outcome is None and game.places() == [None, None]
    game.resign()
    outcome = game.outcome
    assert outcome.places == [2, 1] and outcome.winner == 1 and not outcome.is_draw
    assert outcome.reason_code == "resignation" and outcome.reason == "the loser resigned"
    assert game.is_over and game.to_move is None and game.legal_moves() == []
    with pytest.raises(damas.IllegalMoveError, match="the game is over"):
        game.play("9-13")
    three = damas.Game("chinese", players=3)
    three.resign(1)
    assert three.places() == [None, 3, None] and three.statuses()[1] == "resigned"
    assert three.to_move == 0 and not three.is_over


def test_copies_and_pickles_are_independent_games():
    game = damas.Game("chinese", players=3, rules={"MoveLimit": 40}, first_player=1)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    copy = game.copy()
    copy.play(copy.legal_moves()[0])
    assert copy.turn_count == game.turn_count + 1
    loaded = pickle.loads(pickle.dumps(game))
    assert (loaded.position, loaded.turns(), loaded.rules) == (game.position, game.turns(), game.rules)


def test_perft_releases_the_gil():
    game = damas.Game()
    done = threading.Event()
    ticks = 0

    def count():
        game.perft(10)
        done.set()

    worker = threading.Thread(target=count)
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    # Holding the GIL, the count would let this loop run only when done.
    assert ticks > 5, ticks


def test_engine_searches_under_limits():
    game = damas.Game()
    engine = damas.Engine(hash_mb=4)
    infos = []
    result = engine.search(game, depth=5, on_info=infos.append)
    assert result.best in game.legal_moves()
    assert result.depth == 5 and result.pv[0] == result.best.text and result.nodes > 0
    assert [info["depth"] for info in infos][-1] == 5
    assert result.score.kind == "cp"
    chinese = damas.Game("chinese", players=3)
    assert damas.Engine().search(chinese, nodes=2000).best in chinese.legal_moves()
    assert damas.Engine().search(chinese, movetime=0.05).best in chinese.legal_moves()


def test_engine_arguments_are_checked():
    engine = damas.Engine()
    game = damas.Game()
    for kwargs in [{}, {"depth": 0}, {"nodes": 0}, {"movetime": -1.0},
                   {"movetime": float("nan")}, {"movetime": 1e300}]:
        with pytest.raises(damas.OptionError):
            engine.search(game, **kwargs)
    for kwargs in [{"hash_mb": 0}, {"hash_mb": 10**6}, {"threads": 0},
                   {"style": "strong"}, {"seed": 2**40}]:
        with pytest.raises(damas.OptionError):
            damas.Engine(**kwargs)

    def broken(info):
        raise KeyError("from the callback")

    with pytest.raises(KeyError, match="from the callback"):
        engine.search(game, depth=6, on_info=broken)


def test_stop_from_another_thread_ends_an_infinite_search():
    engine = damas.Engine(hash_mb=4)
    game = damas.Game("chinese", players=2)
    results = []
    worker = threading.Thread(target=lambda: results.append(engine.search(game, infinite=True)))
    worker.start()
    time.sleep(0.3)
    assert worker.is_alive(), "an infinite search returned by itself"
    engine.stop()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert results[0].best in game.legal_moves()


def test_game_kinds_and_rule_options():
    assert [k[0] for k in damas.game_kinds()] == ["spanish", "chinese", "japanese"]
    names = [option[0] for option in damas.rule_options()]
    assert "AntiBlocking" in names and "MoveLimit" in names and "Hash" not in names


def test_moves_read_their_own_position_after_play_and_undo():
    game = damas.Game("chinese", players=2)
    first = game.legal_moves()
    first_texts = first.texts()
    game.play(first[0])
    second = game.legal_moves()
    second_texts = second.texts()
    for _ in range(3):
        game.play(game.legal_moves()[0])
    # Played on: each list finds its position again.
    assert first.texts() == first_texts and second.texts() == second_texts
    assert first[5].path[0] == first[5].from_
    # Taken back past both positions, then a different line.
    for _ in range(4):
        assert game.undo()
    game.play(first[-1])
    game.play(game.legal_moves()[-1])
    assert first.texts() == first_texts and second.texts() == second_texts
    assert [mv.text for mv in second] == second_texts
    assert list(first) == first and first[1:3] == [first[1], first[2]]
    assert first[-1] in first and len(first) == len(first_texts)
    with pytest.raises(IndexError):
        first[len(first)]


def test_a_finished_game_has_nothing_to_search():
    game = damas.Game()
    game.resign()
    result = damas.Engine().search(game, depth=3)
    assert (result.best, result.nodes, result.pv) == (None, 0, [])
    rl = damas.RlGame("spanish")
    rl.resign()
    assert rl.engine_action(damas.Engine(), depth=2) is None
    assert rl.legal_actions() == [] and rl.action_mask().sum() == 0


def quiet_line(game, plies, seen):
    """Plays `plies` moves that capture nothing, leave no capture on offer
    and repeat no position (the first such line a depth-first search
    finds); False, with the game as it was, when there is none."""
    if plies == 0:
        return True
    for mv in game.legal_moves():
        if mv.captures:
            continue
        game.play(mv)
        fresh = game.position not in seen
        quiet = not any(reply.captures for reply in game.legal_moves())
        if fresh and (quiet or plies == 1):
            seen.add(game.position)
            if quiet_line(game, plies - 1, seen):
                return True
            seen.discard(game.position)
        game.undo()
    return False


def test_every_draughts_variant_is_a_game_with_its_rules():
    offered = next(o for o in damas.rule_options() if o[0] == "Variant")
    variants = offered[1].removeprefix("combo ").split("/")
    assert variants[:3] == ["spanish", "portuguese", "brazilian"]
    for variant in variants:
        game = damas.Game(variant=variant)
        assert game.rules["Variant"] == variant and game.kind == "spanish"
        assert damas.Game(rules={"Variant": variant}).rules == game.rules
        loaded = pickle.loads(pickle.dumps(game))
        assert loaded.rules["Variant"] == variant
    # Brazilian men capture backward: the counts part at depth 5.
    assert damas.Game(variant="brazilian").perft(5) == 7473
    assert damas.Game(variant="portuguese").perft(5) == 7361
    for kind, variant in [("spanish", "checkers"), ("chinese", "brazilian")]:
        with pytest.raises(damas.OptionError):
            damas.Game(kind, variant=variant)


def test_portuguese_draws_name_their_own_counts():
    game = damas.Game(variant="portuguese", position="W:WK1,K2,K3:BK26")
    assert quiet_line(game, 24, {game.position})
    outcome = game.outcome
    assert outcome.is_draw and outcome.reason_code == "three_kings"
    assert outcome.reason == "draw: three kings did not beat a lone king within 24 plies"
    game = damas.Game(variant="portuguese", position="W:WK1,K3:BK30,K32")
    assert quiet_line(game, 40, {game.position})
    assert game.outcome.reason_code == "no_progress"
    assert game.outcome.reason == "draw by 40 plies without capture or man move"


def test_brazilian_draughts_speaks_algebraic_squares():
    game = damas.Game(variant="brazilian")
    assert game.position.startswith("W:Wa1,c1,e1,g1,")
    assert "c3-d4" in game.legal_moves_text()
    assert game.play_text("c3-d4") == "c3-d4"
    game = damas.Game(variant="brazilian", position="W:Wd6:Be7,g7")
    assert game.legal_moves_text() == ["d6xf8xh6"]
    assert game.play_text("d6:h6") == "d6xf8xh6"
