//! JumpStar's CCP spoken by the `damas` binary, under the CCERL rules.

#[path = "support/engine_process.rs"]
mod engine_process;

use damas::chinese::{ccp, Checkers, Rules};
use damas::Game;
use engine_process::Engine;

/// The compact position of `game`.
fn cells(game: &Checkers) -> String {
    ccp::compact(game)
}

#[test]
fn ccp_handshake_position_cells_and_a_legal_hop_path() {
    let mut engine = Engine::start();
    engine.send("ccp");
    let lines = engine.read_until(|l| l == "ccpok");
    assert!(lines[0].starts_with("id name Damas"), "{lines:?}");
    engine.assert_ready();
    // A CCERL opening: a few moves from the start, p2 to move.
    let mut game = Checkers::new(Rules::ccerl());
    for mv in ["f3-f5", "l15-l13", "e3-g5"] {
        game.play_text(mv).expect("legal opening move");
    }
    engine.send(&format!(
        "position cells {} player 1 ply {}",
        cells(&game),
        game.ply()
    ));
    engine.assert_ready();
    let best = engine.go("movetime 100");
    // The whole hop path in CCP ids, legal in that position.
    assert!(
        best.split('-')
            .all(|id| id.parse::<u8>().is_ok_and(|n| n < 121)),
        "{best}"
    );
    let path = ccp::path_of_ids(&best).expect("ids");
    assert!(
        game.clone().play_text(&path).is_ok(),
        "illegal {best} = {path}"
    );
    // Moves in ids after startpos; depth and nodes limits.
    engine.send("position startpos moves 4-15 116-105");
    assert_eq!(engine.query("turn"), "p1");
    let best = engine.go("depth 2");
    assert!(best.contains('-'), "{best}");
    engine.go("nodes 500");
    engine.go("wtime 1000 btime 1000");
    // Bad CCP input: one error line, nothing changed.
    for bad in [
        "position cells ... player 0 ply 0",
        "position cells 0 player 2 ply 0",
        &format!("position cells {} ply 3", cells(&game)),
    ] {
        let reply = engine.ask(bad);
        assert!(reply.starts_with("info string error "), "{bad}: {reply}");
    }
    assert_eq!(engine.query("turn"), "p1");
    engine.send("quit");
    assert!(engine
        .wait_exit(std::time::Duration::from_secs(10))
        .is_some_and(|s| s.success()));
}

#[test]
fn ccp_plays_the_ccerl_rules() {
    let mut engine = Engine::start();
    engine.send("ccp");
    engine.read_until(|l| l == "ccpok");
    engine.send("ugi");
    let options = engine.read_until(|l| l == "ugiok");
    assert!(
        options
            .iter()
            .any(|l| l
                == "option name Rules type combo default ccerl var default var ccerl var custom"),
        "{options:?}"
    );
    // Goal lock from the landing: h6-f4-h4-j6 is refused.
    engine.send("position fen I2 2 g5,g4,i5/h6");
    assert_eq!(
        engine.query("moves h6"),
        "h6-f4 h6-f4-h4 h6-h5 h6-g6 h6-i6 h6-h7 h6-i7"
    );
}
