//! Each draughts variant's notation through the game interface: Spanish
//! and Portuguese squares by number, Brazilian squares a1-h8 with a1 at
//! White's lower left (docs/NOTATION.md), in moves, positions, point
//! names, the board's drawing coordinates and PDN records.

use damas::pdn::read_games;
use damas::record::GameRecord;
use damas::spanish::{Rules, Variant};
use damas::{AnyGame, Game, GameKind, GameSpec, PlayError};

fn spec(variant: Variant) -> GameSpec {
    GameSpec::Draughts(Rules::new(variant).expect("playable"))
}

fn sorted(mut texts: Vec<String>) -> Vec<String> {
    texts.sort();
    texts
}

#[test]
fn spanish_and_portuguese_write_square_numbers() {
    for variant in [Variant::Spanish, Variant::Portuguese] {
        let game = AnyGame::new(&spec(variant));
        assert_eq!(game.position_text(), "W:W1-12:B21-32");
        assert_eq!(
            sorted(game.legal_moves_text()),
            ["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"]
        );
        assert_eq!(game.point_name(game.point("1").unwrap()), "1");
        assert!(game.diagram().contains("|  32 31 30 29"));
    }
}

#[test]
fn brazilian_writes_algebraic_squares_with_a1_at_white_lower_left() {
    let mut game = AnyGame::new(&spec(Variant::Brazilian));
    assert_eq!(
        game.position_text(),
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    );
    assert_eq!(
        sorted(game.legal_moves_text()),
        ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
    );
    // a1 is drawn at White's lower left, h8 at the top right.
    let board = game.board();
    let a1 = game.point("a1").expect("a dark square");
    assert_eq!(
        (board.points[a1.index()].x, board.points[a1.index()].y),
        (0, 0)
    );
    let h8 = game.point("H8").expect("a dark square, in any case");
    assert_eq!(
        (board.points[h8.index()].x, board.points[h8.index()].y),
        (7, 7)
    );
    assert_eq!(board.points[a1.index()].name, "a1");
    for bad in ["b1", "a9", "i1", "11", ""] {
        assert!(
            matches!(game.point(bad), Err(PlayError::BadSquare(_))),
            "{bad}"
        );
    }
    assert_eq!(game.play_text("c3-d4").unwrap(), "c3-d4");
    assert_eq!(game.play_text("F6-E5").unwrap(), "f6-e5");
    // A capture is every square it stands on, joined by `x`; `:` is read too.
    assert_eq!(game.legal_moves_text(), ["d4xf6"]);
    let diagram = game.diagram();
    assert!(
        diagram
            .lines()
            .any(|l| l.starts_with("1 | w   w   w   w   |")),
        "{diagram}"
    );
    assert!(diagram.contains("Black to move") || diagram.contains("White to move"));
    assert_eq!(game.play_text("d4:f6").unwrap(), "d4xf6");
}

#[test]
fn brazilian_captures_name_their_path_and_read_either_form() {
    // White's man on d6 must take the most pieces: two, over e7 and g7.
    let spec = spec(Variant::Brazilian);
    let game = AnyGame::from_text(&spec, "W:Wd6:Bc7,e7,g7").expect("algebraic FEN");
    assert_eq!(game.position_text(), "W:Wd6:Bc7,e7,g7");
    assert_eq!(game.legal_moves_text(), ["d6xf8xh6"]);
    let long = game.parse_move("d6:f8:h6").expect("the full path");
    assert_eq!(game.parse_move("d6xh6").expect("the two ends"), long);
    assert_eq!(game.move_text(&long), "d6xf8xh6");
    let anatomy = game.anatomy(&long);
    let names: Vec<String> = anatomy.path.iter().map(|&p| game.point_name(p)).collect();
    assert_eq!(names, ["d6", "f8", "h6"]);
    let taken: Vec<String> = anatomy
        .captured
        .iter()
        .map(|&p| game.point_name(p))
        .collect();
    assert_eq!(taken, ["e7", "g7"]);
    for (text, code) in [
        ("d6-c7", "capture_mandatory"),
        ("d6xf8xd6", "illegal_move"),
        ("d6xb8", "illegal_move"),
        ("z9xb8", "notation"),
        ("d6-", "notation"),
    ] {
        let code_of = |err: &PlayError| match err {
            PlayError::Illegal(illegal) => illegal.reason.code(),
            other => other.code(),
        };
        let err = game.parse_move(text).expect_err(text);
        assert_eq!(code_of(&err), code, "{text}: {err}");
    }
    // A backward capture: the man on e5 takes d4, landing on c3.
    let back = AnyGame::from_text(&spec, "W:We5:Bd4,a7").expect("FEN");
    assert_eq!(back.legal_moves_text(), ["e5xc3"]);
    let anatomy = back.anatomy(&back.legal_moves()[0]);
    assert_eq!(anatomy.path.len(), 2);
    // Square numbers are no Brazilian squares, and a square's errors name it.
    let err = AnyGame::from_text(&spec, "W:W22:B27,28").expect_err("numbers");
    assert!(err.to_string().contains("invalid square '22'"), "{err}");
    let err = AnyGame::from_text(&spec, "W:Wc3,c3:Bh8").expect_err("twice");
    assert!(err.to_string().contains("square c3 listed twice"), "{err}");
    let err = AnyGame::from_text(&spec, "W:Wb8:Bh6").expect_err("a man on b8");
    assert!(err.to_string().contains("man on square b8"), "{err}");
}

/// The move `text` of the Russian position `fen` taken apart: the names
/// of the squares its drawing stands on and of the pieces it takes, and
/// whether it crowns.
fn russian_capture(fen: &str, text: &str) -> (Vec<String>, Vec<String>, bool) {
    let game = AnyGame::from_text(&spec(Variant::Russian), fen).expect("algebraic FEN");
    let mv = game.parse_move(text).expect(text);
    let anatomy = game.anatomy(&mv);
    let names = |points: &[damas::Point]| points.iter().map(|&p| game.point_name(p)).collect();
    (
        names(&anatomy.path),
        names(&anatomy.captured),
        anatomy.promotes,
    )
}

#[test]
fn russian_captures_name_their_path_backward_and_through_the_crowning() {
    // A man takes d4 backward onto e3, then f4 forward onto g5.
    let game = AnyGame::from_text(&spec(Variant::Russian), "W:Wc5:Bd4,f4").expect("FEN");
    assert_eq!(game.legal_moves_text(), ["c5:e3:g5"]);
    let (path, taken, crowned) = russian_capture("W:Wc5:Bd4,f4", "c5:e3:g5");
    assert_eq!(
        (path, taken, crowned),
        (s(&["c5", "e3", "g5"]), s(&["d4", "f4"]), false)
    );
    // A man takes g7 onto f8, is crowned, and flies on down f8-a3 over
    // e7, d6 and c5 to take b4: the move ends with a king on a3.
    let game = AnyGame::from_text(&spec(Variant::Russian), "W:Wh6:Bg7,b4").expect("FEN");
    assert_eq!(game.legal_moves_text(), ["h6:f8:a3"]);
    let (path, taken, crowned) = russian_capture("W:Wh6:Bg7,b4", "h6:f8:a3");
    assert_eq!(
        (path, taken, crowned),
        (s(&["h6", "f8", "a3"]), s(&["g7", "b4"]), true)
    );
    assert_eq!(
        russian_capture("W:Wh6:Bg7,b4", "h6:a3"),
        (s(&["h6", "f8", "a3"]), s(&["g7", "b4"]), true)
    );
    // Black likewise on row 1: g3 over f2 onto e1, then over c3 onto b4
    // or a5.
    let game = AnyGame::from_text(&spec(Variant::Russian), "B:Wf2,c3:Bg3").expect("FEN");
    assert_eq!(sorted(game.legal_moves_text()), ["g3:e1:a5", "g3:e1:b4"]);
    let (path, taken, crowned) = russian_capture("B:Wf2,c3:Bg3", "g3:e1:a5");
    assert_eq!(
        (path, taken, crowned),
        (s(&["g3", "e1", "a5"]), s(&["f2", "c3"]), true)
    );
}

fn s(names: &[&str]) -> Vec<String> {
    names.iter().map(ToString::to_string).collect()
}

#[test]
fn every_move_text_reads_back_in_every_variant() {
    for variant in Variant::IMPLEMENTED {
        let mut game = AnyGame::new(&spec(variant));
        for ply in 0..80 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            for mv in &moves {
                let text = game.move_text(mv);
                assert_eq!(game.parse_move(&text).as_ref(), Ok(mv), "{variant}: {text}");
            }
            let back = game
                .read_position(&game.position_text())
                .expect("reads back");
            assert_eq!(back.position_text(), game.position_text(), "{variant}");
            assert_eq!(back.hash(), game.hash(), "{variant}");
            let mv = moves[(ply * 7 + 3) % moves.len()];
            game.play(mv).expect("legal");
        }
    }
}

#[test]
fn records_carry_the_variant_game_type_and_read_back() {
    for (variant, game_type) in [
        (Variant::Spanish, "24"),
        (Variant::Portuguese, "28"),
        (Variant::Brazilian, "26"),
        (Variant::Russian, "25"),
    ] {
        let spec = spec(variant);
        let mut game = AnyGame::new(&spec);
        for ply in 0..30 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[(ply * 5 + 1) % moves.len()])
                .expect("legal");
        }
        let start = (variant == Variant::Brazilian).then(|| "W:Wa1,c1,c3:Bf6,h8".to_string());
        let mut from = match &start {
            Some(text) => AnyGame::from_text(&spec, text).expect("FEN"),
            None => AnyGame::new(&spec),
        };
        let played = if start.is_some() {
            from.play_text("c3-d4").expect("legal");
            vec!["c3-d4".to_string()]
        } else {
            game.turns().into_iter().map(|t| t.text).collect()
        };
        let record = GameRecord {
            event: "test".into(),
            date: None,
            game: 1,
            spec,
            seats: vec!["a".into(), "b".into()],
            start: start.clone(),
            moves: played,
            places: Vec::new(),
            ending: String::new(),
        };
        assert_eq!(spec.kind(), GameKind::Spanish);
        let text = record.text();
        assert!(
            text.contains(&format!("[GameType \"{game_type}\"]")),
            "{text}"
        );
        let games = read_games(&text).expect("PDN");
        let replayed = games[0].replay().expect("replays");
        let want = if start.is_some() { &from } else { &game };
        assert_eq!(replayed.position_text(), want.position_text(), "{variant}");
        assert_eq!(
            Game::hash(&replayed),
            want.hash(),
            "{variant}: the same rules and position"
        );
    }
    // A variant's GameType chooses its rules and notation when reading: the
    // Brazilian man passing f8 is crowned only where the capture ends.
    let text = "[GameType \"26\"]\n[FEN \"W:Wd6:Bc7,e7,g7\"]\n\n1. d6:f8:h6 *\n";
    let replayed = read_games(text).expect("PDN")[0]
        .replay()
        .expect("Brazilian");
    assert_eq!(replayed.position_text(), "B:Wh6:Bc7");
    // The Russian man crowned on f8 flies on as a king and stops on a3.
    let text = "[GameType \"25\"]\n[FEN \"W:Wh6:Bg7,b4\"]\n\n1. h6:f8:a3 *\n";
    let replayed = read_games(text).expect("PDN")[0].replay().expect("Russian");
    assert_eq!(replayed.position_text(), "B:WKa3:B");
}
