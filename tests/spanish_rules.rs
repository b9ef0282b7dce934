//! Spanish draughts rules: one test with a concrete position per rule, FEN
//! and move-text errors, the game result rules, and property tests over
//! random games.

use damas::spanish::{
    long_text, Color, Draughts, DrawReason, FenError, GameStatus, Move, MoveParseError, PieceKind,
    Position, Square, WinReason, NO_PROGRESS_PLIES,
};
use damas::{Game, IllegalMove, IllegalReason, PlayError};
use proptest::prelude::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Legal moves in long form, sorted.
fn moves(fen: &str) -> Vec<String> {
    let mut v: Vec<String> = pos(fen).legal_moves().iter().map(long_text).collect();
    v.sort();
    v
}

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

// ---- board and setup ----------------------------------------------------

#[test]
fn numbering_follows_pdn() {
    assert_eq!(sq(1).name(), "h1");
    assert_eq!(sq(4).name(), "b1");
    assert_eq!(sq(5).name(), "g2");
    assert_eq!(sq(32).name(), "a8");
    // The lower-left corner a1 is light.
    assert_eq!(Square::from_coords(0, 0), None);
    for s in Square::all() {
        assert_eq!(Square::from_coords(s.file(), s.rank()), Some(s));
    }
}

#[test]
fn start_position_and_first_moves() {
    let p = Position::start();
    assert_eq!(p.to_fen(), "W:W1-12:B21-32");
    assert_eq!(p.men(Color::White).count(), 12);
    assert_eq!(p.men(Color::Black).count(), 12);
    assert_eq!(p.to_move(), Color::White);
    let mut texts: Vec<String> = p.legal_moves().iter().map(|m| p.move_text(m)).collect();
    texts.sort();
    let mut want = vec!["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"];
    want.sort();
    assert_eq!(texts, want);
}

// ---- men ----------------------------------------------------------------

#[test]
fn men_step_forward_only() {
    assert_eq!(moves("W:W14:B32"), ["14-18", "14-19"]);
    assert_eq!(moves("B:W1:B19"), ["19-14", "19-15"]);
}

#[test]
fn men_never_capture_backward_even_a_king() {
    // White man on 14 (e4) with a black king on 10 and a black man on 11
    // behind it and empty squares beyond: no capture, only steps.
    assert_eq!(moves("W:W14:BK10,11"), ["14-18", "14-19"]);
    // Black man on 19 with white pieces behind it (22, 23) likewise.
    assert_eq!(moves("B:W22,K23:B19"), ["19-14", "19-15"]);
}

#[test]
fn man_captures_forward_and_capture_is_mandatory() {
    // 14 takes 18 landing on 21; the man on 9 may not step.
    assert_eq!(moves("W:W9,14:B18"), ["14x21x18"]);
    // Black captures downward: f5 (18) over e4 (14) to d3 (11).
    assert_eq!(moves("B:W14,1:B18,32"), ["18x11x14"]);
}

#[test]
fn man_multi_capture_changes_direction() {
    // d3 over c4 to b5, then over c6 to d7.
    assert_eq!(moves("W:W11:B15,23,32"), ["11x27x15x23"]);
}

#[test]
fn man_promotes_at_end_of_quiet_move() {
    let mut p = pos("W:W25:B5");
    let mv = p.parse_move("25-29").unwrap();
    p.play_unchecked(&mv);
    assert_eq!(p.piece_at(sq(29)).map(|x| x.kind), Some(PieceKind::King));
    assert_eq!(p.to_fen(), "B:WK29:B5");
}

#[test]
fn promotion_during_a_capture_ends_the_move() {
    // c6 over d7 reaches e8 and is crowned; as a king it could go on over
    // f7, but the move ends there.
    let p = pos("W:W23:B26,27");
    assert_eq!(moves("W:W23:B26,27"), ["23x30x27"]);
    let after = p.played_unchecked(&p.legal_moves()[0]);
    assert_eq!(after.to_fen(), "B:WK30:B26");
    // The same for Black: f3 (10) over e2 (6) to d1 (3), crowned there.
    let b = pos("B:W6,7:B10");
    assert_eq!(moves("B:W6,7:B10"), ["10x3x6"]);
    assert_eq!(b.played_unchecked(&b.legal_moves()[0]).to_fen(), "W:W7:BK3");
    // For the maximum rule the promoting capture counts one piece: 24x31
    // (crowned on 31, where a king could go on over 22) loses to 9x27
    // taking 13 and 22.
    assert_eq!(moves("W:W9,24:B13,22,28"), ["9x27x13x22"]);
    assert_eq!(moves("W:W24:B22,28"), ["24x31x28"]);
}

// ---- kings --------------------------------------------------------------

#[test]
fn king_flies_until_blocked() {
    // h1 up the long diagonal to b7, a8 holds a black man with no square
    // behind it, so there is no capture.
    assert_eq!(
        moves("W:WK1:B32"),
        ["1-10", "1-14", "1-19", "1-23", "1-28", "1-5"]
    );
}

#[test]
fn king_captures_at_distance_with_several_landing_squares() {
    assert_eq!(moves("W:WK1:B19"), ["1x23x19", "1x28x19", "1x32x19"]);
}

#[test]
fn king_landing_squares_continue_differently() {
    // After taking 14 the king may land on 19, 23, 28 or 32. From 19 it can
    // go on over 26 (two pieces); from 23 over 27 and then 26 (three
    // pieces), finishing on 21 or 17. Only the three-piece captures remain.
    assert_eq!(moves("W:WK1:B14,26,27"), ["1x17x14x26x27", "1x21x14x26x27"]);
}

#[test]
fn king_capture_may_end_on_its_starting_square() {
    // The king's square counts as empty during the capture: from 6 it takes
    // 11, 19, 18 and 10 round the diamond and may land on 6 again.
    let v = moves("W:WK6:B10,11,18,19");
    assert!(v.contains(&"6x6x10x11x18x19".to_string()), "{v:?}");
    assert!(
        v.iter().all(|m| m.split('x').count() == 6),
        "four pieces each"
    );
    let p = pos("W:WK6:B10,11,18,19");
    let mv = p.parse_move("6x6x10x11x18x19").unwrap();
    assert_eq!(p.played_unchecked(&mv).to_fen(), "B:WK6:B");
}

#[test]
fn captured_pieces_stay_and_block() {
    // h1 x f3 -> d5 x e6 -> f7 x g6 -> h5. From h5 the way back down-left
    // passes f3, which is still on the board: the king cannot go on to take
    // e2 (6). Were f3 lifted at once, 1x3 capturing four would exist.
    assert_eq!(moves("W:WK1:B6,10,21,22"), ["1x17x10x21x22"]);
}

#[test]
fn no_piece_is_jumped_twice() {
    // A king between two black men on one diagonal: it takes one and cannot
    // come back over it to take the other side again.
    let v = moves("W:WK14:B10,19");
    assert!(v.iter().all(|m| m.matches('x').count() == 2), "{v:?}");
    // Same king, each capture takes exactly one piece once.
    assert!(v.contains(&"14x23x19".to_string()));
}

#[test]
fn same_from_to_captured_is_one_move() {
    // After taking 10 the king may land on 14 or 19 and then take 23 from
    // either: both paths give (1, 28, {10, 23}) and (1, 32, {10, 23}).
    assert_eq!(moves("W:WK1:B10,23"), ["1x28x10x23", "1x32x10x23"]);
}

// ---- the maximum rule -----------------------------------------------------

#[test]
fn maximum_number_of_pieces_is_mandatory() {
    // 9 could take one (13), 11 takes two (15, 23): only 11's capture.
    assert_eq!(moves("W:W9,11:B13,15,23"), ["11x27x15x23"]);
}

#[test]
fn equal_count_then_most_kings() {
    // 9 takes a man on 13, 11 takes a king on 15: the king must be taken.
    assert_eq!(moves("W:W9,11:B13,K15"), ["11x20x15"]);
    // Pieces first: two men beat one king.
    assert_eq!(moves("W:W9,11:B13,22,K15"), ["9x27x13x22"]);
}

#[test]
fn king_tie_break_between_king_captures() {
    // A king on 1 takes 10 and lands on 14; from there it can take the man
    // on 18 (up-right) or the king on 19 (up-left). With 19 a man both are
    // legal; with 19 a king only the king capture is.
    assert_eq!(
        moves("W:WK1:B10,18,19"),
        [
            "1x21x10x18",
            "1x23x10x19",
            "1x25x10x18",
            "1x28x10x19",
            "1x32x10x19"
        ]
    );
    assert_eq!(
        moves("W:WK1:B10,18,K19"),
        ["1x23x10x19", "1x28x10x19", "1x32x10x19"]
    );
}

// ---- notation -------------------------------------------------------------

#[test]
fn long_form_when_two_captures_share_from_and_to() {
    let p = pos("W:W11:B14,15,22,23");
    let mut texts: Vec<String> = p.legal_moves().iter().map(|m| p.move_text(m)).collect();
    texts.sort();
    assert_eq!(texts, ["11x27x14x22", "11x27x15x23"]);
    match p.parse_move("11x27") {
        Err(MoveParseError::Ambiguous { candidates, .. }) => assert_eq!(candidates.len(), 2),
        other => panic!("{other:?}"),
    }
    let m = p.parse_move("11x27x23x15").unwrap();
    assert_eq!(p.move_text(&m), "11x27x15x23");
    assert!(matches!(
        p.parse_move("11x27x14x23"),
        Err(MoveParseError::Illegal { .. })
    ));
}

#[test]
fn short_form_for_unique_captures_and_long_form_accepted() {
    let p = pos("W:W9,14:B18");
    let m = p.parse_move("14x21").unwrap();
    assert_eq!(p.move_text(&m), "14x21");
    assert_eq!(p.parse_move("14x21x18"), Ok(m));
    assert_eq!(
        m.captured().iter().map(|s| s.number()).collect::<Vec<_>>(),
        [18]
    );
}

#[test]
fn move_parse_errors() {
    let p = Position::start();
    assert_eq!(p.parse_move("  "), Err(MoveParseError::Empty));
    assert!(matches!(
        p.parse_move("11"),
        Err(MoveParseError::Malformed { .. })
    ));
    assert!(matches!(
        p.parse_move("11-15x3"),
        Err(MoveParseError::Malformed { .. })
    ));
    assert!(matches!(
        p.parse_move("11-15-19"),
        Err(MoveParseError::Malformed { .. })
    ));
    assert!(matches!(
        p.parse_move("0-4"),
        Err(MoveParseError::BadSquare { .. })
    ));
    assert!(matches!(
        p.parse_move("11-33"),
        Err(MoveParseError::BadSquare { .. })
    ));
    assert!(matches!(
        p.parse_move("a-b"),
        Err(MoveParseError::BadSquare { .. })
    ));
    assert!(matches!(
        p.parse_move("11-16"),
        Err(MoveParseError::Illegal { .. })
    ));
    assert!(matches!(
        p.parse_move("11x15"),
        Err(MoveParseError::Illegal { .. })
    ));
    let e = pos("W:W9,14:B18").parse_move("9-13").unwrap_err();
    assert_eq!(e.to_string(), "illegal move '9-13': a capture is mandatory");
    assert_eq!(p.parse_move(" 11-15 ").map(|m| m.to().number()), Ok(15));
}

#[test]
fn refused_moves_carry_their_reason_and_text_beside_the_sentence() {
    let cases = [
        (
            "W:W1-12:B21-32",
            "11-16",
            IllegalReason::NotLegal,
            "illegal move '11-16'",
        ),
        (
            "W:W1-12:B21-32",
            "11x15",
            IllegalReason::NotACapture,
            "illegal move '11x15': that move does not capture",
        ),
        (
            "W:W9,14:B13,18,26",
            "9-13",
            IllegalReason::CaptureMandatory,
            "illegal move '9-13': a capture is mandatory",
        ),
        (
            "W:W14:B18,19,26,27",
            "14x30",
            IllegalReason::Ambiguous,
            "ambiguous move '14x30': could be 14x30x19x27 or 14x30x18x26",
        ),
        (
            "W:W14:B18,19,26,27",
            "14x30x18x27",
            IllegalReason::WrongCaptures,
            "illegal move '14x30x18x27': no legal capture takes exactly those pieces",
        ),
    ];
    for (fen, text, reason, sentence) in cases {
        let mut game = Draughts::new(pos(fen));
        let error = game.play_text(text).unwrap_err();
        assert_eq!(
            error,
            PlayError::Illegal(IllegalMove::new(reason, text, sentence)),
            "{fen} {text}"
        );
        assert_eq!(error.to_string(), sentence);
        assert_eq!(error.code(), reason.code());
    }
    let mut game = Draughts::default();
    let error = game.play_text("11").unwrap_err();
    assert_eq!(
        error,
        PlayError::Notation("malformed move '11': expected '-' or 'x' between squares".into())
    );
    assert_eq!(error.code(), "notation");
}

// ---- FEN --------------------------------------------------------------------

#[test]
fn fen_with_kings_and_ranges() {
    let p = pos("B:W18,K3:BK30,22");
    assert_eq!(p.to_move(), Color::Black);
    assert_eq!(
        p.kings(Color::White)
            .iter()
            .map(|s| s.number())
            .collect::<Vec<_>>(),
        [3]
    );
    assert_eq!(
        p.men(Color::White)
            .iter()
            .map(|s| s.number())
            .collect::<Vec<_>>(),
        [18]
    );
    assert_eq!(
        p.kings(Color::Black)
            .iter()
            .map(|s| s.number())
            .collect::<Vec<_>>(),
        [30]
    );
    assert_eq!(p.to_fen(), "B:WK3,18:B22,K30");
    assert_eq!(pos("W:B21-32:W1-12"), Position::start());
    assert_eq!(pos(" W:W1-12:B21-32. "), Position::start());
    assert_eq!(pos("W:WK1-3:B29"), pos("W:WK1,K2,K3:B29"));
    assert_eq!("W:W1-12:B21-32".parse::<Position>(), Ok(Position::start()));
    assert_eq!(format!("{}", Position::start()), "W:W1-12:B21-32");
    assert_eq!(pos("W:W:B").to_fen(), "W:W:B");
}

#[test]
fn fen_errors_say_what_and_where() {
    let err = |f: &str| Position::from_fen(f).unwrap_err();
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err("W"), FenError::ExpectedColon);
    assert!(matches!(err("X:W1:B32"), FenError::BadSide { .. }));
    assert_eq!(
        err("W:W1-12,33:B21-32").to_string(),
        "square 33 out of range in white pieces (1-32)"
    );
    assert_eq!(
        err("W:W1:B0").to_string(),
        "square 0 out of range in black pieces (1-32)"
    );
    assert!(matches!(
        err("W:W1,x:B32"),
        FenError::BadSquare {
            color: Color::White,
            ..
        }
    ));
    assert!(matches!(err("W:W5-3:B32"), FenError::BadRange { .. }));
    assert_eq!(err("W:W1,1:B32"), FenError::DuplicateSquare { square: 1 });
    assert_eq!(err("W:W1:B1"), FenError::BothColors { square: 1 });
    assert_eq!(
        err("W:W1:W2"),
        FenError::DuplicateList {
            color: Color::White
        }
    );
    assert_eq!(
        err("W:W1"),
        FenError::MissingList {
            color: Color::Black
        }
    );
    assert!(matches!(err("W:X1:B2"), FenError::BadListColor { .. }));
    assert_eq!(
        err("W:W30:B1"),
        FenError::ManOnLastRow {
            color: Color::White,
            square: 30
        }
    );
    assert!(matches!(
        err("W:W99999999999999999999:B1"),
        FenError::OutOfRange { .. }
    ));
}

// ---- end of game ------------------------------------------------------------

#[test]
fn blocked_side_loses() {
    // Black's man on 5 (g2) is blocked by white men on 1 and 2 (edge behind
    // them), and Black has no other piece.
    let g = Draughts::new(pos("B:W1,2:B5"));
    assert!(g.legal_moves().is_empty());
    assert_eq!(
        g.status(),
        GameStatus::Win {
            winner: Color::White,
            reason: WinReason::NoMoves
        }
    );
}

#[test]
fn side_without_pieces_loses() {
    let mut g = Draughts::new(pos("W:W14:B18"));
    g.play_text("14x21").unwrap();
    assert_eq!(
        g.status(),
        GameStatus::Win {
            winner: Color::White,
            reason: WinReason::NoPieces
        }
    );
    assert_eq!(g.play_text("21-25"), Err(PlayError::GameOver));
}

#[test]
fn threefold_repetition_is_a_draw() {
    let mut g = Draughts::new(pos("W:WK4:BK29"));
    let cycle = ["4-7", "29-26", "7-4", "26-29"];
    for (i, m) in cycle.iter().chain(cycle.iter()).enumerate() {
        assert_eq!(g.status(), GameStatus::Ongoing, "before ply {i}");
        g.play_text(m).unwrap();
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(
        g.status(),
        GameStatus::Draw {
            reason: DrawReason::Repetition
        }
    );
    // Taking one move back: only two occurrences.
    g.undo();
    assert_eq!(g.status(), GameStatus::Ongoing);
}

#[test]
fn repetition_needs_the_same_side_to_move() {
    // The white king walks a closed five-move cycle while the black king
    // shuffles, then the roles swap: the start board recurs after 9 plies
    // with Black to move, after 18 with White to move (second occurrence),
    // and so on. Only the third occurrence with White to move (ply 36) is a
    // draw, although the board has been seen five times by then.
    let mut g = Draughts::new(pos("W:WK8:BK24"));
    let start = *g.position();
    let cycle = [
        "8-12", "24-31", "12-15", "31-24", "15-19", "24-31", "19-26", "31-24", "26-8", "24-28",
        "8-26", "28-31", "26-8", "31-27", "8-26", "27-20", "26-8", "20-24",
    ];
    for (i, m) in cycle.iter().chain(cycle.iter()).enumerate() {
        assert_eq!(g.status(), GameStatus::Ongoing, "before ply {}", i + 1);
        g.play_text(m).unwrap();
        if i + 1 == 9 || i + 1 == 27 {
            let p = g.position();
            assert_eq!(p.to_fen(), "B:WK8:BK24", "same board, Black to move");
            assert_ne!(*p, start);
            assert_ne!(p.hash(), start.hash());
        }
    }
    assert_eq!(g.position(), &start);
    assert_eq!(g.repetitions(), 3);
    assert_eq!(
        g.status(),
        GameStatus::Draw {
            reason: DrawReason::Repetition
        }
    );
}

/// Walks `plies` quiet king moves without any capture becoming possible and
/// without any position occurring twice (depth-first with backtracking).
fn quiet_walk(g: &mut Draughts, plies: u32) -> bool {
    if plies == 0 {
        return true;
    }
    let moves = g.legal_moves();
    for mv in &moves {
        if mv.is_capture()
            || !g
                .position()
                .kings(g.position().to_move())
                .contains(mv.from())
        {
            continue;
        }
        let next = g.position().played_unchecked(mv);
        if next.has_capture() || g.history_hashes().contains(&next.hash()) {
            continue;
        }
        g.play(*mv).unwrap();
        if quiet_walk(g, plies - 1) {
            return true;
        }
        g.undo();
    }
    false
}

#[test]
fn eighty_plies_without_progress_is_a_draw() {
    let mut g = Draughts::new(pos("W:WK1,K2,12:BK31,K32,21"));
    assert!(quiet_walk(&mut g, NO_PROGRESS_PLIES - 1));
    assert_eq!(g.plies_without_progress(), 79);
    assert_eq!(g.status(), GameStatus::Ongoing);
    assert!(quiet_walk(&mut g, 1));
    assert_eq!(g.plies_without_progress(), 80);
    assert_eq!(
        g.status(),
        GameStatus::Draw {
            reason: DrawReason::NoProgress
        }
    );
}

#[test]
fn a_win_on_the_eightieth_ply_beats_the_no_progress_draw() {
    // Black to move; only the two kings move (no capture, no man move, no
    // position three times). On the 80th ply White's king lands on 12: the
    // black king on 8 is walled in by 4 and 12 (15 behind 12), so Black has
    // no move at the very ply the no-progress count reaches 80. The win
    // takes precedence.
    let mut g = Draughts::new(pos("B:W4,15,19,K29:BK26"));
    let plies = "26-17 29-25 17-30 25-18 30-16 18-14 16-30 14-10 30-26 10-5 26-21 5-10 21-25 10-17 25-29 17-30 29-25 30-17 25-29 17-10 29-26 10-3 26-17 3-12 17-21 12-16 21-26 16-30 26-29 30-21 29-25 21-26 25-18 26-29 18-21 29-25 21-17 25-7 17-13 7-11 13-9 11-14 9-31 14-21 31-13 21-30 13-18 30-16 18-14 16-23 14-21 23-27 21-17 27-30 17-13 30-20 13-9 20-16 9-13 16-3 13-9 3-17 9-27 17-3 27-18 3-6 18-25 6-13 25-21 13-3 21-30 3-16 30-17 16-23 17-3 23-30 3-12 30-16 12-8 16-12";
    for (i, m) in plies.split(' ').enumerate() {
        assert_eq!(g.status(), GameStatus::Ongoing, "before ply {}", i + 1);
        g.play_text(m).unwrap();
    }
    assert_eq!(g.position().to_fen(), "B:W4,K12,15,19:BK8");
    assert_eq!(g.plies_without_progress(), NO_PROGRESS_PLIES);
    assert_eq!(
        g.status(),
        GameStatus::Win {
            winner: Color::White,
            reason: WinReason::NoMoves
        }
    );
}

#[test]
fn man_move_and_capture_reset_the_count() {
    let mut g = Draughts::new(pos("W:WK1,K2,12:BK31,K32,21"));
    assert!(quiet_walk(&mut g, 10));
    assert_eq!(g.plies_without_progress(), 10);
    // A man move resets.
    let man_move = g
        .legal_moves()
        .iter()
        .copied()
        .find(|m| !g.position().all_kings().contains(m.from()))
        .expect("a man can move");
    g.play(man_move).unwrap();
    assert_eq!(g.plies_without_progress(), 0);
    assert!(quiet_walk(&mut g, 3));
    assert_eq!(g.plies_without_progress(), 3);
    // A king capture resets too.
    let mut c = Draughts::new(pos("W:WK1,12:B19,21"));
    c.play_text("1-5").unwrap_err();
    assert_eq!(c.play_text("1x23").unwrap(), "1x23");
    assert!(c.moves().last().expect("a move played").is_capture());
    assert_eq!(c.plies_without_progress(), 0);
}

#[test]
fn game_rejects_illegal_moves_and_tracks_history() {
    let mut g = Draughts::default();
    let bogus = Move::new(sq(1), sq(32), Default::default());
    assert_eq!(
        g.play(bogus),
        Err(PlayError::Illegal(IllegalMove::new(
            IllegalReason::NotLegal,
            format!("{bogus:?}"),
            format!("illegal move {bogus:?}")
        )))
    );
    // The text is refused by the parser, with its message and reason.
    let parse_error = g.position().parse_move("11-16").unwrap_err();
    assert_eq!(
        g.play_text("11-16").unwrap_err(),
        PlayError::Illegal(IllegalMove::new(
            IllegalReason::NotLegal,
            "11-16",
            parse_error.to_string()
        ))
    );
    let m = g.parse_move("11-15").unwrap();
    assert_eq!(g.play_text("11-15").unwrap(), "11-15");
    assert_eq!(g.moves(), [m]);
    assert_eq!(
        g.history_hashes(),
        [Position::start().hash(), g.position().hash()]
    );
    assert_eq!(g.start_position(), &Position::start());
    assert!(g.undo());
    assert_eq!(g.moves(), []);
    assert_eq!(g.position(), &Position::start());
    assert_eq!(g.history_hashes(), [Position::start().hash()]);
    assert!(!g.undo());
}

#[test]
fn diagram_shows_pieces_and_numbers() {
    let d = pos("B:WK3,18:B22,K30").diagram();
    assert!(d.contains("Black to move"), "{d}");
    assert!(d.contains('W') && d.contains('B') && d.contains('w') && d.contains('b'));
    assert!(d.contains(" 4  3  2  1"), "{d}");
}

// ---- properties over random games -------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Random games from the start: the incremental hash equals the hash from
    /// scratch, FEN round-trips, and every legal move prints and parses back
    /// to itself.
    #[test]
    fn random_games_keep_invariants(choices in proptest::collection::vec(any::<u16>(), 1..120)) {
        let mut p = Position::start();
        for c in choices {
            prop_assert_eq!(p.hash(), p.compute_hash());
            prop_assert_eq!(Position::from_fen(&p.to_fen()), Ok(p));
            let ms = p.legal_moves();
            for m in &ms {
                let text = p.move_text(m);
                prop_assert_eq!(p.parse_move(&text), Ok(*m), "{} in {}", text, p);
                prop_assert_eq!(p.parse_move(&long_text(m)), Ok(*m));
            }
            if ms.is_empty() {
                break;
            }
            let mv = ms[c as usize % ms.len()];
            p.play_unchecked(&mv);
        }
    }

    /// The same through `Draughts`: moves by text, status consistent with the
    /// position.
    #[test]
    fn random_games_through_game(choices in proptest::collection::vec(any::<u16>(), 1..200)) {
        let mut g = Draughts::default();
        for c in choices {
            if g.status().is_over() {
                break;
            }
            let ms = g.legal_moves();
            let mv = ms[c as usize % ms.len()];
            let text = g.position().move_text(&mv);
            prop_assert_eq!(g.play_text(&text), Ok(text.clone()));
            prop_assert_eq!(g.moves().last(), Some(&mv));
            prop_assert_eq!(*g.history_hashes().last().unwrap(), g.position().compute_hash());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Arbitrary text never makes the FEN or move parsers panic.
    #[test]
    fn parsers_never_panic(text in "[WBKwbkx0-9:,. -]{0,40}", any_text in "\\PC{0,30}") {
        let _ = Position::from_fen(&text);
        let _ = Position::from_fen(&any_text);
        let p = Position::start();
        let _ = p.parse_move(&text);
        let _ = p.parse_move(&any_text);
        if let Ok(q) = Position::from_fen(&text) {
            prop_assert_eq!(Position::from_fen(&q.to_fen()), Ok(q));
            prop_assert_eq!(q.hash(), q.compute_hash());
        }
    }
}

#[test]
fn game_reads_and_writes_its_fen() {
    let game: Draughts = "W:WK4,9:B20,K29".parse().unwrap();
    assert_eq!(
        game.position(),
        &Position::from_fen("W:WK4,9:B20,K29").unwrap()
    );
    assert!(game.moves().is_empty());
    assert_eq!(game.to_string(), game.position().to_fen());
    assert_eq!(
        game.to_string().parse::<Draughts>().unwrap().position(),
        game.position()
    );
    assert_eq!(Draughts::default().to_string(), "W:W1-12:B21-32");
    assert_eq!(
        "W:W1:B1".parse::<Draughts>().err(),
        Position::from_fen("W:W1:B1").err()
    );
}
