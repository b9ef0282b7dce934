//! Tests of the PDN reader.

use super::*;
use crate::draughts::fits_landings;
use crate::spanish::{Draughts, Square};

#[test]
fn numbers_comments_variations_and_nags_are_skipped() {
    let text = "[Event \"x\"]\n[White \"a \\\"b\\\"\"]\n\n\
                1.11-14 22-19! 2. 10-13 {take (back)} ; rest of line 9-13\n\
                ( 2... 10-14 (3. 23-19) {x} ) $1 2... 19x10?! 3.5x14 1/2-1/2";
    let games = read_games(text).expect("reads");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("white"), Some("a \"b\""));
    assert_eq!(
        games[0].moves(),
        ["11-14", "22-19", "10-13", "19x10", "5x14"]
    );
    assert_eq!(games[0].result(), Some("1/2-1/2"));
    assert_eq!(games[0].move_lines, vec![4, 4, 4, 5, 5]);
    assert!(games[0].replay().is_ok());
}

#[test]
fn broken_input_is_an_error_with_its_line() {
    assert_eq!(read_games("1. 11-15 {open"), Err(PdnError::OpenComment(1)));
    assert_eq!(
        read_games("\n1. 11-15 (2. 9-13"),
        Err(PdnError::OpenVariation(2))
    );
    assert_eq!(read_games("1. 11-15 )"), Err(PdnError::StrayParenthesis(1)));
    assert!(matches!(
        read_games("[Event x]"),
        Err(PdnError::BadTag { line: 1, .. })
    ));
}

#[test]
fn the_first_illegal_move_is_named_with_ply_and_line() {
    let games = read_games("1. 11-15 22-18\n2. 1-5 23-19 1-0").expect("reads");
    let err = games[0].replay().expect_err("5 is occupied");
    assert!(
        matches!(&err, ReplayError::Move { ply: 3, line: 2, text, .. } if text == "1-5"),
        "{err}"
    );
    assert!(
        err.to_string().starts_with("ply 3 (line 2): '1-5': "),
        "{err}"
    );
}

#[test]
fn landing_squares_of_a_long_capture_are_read() {
    // The man on 6 jumps 10 to land on 13, then 18 to land on 22.
    let fen = "W:W6:B10,18";
    let game: Draughts = fen.parse().expect("valid");
    let [capture] = game.legal_moves()[..] else {
        panic!("one capture expected");
    };
    let square = |n| Square::new(n).expect("square");
    assert_eq!(capture.captured().count(), 2);
    assert!(fits_landings(
        &capture,
        &[square(6), square(13), square(22)]
    ));
    assert!(!fits_landings(
        &capture,
        &[square(6), square(15), square(22)]
    ));
    for text in [
        "6x13x22",
        "6x22",
        "6x22x10x18",
        "6x22x18x10",
        "6-22",
        "6-13-22",
    ] {
        let pdn = format!("[FEN \"{fen}\"]\n1. {text} *");
        let games = read_games(&pdn).expect("reads");
        let replayed = games[0]
            .replay()
            .unwrap_or_else(|err| panic!("{text}: {err}"));
        assert_eq!(replayed.moves(), [capture], "{text}");
    }
    let games = read_games(&format!("[FEN \"{fen}\"] 6x14x22 *")).expect("reads");
    let err = games[0].replay().expect_err("14 is not a landing square");
    // The error is the one for the text as written.
    assert!(err.to_string().contains("'6x14x22'"), "{err}");
    let quiet = read_games("1. 9x13 22-18 *").expect("reads");
    assert!(quiet[0].replay().is_ok(), "a quiet move written with x");
}

#[test]
fn other_game_types_and_bad_fens_are_refused() {
    let games = read_games("[GameType \"20\"]\n1. 32-28 *\n[FEN \"W:W33\"] *").expect("reads");
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].replay().map(|_| ()),
        Err(ReplayError::GameType("20".into()))
    );
    assert!(matches!(games[1].replay(), Err(ReplayError::Fen(_))));
    let typed = read_games("[GameType \"24,W,8,8,N1,1\"] 1. 11-15 *").expect("reads");
    assert!(typed[0].replay().is_ok());
}

#[test]
fn games_split_at_results_and_at_tags() {
    let games =
        read_games("[Round \"1\"] 1. 11-15 [Round \"2\"] 1. 9-13 2-0 1. 10-14 0-2").expect("reads");
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].moves(), ["11-15"]);
    assert_eq!(games[0].result(), None);
    assert_eq!(games[1].tag("Round"), Some("2"));
    assert_eq!(games[1].result(), Some("2-0"));
    assert!(games[2].tags().is_empty());
    assert_eq!(games[2].moves(), ["10-14"]);
    assert_eq!(games[2].line(), 1);
}

/// Every item of a reader over `text`.
fn read_all(text: &[u8]) -> Vec<Result<PdnGame, UnreadGame>> {
    PdnReader::new(text).collect()
}

#[test]
fn a_byte_order_mark_is_skipped_and_0_0_is_a_result() {
    let games = read_all(b"\xef\xbb\xbf[Event \"a\"]\n1. 11-15 0-0\n1. 9-13 *");
    assert_eq!(games.len(), 2);
    let first = games[0].as_ref().expect("reads");
    assert_eq!(first.tag("Event"), Some("a"));
    assert_eq!(first.moves(), ["11-15"]);
    assert_eq!(first.result(), Some("0-0"));
    assert!(first.replay().is_ok());
    for result in ["2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"] {
        let games = read_games(&format!("1. 11-15 {result} 1. 10-14 *")).expect("reads");
        assert_eq!(games.len(), 2, "{result}");
        assert_eq!(games[0].result(), Some(result));
    }
}

#[test]
fn a_bad_tag_fails_its_game_only() {
    let text = b"[Event \"1\"] 1. 11-15 *\n[Event \"2\\x\"] 1. 11-15 *\n[Event \"3\"] 1. 11-15 *\n\
                 [Bad-name \"4\"] 1. 9-13 *\n[Event \"5\"] 1. 9-13 *";
    let games = read_all(text);
    assert_eq!(games.len(), 5);
    assert_eq!(games[0].as_ref().map(|g| g.tag("Event")), Ok(Some("1")));
    let Err(bad) = &games[1] else {
        panic!("{:?}", games[1])
    };
    assert_eq!(bad.line, 2);
    assert_eq!(
        bad.error.to_string(),
        "line 2: malformed tag 'Event \"2\\\\x\"]': '\\' escapes only '\"' and '\\'"
    );
    assert_eq!(games[2].as_ref().map(|g| g.tag("Event")), Ok(Some("3")));
    assert!(
        matches!(&games[3], Err(UnreadGame { line: 4, error: PdnError::BadTag { why, .. } })
            if why.contains("quoted value")),
        "{:?}",
        games[3]
    );
    assert_eq!(games[4].as_ref().map(|g| g.tag("Event")), Ok(Some("5")));
}

#[test]
fn error_words_are_cut_escaped_and_said_once() {
    let mut text = b"1. 11-15 ab\x00\xff\x1b".to_vec();
    text.extend(std::iter::repeat_n(b'z', 10 << 20));
    text.extend(b" *");
    let games = read_all(&text);
    let game = games[0].as_ref().expect("reads");
    let err = game.replay().expect_err("not a move").to_string();
    let shown = format!("ab\\0\\xff\\u{{1b}}{}…", "z".repeat(35));
    assert_eq!(err, format!("ply 2 (line 1): '{shown}': not a move"));
    // The rules' message names the move; the error says it once.
    let games = read_games("1. 11-15 22-18 2. 1-5 *").expect("reads");
    let err = games[0].replay().expect_err("5 is taken").to_string();
    assert_eq!(err, "ply 3 (line 1): '1-5': illegal move");
    let games = read_games("1. 11-15 40-45 *").expect("reads");
    let err = games[0].replay().expect_err("no square 40").to_string();
    assert_eq!(err.matches("40-45").count(), 1, "{err}");
}

#[test]
fn a_game_too_long_is_skipped_to_its_end() {
    let mut text = b"[Event \"big\"] 1. 11-15 {".to_vec();
    text.extend(std::iter::repeat_n(b'x', (MAX_GAME_BYTES + 1) as usize));
    text.extend(b"} 22-18 *\n[Event \"next\"] 1. 11-15 *");
    let games = read_all(&text);
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0],
        Err(UnreadGame {
            line: 1,
            error: PdnError::TooLong
        })
    );
    assert_eq!(games[1].as_ref().map(|g| g.tag("Event")), Ok(Some("next")));
    let many = "11-15 22-18 ".repeat(MAX_GAME_MOVES / 2 + 1) + "* 1. 9-13 *";
    let games = read_all(many.as_bytes());
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].as_ref().map_err(|e| &e.error),
        Err(&PdnError::TooManyMoves)
    );
    assert!(games[1].is_ok());
}

#[test]
fn an_endless_input_ends_with_an_error() {
    let mut games = PdnReader::new(std::io::repeat(0));
    let first = games.next().expect("one item");
    assert_eq!(first.map_err(|e| e.error), Err(PdnError::NoEnd));
    assert!(games.next().is_none());
    let mut spaces = PdnReader::new(std::io::repeat(b' ').take(MAX_SKIP_BYTES + 10));
    assert_eq!(
        spaces.next().map(|r| r.map_err(|e| e.error)),
        Some(Err(PdnError::NoEnd))
    );
}
