//! Complete games played through the protocol only: every `bestmove` is
//! checked against the library's legal moves, and the final `query result`
//! against the library's own result.

#[path = "support/engine_process.rs"]
mod engine_process;

use damas::options::Options;
use damas::{AnyGame, Game};
use engine_process::Engine;

/// Plays one whole game, the engine moving for every player.
fn play_through_protocol(setup: &[&str], go: &str, max_plies: usize) -> AnyGame {
    let mut options = Options::default();
    let mut engine = Engine::start();
    for line in setup {
        engine.send(line);
        if let Some(rest) = line.strip_prefix("setoption name ") {
            let (name, value) = rest.split_once(" value ").expect("name and value");
            options
                .set(name, value)
                .expect("the test's options are valid");
        }
    }
    engine.assert_ready();
    let mut game = AnyGame::new(&options.spec().expect("valid options"));
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..max_plies {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        engine.send(&position);
        let over = engine.query("gameover");
        assert_eq!(over, game.is_over().to_string(), "gameover disagrees");
        if game.is_over() {
            break;
        }
        let turn = engine.query("turn");
        assert_eq!(turn, game.to_move().expect("someone to move").to_string());
        assert_eq!(
            engine.query("p1turn"),
            (game.to_move() == damas::Player::new(0)).to_string()
        );
        let best = engine.go(go);
        let legal = game.legal_moves_text();
        let played = game
            .play_text(&best)
            .unwrap_or_else(|err| panic!("illegal bestmove {best} ({err}); legal: {legal:?}"));
        moves.push(played);
    }
    assert!(game.is_over(), "game not finished in {max_plies} plies");
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    assert_eq!(engine.query("gameover"), "true");
    assert_eq!(engine.query("result"), damas_protocol::reply::result(&game));
    assert_eq!(
        engine.query("ranking"),
        damas_protocol::reply::ranking(&game)
    );
    assert_eq!(
        engine.go("depth 1"),
        "(none)",
        "bestmove when the game is over"
    );
    game
}

#[test]
fn spanish_game_through_the_protocol() {
    play_through_protocol(&[], "depth 2", 400);
}

#[test]
fn every_playable_draughts_variant_through_the_protocol() {
    for variant in damas::spanish::Variant::IMPLEMENTED {
        let option = format!("setoption name Variant value {variant}");
        // Every bestmove is checked against the library's game of that
        // variant.
        play_through_protocol(&[&option], "depth 2", 400);
    }
}

/// The `Variant` combo offers every playable variant and selects its
/// rules (Brazilian men capture backward: 7,473 leaves at depth 5 against
/// the Spanish 7,361); a variant not offered is one error line and changes
/// nothing.
#[test]
fn the_variant_option_selects_the_draughts_rules() {
    use damas::spanish::Variant;
    let mut engine = Engine::start();
    engine.send("ugi");
    let lines = engine.read_until(|l| l == "ugiok");
    let declared = lines
        .iter()
        .find(|l| l.starts_with("option name Variant "))
        .expect("a Variant option");
    let offered: Vec<String> = Variant::IMPLEMENTED
        .iter()
        .map(|v| format!("var {v}"))
        .collect();
    assert_eq!(
        declared,
        &format!(
            "option name Variant type combo default spanish {}",
            offered.join(" ")
        )
    );
    let perft = |engine: &mut Engine| {
        engine.send("perft 5");
        let lines = engine.read_until(|l| l.starts_with("nodes "));
        lines.last().expect("nodes").clone()
    };
    assert_eq!(perft(&mut engine), "nodes 7361");
    engine.send("setoption name Variant value brazilian");
    assert_eq!(perft(&mut engine), "nodes 7473");
    for refused in Variant::ALL
        .iter()
        .filter(|v| !v.is_implemented())
        .map(|v| v.name())
        .chain(["checkers"])
    {
        let reply = engine.ask(&format!("setoption name Variant value {refused}"));
        assert!(
            reply.starts_with("info string error option 'Variant' does not accept"),
            "{reply}"
        );
        engine.assert_ready();
        assert_eq!(
            perft(&mut engine),
            "nodes 7473",
            "{refused} changed nothing"
        );
    }
    engine.send("setoption name Variant value Portuguese");
    assert_eq!(perft(&mut engine), "nodes 7361");
    engine.send("quit");
}

#[test]
fn chinese_two_player_game_through_the_protocol() {
    play_through_protocol(
        &[
            "setoption name Game value chinese",
            "setoption name MoveLimit value 300",
        ],
        "depth 1",
        400,
    );
}

#[test]
fn chinese_three_player_game_through_the_protocol() {
    play_through_protocol(
        &[
            "setoption name Game value chinese",
            "setoption name Players value 3",
            "setoption name MoveLimit value 240",
        ],
        "depth 1",
        400,
    );
}

#[test]
fn chinese_six_player_game_through_the_protocol() {
    play_through_protocol(
        &[
            "setoption name Game value chinese",
            "setoption name Players value 6",
            "setoption name MoveLimit value 240",
        ],
        "depth 1",
        400,
    );
}

/// The `info` lines and the move of one `go`.
fn go_with_info(engine: &mut Engine, limits: &str) -> (Vec<String>, String) {
    engine.send(&format!("go {limits}"));
    let mut lines = engine.read_until(|l| l.starts_with("bestmove"));
    let last = lines.pop().expect("bestmove");
    let mv = last.split_whitespace().nth(1).expect("a move").to_string();
    (lines, mv)
}

#[test]
fn spanish_openings_come_from_the_book_unless_own_book_is_off() {
    let book = damas::spanish::Book::builtin();
    let start = damas::spanish::Position::start();
    let book_moves: Vec<String> = book
        .moves(&start)
        .iter()
        .map(|m| damas::spanish::long_text(&m.mv))
        .collect();
    assert!(book_moves.len() >= 2, "{book_moves:?}");
    let mut engine = Engine::start();
    engine.send("ugi");
    let listed = engine.read_until(|l| l == "ugiok");
    assert!(
        listed
            .iter()
            .any(|l| l == "option name OwnBook type check default true"),
        "{listed:?}"
    );
    engine.send("position startpos");
    // A seeded book move: at once, depth 0, no node searched.
    engine.send("setoption name Seed value 11");
    let (info, first) = go_with_info(&mut engine, "movetime 5000");
    assert!(book_moves.contains(&first), "{first} not in {book_moves:?}");
    let last = info.last().expect("an info line");
    assert!(last.starts_with("info depth 0 "), "{last}");
    assert!(last.contains(" nodes 0 "), "{last}");
    let (_, again) = go_with_info(&mut engine, "movetime 5000");
    assert_eq!(again, first, "the same seed, the same move");
    // Off: the search itself.
    engine.send("setoption name OwnBook value false");
    let (info, _) = go_with_info(&mut engine, "depth 3");
    assert!(
        info.iter().any(|l| l.starts_with("info depth 3 ")),
        "{info:?}"
    );
    // An infinite search never answers from the book.
    engine.send("setoption name OwnBook value true");
    engine.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(100));
    engine.send("stop");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 0 ")),
        "{lines:?}"
    );
}
