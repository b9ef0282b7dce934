//! The game-neutral interface: the same generic code drives Spanish
//! draughts, Chinese checkers and the Japanese variant.

use damas::chinese::{self, Rules, Variant};
use damas::{
    reach_position, same_position, spanish, AnyGame, AnyMove, EndReason, Game, GameKind, GameSpec,
    PlayError, Player,
};

fn specs() -> Vec<GameSpec> {
    vec![
        GameSpec::default(),
        GameSpec::Chinese(Rules::for_players(2)),
        GameSpec::Chinese(Rules::for_players(3)),
        GameSpec::Chinese(Rules::for_players(6)),
        GameSpec::Chinese(Rules {
            players: 2,
            variant: Variant::Japanese,
            ..Rules::default()
        }),
    ]
}

/// Plays the first legal move `plies` times, checking on the way that
/// every legal move's text parses back to the move, and returns the texts.
fn play_first_moves<G: Game>(game: &mut G, plies: usize) -> Vec<String> {
    let mut texts = Vec::new();
    for _ in 0..plies {
        let moves = game.legal_moves();
        for mv in &moves {
            let text = game.move_text(mv);
            assert_eq!(game.parse_move(&text), Ok(*mv), "{text}");
        }
        let Some(&mv) = moves.first() else { break };
        texts.push(game.move_text(&mv));
        game.play(mv).expect("a legal move");
    }
    texts
}

#[test]
fn undo_takes_every_game_back_to_the_start() {
    for spec in specs() {
        let mut game = AnyGame::new(&spec);
        let (text, hash) = (game.position_text(), game.hash());
        let played = play_first_moves(&mut game, 8);
        assert_eq!(played.len(), 8, "{spec:?}");
        assert_ne!(game.hash(), hash);
        for _ in 0..8 {
            assert!(game.undo(), "{spec:?}");
        }
        assert!(!game.undo(), "nothing left to take back");
        assert_eq!(game.position_text(), text, "{spec:?}");
        assert_eq!(game.hash(), hash);
        assert_eq!(game.to_move(), Player::new(0));
    }
}

#[test]
fn play_text_returns_the_canonical_text_and_replays() {
    for spec in specs() {
        let mut game = AnyGame::new(&spec);
        let played = play_first_moves(&mut game, 6);
        let mut replay = AnyGame::new(&spec);
        for text in &played {
            assert_eq!(&replay.play_text(text).expect("legal"), text);
        }
        assert_eq!(replay.position_text(), game.position_text());
        let back = AnyGame::from_text(&spec, &game.position_text()).expect("reads back");
        assert_eq!(back.position_text(), game.position_text());
        assert_eq!(back.hash(), game.hash());
        let again = game
            .read_position(&game.position_text())
            .expect("reads back");
        assert_eq!(again.position_text(), game.position_text());
        assert!(game.read_position("not a position").is_err());
    }
}

/// The generic constructor from text, on the concrete types.
fn round_trip<G: Game>(game: &G) {
    let back = game
        .read_position(&game.position_text())
        .expect("reads back");
    assert_eq!(back.position_text(), game.position_text());
    assert_eq!(back.hash(), game.hash());
}

#[test]
fn position_texts_read_back_through_the_trait() {
    let mut draughts = spanish::Draughts::default();
    play_first_moves(&mut draughts, 5);
    round_trip(&draughts);
    let mut star = chinese::Checkers::new(Rules::for_players(4));
    play_first_moves(&mut star, 9);
    round_trip(&star);
    // Rule fields left out come from the game's rules.
    let strict = chinese::Checkers::new(Rules {
        goal_lock: true,
        ..Rules::default()
    });
    let text = strict
        .read_position("I2 1 e9/f9,h9")
        .expect("valid")
        .position_text();
    assert!(text.split(' ').any(|f| f == "lock=1"), "{text}");
}

#[test]
fn undo_takes_back_an_adjudication_alone_in_both_games() {
    for spec in specs() {
        let mut game = AnyGame::new(&spec);
        play_first_moves(&mut game, 1);
        let after_move = game.position_text();
        game.adjudicate_draw();
        assert_eq!(
            game.outcome().map(|o| o.reason),
            Some(EndReason::Adjudicated)
        );
        assert!(game.undo(), "{spec:?}");
        assert!(!game.is_over());
        assert_eq!(game.position_text(), after_move, "{spec:?}: the move stays");
        assert_eq!(game.to_move(), Player::new(1));
    }
}

#[test]
fn japanese_with_four_players_is_played_and_reported_as_international() {
    let four = GameSpec::Chinese(Rules {
        players: 4,
        variant: Variant::Japanese,
        ..Rules::default()
    });
    assert_eq!(AnyGame::new(&four).kind(), GameKind::Chinese);
    assert_eq!(four.kind(), GameKind::Chinese);
}

#[test]
fn divide_rows_are_canonical_move_texts() {
    for spec in specs() {
        let game = AnyGame::new(&spec);
        let mut rows: Vec<String> = game.divide(1).into_iter().map(|(mv, _)| mv).collect();
        let mut legal = game.legal_moves_text();
        rows.sort();
        legal.sort();
        assert_eq!(rows, legal, "{spec:?}");
    }
}

#[test]
fn kinds_and_player_counts() {
    let kinds: Vec<(GameKind, usize)> = specs()
        .iter()
        .map(|spec| {
            let game = AnyGame::new(spec);
            assert_eq!(game.kind(), spec.kind());
            (game.kind(), game.player_count())
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (GameKind::Spanish, 2),
            (GameKind::Chinese, 2),
            (GameKind::Chinese, 3),
            (GameKind::Chinese, 6),
            (GameKind::Japanese, 2)
        ]
    );
}

#[test]
fn spanish_resignation_and_adjudication() {
    let mut game = spanish::Draughts::default();
    game.play_text("11-15").expect("legal");
    assert_eq!(game.to_move(), Player::new(1));
    Game::resign(&mut game, Player::new(1).expect("p2")).expect("p2 may resign");
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.places, vec![1, 2]);
    assert_eq!(outcome.reason, EndReason::Resignation);
    assert_eq!(outcome.winner(), Player::new(0));
    assert_eq!(game.to_move(), None);
    assert!(Game::legal_moves(&game).is_empty());
    assert_eq!(
        Game::play_text(&mut game, "22-18"),
        Err(PlayError::GameOver)
    );
    // Undo takes the resignation back, then the move.
    assert!(Game::undo(&mut game));
    assert!(game.outcome().is_none());
    assert_eq!(game.to_move(), Player::new(1));
    Game::adjudicate_draw(&mut game);
    let outcome = game.outcome().expect("over");
    assert_eq!(
        (outcome.places.clone(), outcome.reason),
        (vec![1, 1], EndReason::Adjudicated)
    );
    assert!(outcome.is_draw());
    assert!(Game::undo(&mut game));
    assert!(Game::undo(&mut game));
    assert!(!Game::undo(&mut game));
    assert_eq!(game.position_text(), spanish::START_FEN);
    // Spanish draughts has no pass and no third player.
    assert_eq!(Game::pass(&mut game), Err(PlayError::CannotPass(7)));
    let p3 = Player::new(2).expect("p3");
    assert_eq!(Game::resign(&mut game, p3), Err(PlayError::NotPlaying(p3)));
}

#[test]
fn spanish_wins_by_the_rules_have_places_and_reasons() {
    // White to move with no pieces: Black has won.
    let game = AnyGame::from_text(&GameSpec::default(), "W:W:B5").expect("valid FEN");
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.places, vec![2, 1]);
    assert_eq!(outcome.reason, EndReason::NoPieces);
    assert_eq!(outcome.reason.to_string(), "the loser has no pieces");
}

#[test]
fn chinese_resignation_in_three_players_goes_on_for_the_others() {
    let mut game = AnyGame::new(&GameSpec::Chinese(Rules::for_players(3)));
    assert_eq!(game.play_text("resign").as_deref(), Ok("resign"));
    assert_eq!(game.places(), vec![Some(3), None, None]);
    assert!(!game.is_over());
    assert_eq!(game.to_move(), Player::new(1));
    game.adjudicate_draw();
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.places, vec![3, 1, 1]);
    assert_eq!(outcome.reason, EndReason::Adjudicated);
    assert!(outcome.is_draw());
}

#[test]
fn two_player_chinese_resignation_is_a_win_for_the_rival() {
    let mut game = chinese::Checkers::new(Rules::default());
    Game::resign(&mut game, Player::new(0).expect("p1")).expect("playing");
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.winner(), Player::new(1));
}

#[test]
fn moves_of_one_piece_and_bad_squares() {
    let draughts = AnyGame::new(&GameSpec::default());
    let mut from_11: Vec<String> = draughts
        .moves_from(draughts.point("11").expect("a square"))
        .iter()
        .map(|mv| draughts.move_text(mv))
        .collect();
    from_11.sort();
    assert_eq!(from_11, vec!["11-14", "11-15"]);
    assert!(draughts
        .moves_from(draughts.point("1").expect("a square"))
        .is_empty());
    for bad in ["33", "x", "0", ""] {
        assert!(
            matches!(draughts.point(bad), Err(PlayError::BadSquare(_))),
            "{bad}"
        );
    }
    let star = AnyGame::new(&GameSpec::Chinese(Rules::default()));
    assert!(matches!(star.point("z99"), Err(PlayError::BadSquare(_))));
    assert_eq!(star.legal_moves().len(), 14);
    assert_eq!(star.legal_moves_text().len(), 14);
}

#[test]
fn a_move_of_the_other_game_is_refused() {
    let star = AnyGame::new(&GameSpec::Chinese(Rules::default()));
    let draughts = AnyGame::new(&GameSpec::default());
    let AnyMove::Spanish(_) = draughts.legal_moves()[0] else {
        panic!("a Spanish move");
    };
    let mut star = star;
    assert_eq!(
        star.play(draughts.legal_moves()[0]),
        Err(PlayError::WrongGame)
    );
}

#[test]
fn chinese_text_takes_missing_rules_from_the_spec() {
    let rules = Rules {
        anti_blocking: false,
        move_limit: None,
        ..Rules::default()
    };
    let spec = GameSpec::Chinese(rules);
    let text = AnyGame::from_text(&spec, "I2 1 e9/f9,h9")
        .expect("valid text")
        .position_text();
    assert!(text.split(' ').any(|f| f == "anti=0"), "{text}");
    assert!(text.split(' ').any(|f| f == "limit=-"), "{text}");
    // A field in the text wins over the spec.
    let text = AnyGame::from_text(&spec, "I2 1 e9/f9,h9 anti=1")
        .expect("valid text")
        .position_text();
    assert!(text.split(' ').any(|f| f == "anti=1"), "{text}");
}

#[test]
fn chinese_text_of_the_other_variant_is_refused() {
    let japanese = GameSpec::Chinese(Rules {
        variant: Variant::Japanese,
        ..Rules::default()
    });
    let international = AnyGame::new(&GameSpec::Chinese(Rules::default())).position_text();
    assert!(matches!(
        AnyGame::from_text(&japanese, &international),
        Err(damas::PositionError::WrongVariant { .. })
    ));
}

#[test]
fn japanese_with_four_players_warns() {
    let four = GameSpec::Chinese(Rules {
        players: 4,
        variant: Variant::Japanese,
        ..Rules::default()
    });
    assert!(four.rules_warning().is_some());
    assert_eq!(four.kind(), GameKind::Chinese);
    assert!(GameSpec::Chinese(Rules::for_players(3))
        .rules_warning()
        .is_none());
}

#[test]
fn players_read_and_print_as_p1_to_p6() {
    assert_eq!("p3".parse::<Player>().map(Player::index), Ok(2));
    assert_eq!(Player::new(5).map(|p| p.to_string()).as_deref(), Some("p6"));
    for bad in ["p0", "p7", "3", "px", ""] {
        assert!(bad.parse::<Player>().is_err(), "{bad}");
    }
    assert_eq!(Player::new(6), None);
    assert_eq!(Player::all(3).count(), 3);
}

#[test]
fn perft_and_divide_through_the_interface() {
    let draughts = AnyGame::new(&GameSpec::default());
    assert_eq!(draughts.perft(4, 1), 1469);
    assert_eq!(draughts.perft(4, 2), 1469);
    let rows = draughts.divide(3);
    assert_eq!(rows.len(), 7);
    assert_eq!(rows.iter().map(|(_, n)| n).sum::<u64>(), 302);
    let star = AnyGame::new(&GameSpec::Chinese(Rules::default()));
    assert_eq!(star.perft(3, 1), 4760);
    assert_eq!(star.divide(2).iter().map(|(_, n)| n).sum::<u64>(), 196);
}

#[test]
fn perft_and_divide_give_up_once_stopped_and_agree_otherwise() {
    use std::sync::atomic::AtomicBool;
    let raised = AtomicBool::new(true);
    let lowered = AtomicBool::new(false);
    for spec in specs() {
        let game = AnyGame::new(&spec);
        // Deep enough to look at the flag; shallow counts finish anyway.
        assert_eq!(game.perft_until(12, 1, &raised), None, "{spec:?}");
        assert_eq!(game.perft_until(12, 2, &raised), None, "{spec:?}");
        assert_eq!(game.divide_until(12, &raised), None, "{spec:?}");
        assert_eq!(game.perft_until(3, 1, &lowered), Some(game.perft(3, 1)));
        let rows = game.divide_until(3, &lowered).expect("not stopped");
        assert_eq!(rows, game.divide(3));
        assert_eq!(rows.iter().map(|(_, n)| n).sum::<u64>(), game.perft(3, 2));
    }
}

#[test]
fn a_spanish_side_without_pieces_has_lost_when_the_fen_is_read() {
    for (fen, winner) in [("W:W21:B", 0), ("B:W21:B", 0), ("W:W:B5", 1)] {
        let game = AnyGame::from_text(&GameSpec::default(), fen).expect("valid FEN");
        let outcome = game.outcome().expect("over at once");
        assert_eq!(outcome.winner(), Player::new(winner), "{fen}");
        assert_eq!(outcome.reason, EndReason::NoPieces, "{fen}");
    }
}

#[test]
fn a_chinese_goal_full_when_read_is_a_finished_player() {
    let full_north = "j14,k14,l14,m14,k15,l15,m15,l16,m16,m17";
    // Two players: over, p1 first (whatever the text's `s=` says).
    for text in [
        format!("I2 1 {full_north}/e1"),
        format!("I2 2 {full_north}/e1 s=p,p"),
    ] {
        let game = AnyGame::from_text(&GameSpec::Chinese(Rules::for_players(2)), &text)
            .expect("valid text");
        assert_eq!(game.places(), vec![Some(1), Some(2)], "{text}");
    }
    // Three players with p1 to move: p1 has finished and p2 moves.
    let text = format!("I3 1 {full_north}/e9/i9");
    let game =
        AnyGame::from_text(&GameSpec::Chinese(Rules::for_players(3)), &text).expect("valid text");
    assert_eq!(game.places(), vec![Some(1), None, None]);
    assert_eq!(game.to_move(), Player::new(1));
    // Solitaire: a finished transfer is over.
    let game = AnyGame::from_text(
        &GameSpec::Chinese(Rules::for_players(1)),
        &format!("I1 1 {full_north}"),
    )
    .expect("valid text");
    assert!(game.is_over());
    // Anti-blocking decides when a goal counts as full: with it on, one own
    // piece among the rival's pieces finishes; off, it does not.
    let mixed = "I2 1 m17,e9/j14,k14,l14,m14,k15,l15,m15,l16,m16";
    let mut rules = Rules::for_players(2);
    let game = AnyGame::from_text(&GameSpec::Chinese(rules), mixed).expect("valid");
    assert_eq!(game.places(), vec![Some(1), Some(2)]);
    rules.anti_blocking = false;
    let game =
        AnyGame::from_text(&GameSpec::Chinese(rules), &format!("{mixed} anti=0")).expect("valid");
    assert_eq!(game.places(), vec![None, None]);
}

#[test]
fn any_move_ends_are_the_anatomy_ends_in_every_game() {
    // A king capture (1x17 through 23 and 30) as well as the openings of
    // every game: the ends come from the move alone.
    let king = AnyGame::from_text(&GameSpec::default(), "W:WK1:B14,26,27").unwrap();
    let mut games: Vec<AnyGame> = specs().iter().map(AnyGame::new).collect();
    games.push(king);
    let mut checked = 0;
    for mut game in games {
        for _ in 0..6 {
            let moves = game.legal_moves();
            for mv in &moves {
                let anatomy = game.anatomy(mv);
                assert_eq!(
                    mv.ends(),
                    (anatomy.from, anatomy.to),
                    "{}",
                    game.move_text(mv)
                );
                checked += 1;
            }
            match moves.last() {
                Some(&mv) => game.play(mv).unwrap(),
                None => break,
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

/// A new game of `game`'s rules at `game`'s position, without its history.
fn bare<G: Game>(game: &G) -> G {
    game.read_position(&game.position_text())
        .expect("reads back")
}

/// `reach_position` from `start` to the positions after each of `moves`:
/// zero turns to `start` itself, then one and two turns (the game
/// continued, its turns counted), and nothing three turns on.
fn reaches_two_turns_and_no_more<G: Game>(start: &G, moves: [&str; 3]) {
    assert_eq!(
        reach_position(start, &bare(start), 2).map(|g| g.turn_count()),
        Some(0)
    );
    let mut game = start.clone();
    for (played, mv) in moves.iter().enumerate() {
        game.play_text(mv).expect("legal");
        let reached = reach_position(start, &bare(&game), 2);
        if played < 2 {
            let reached = reached.expect("within two turns");
            assert!(same_position(&reached, &game), "{mv}");
            assert_eq!(reached.turn_count(), start.turn_count() + played + 1);
        } else {
            assert!(reached.is_none(), "three turns away");
        }
    }
}

#[test]
fn reach_position_finds_up_to_the_turns_allowed_in_both_games() {
    reaches_two_turns_and_no_more(
        &chinese::Checkers::new(Rules::ccerl()),
        ["e4-e5", "m14-m13", "h4-h5"],
    );
    let kings = spanish::Draughts::default()
        .read_position("W:WK4:BK29")
        .expect("FEN");
    reaches_two_turns_and_no_more(&kings, ["4-8", "29-25", "8-4"]);
    // Another game or number of seats is never reached.
    let three = chinese::Checkers::new(Rules::for_players(3));
    assert!(reach_position(&chinese::Checkers::new(Rules::ccerl()), &three, 2).is_none());
}

#[test]
fn the_same_position_has_the_same_player_to_move() {
    let start = chinese::Checkers::new(Rules::ccerl());
    let text = start.position_text().replacen(" 1 ", " 2 ", 1);
    let other = start.read_position(&text).expect("p2 to move");
    assert!(!same_position(&start, &other));
    assert!(reach_position(&start, &other, 2).is_none());
}

#[test]
fn reach_position_never_passes_through_the_end_of_the_game() {
    // The start seen twice; the second return would be the third, a draw
    // under the CCERL rules, after which no player is to move.
    let mut game = chinese::Checkers::new(Rules::ccerl());
    for mv in [
        "e4-e5", "m14-m13", "e5-e4", "m13-m14", "e4-e5", "m14-m13", "e5-e4",
    ] {
        game.play_text(mv).expect("legal");
    }
    let start = bare(&chinese::Checkers::new(Rules::ccerl()));
    assert!(reach_position(&game, &start, 2).is_none());
    let mut third = game.clone();
    third.play_text("m13-m14").expect("legal");
    assert_eq!(
        third.outcome().map(|o| o.reason),
        Some(EndReason::Repetition)
    );
}
