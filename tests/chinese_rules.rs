//! Rule cases of Chinese checkers with concrete positions, plus property
//! tests of hashing, the position text and the move text.

use damas::chinese::{
    Cell, Checkers, EndReason, Mask, Move, PlayerState, Position, Rules, Triangle, Turn, Variant,
};
use damas::{Game, PlayError, Player};
use proptest::prelude::*;
use std::str::FromStr;

/// The player alone in first place, as a seat index (`None` while the
/// game goes on or when the first place is shared).
fn winner(g: &Checkers) -> Option<usize> {
    g.outcome().and_then(|o| o.winner()).map(Player::index)
}

/// The player in seat `index` (0-based).
fn seat(index: usize) -> Player {
    Player::new(index).expect("a seat")
}

/// The last move in the record.
fn last_move(g: &Checkers) -> Option<Move> {
    g.history().iter().rev().find_map(|t| match t {
        Turn::Move { mv, .. } => Some(*mv),
        _ => None,
    })
}

fn c(name: &str) -> Cell {
    name.parse().unwrap()
}

fn game(text: &str) -> Checkers {
    Checkers::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn dests(g: &Checkers, from: &str) -> Mask {
    g.position().destinations(c(from))
}

/// Names of the ten North-triangle points (the goal of player 1 in a
/// 2-player game), `except` left out.
fn north(except: &[&str]) -> Vec<String> {
    Triangle::North
        .cells()
        .iter()
        .map(|c| c.to_string())
        .filter(|n| !except.contains(&n.as_str()))
        .collect()
}

#[test]
fn cell_names_and_seats() {
    assert_eq!(Triangle::North.cells().count(), 10);
    assert_eq!(
        north(&[]).join(","),
        "j14,k14,l14,m14,k15,l15,m15,l16,m16,m17"
    );
    let g = Checkers::new(Rules::default());
    assert_eq!(g.position().pieces(0), Triangle::South.cells());
    assert_eq!(g.position().pieces(1), Triangle::North.cells());
}

#[test]
fn seed_a_b_c_d_e_two_jumps_in_a_line() {
    // A=e9 own piece, B=f9 and D=h9 pieces, C=g9 and E=i9 empty.
    let mut g = game("I2 1 e9/f9,h9");
    assert!(dests(&g, "e9").contains(c("g9")));
    assert!(dests(&g, "e9").contains(c("i9")));
    let mv = Move::new(c("e9"), c("i9"));
    assert_eq!(g.move_text(&mv), "e9-g9-i9");
    g.play_text("e9-g9-i9").unwrap();
    let pos = g.position();
    assert!(pos.pieces(1).contains(c("f9")) && pos.pieces(1).contains(c("h9")));
    assert!(pos.pieces(0).contains(c("i9")));
    assert_eq!(pos.occupied().count(), 3);
}

#[test]
fn chain_changes_direction() {
    // e9 over f9 to g9 (east), then over h10 to i11 (north-east).
    let mut g = game("I2 1 e9/f9,h10");
    let mv = Move::new(c("e9"), c("i11"));
    assert!(g.position().is_legal(&mv));
    assert_eq!(g.move_text(&mv), "e9-g9-i11");
    assert_eq!(g.play_text("e9-i11").unwrap(), "e9-g9-i11");
    match &g.history()[0] {
        Turn::Move {
            path, mv: played, ..
        } => {
            assert_eq!(*played, mv);
            assert_eq!(path.len(), 3);
        }
        t => panic!("{t:?}"),
    }
}

#[test]
fn no_landing_twice() {
    // Landings e9 -> g9 -> g11 -> e9 form a triangle around f9, g10, f10.
    let g = game("I2 1 e9/f9,g10,f10");
    let d = dests(&g, "e9");
    assert!(d.contains(c("g9")) && d.contains(c("g11")));
    assert!(!d.contains(c("e9")), "the start is never a destination");
    // Steps: the three free neighbours (d8, e8, d9 are on the star).
    assert_eq!(
        d.count(),
        2 + (c("e9").neighbours() & !g.position().occupied()).count()
    );
    // A written path landing twice on g9 is refused.
    let mut g2 = g.clone();
    assert!(matches!(
        g2.play_text("e9-g9-g11-g9"),
        Err(PlayError::Illegal(_))
    ));
    assert!(g2.play_text("e9-g11-g9").is_ok());
}

#[test]
fn jump_blocked_by_occupied_landing() {
    let g = game("I2 1 e9,g9/f9");
    let d = dests(&g, "e9");
    assert!(!d.contains(c("g9")));
    assert!(!d.contains(c("i9")));
    let mut g = g;
    assert!(matches!(g.play_text("e9-g9"), Err(PlayError::Illegal(_))));
}

fn goal_minus_j14_text(anti: u8) -> String {
    // Player 1: eight North points and j13 next to the free j14; player 2 on
    // m17 (a rival piece in player 1's goal) and e1.
    let own = north(&["j14", "m17"]).join(",");
    format!("I2 1 j13,{own}/e1,m17 anti={anti}")
}

#[test]
fn anti_blocking_finish_with_rival_in_goal() {
    let mut g = game(&goal_minus_j14_text(1));
    g.play_text("j13-j14").unwrap();
    assert!(g.is_over());
    assert_eq!(g.player_states()[0], PlayerState::Finished { place: 1 });
    assert_eq!(g.player_states()[1], PlayerState::Placed { place: 2 });
    assert_eq!(winner(&g), Some(0));
    assert_eq!(g.end_reason(), Some(EndReason::FirstFinisher));
}

#[test]
fn anti_blocking_off_needs_all_own_pieces() {
    let mut g = game(&goal_minus_j14_text(0));
    g.play_text("j13-j14").unwrap();
    assert!(!g.is_over());
    assert_eq!(g.to_move(), Player::new(1));
    // With all ten own pieces it finishes.
    let own = north(&["j14"]).join(",");
    let mut g = game(&format!("I2 1 j13,{own}/e1 anti=0"));
    g.play_text("j13-j14").unwrap();
    assert_eq!(winner(&g), Some(0));
}

/// Three players: player 1 one step from finishing (North), player 2 one
/// step from finishing (South-east, j6 next to j5), player 3 far away.
fn three_player_race(end: u8) -> Checkers {
    let p1 = north(&["j14"]).into_iter().chain(["j13".into()]);
    let p2 = Triangle::SouthEast
        .cells()
        .iter()
        .map(|c| c.to_string())
        .filter(|n| n != "j5")
        .chain(["j6".into()]);
    let t = format!(
        "I3 1 {}/{}/i9 end={end}",
        p1.collect::<Vec<_>>().join(","),
        p2.collect::<Vec<_>>().join(",")
    );
    game(&t)
}

#[test]
fn play_to_end_ranks_three_players() {
    let mut g = three_player_race(1);
    g.play_text("j13-j14").unwrap();
    assert!(!g.is_over());
    assert_eq!(g.player_states()[0], PlayerState::Finished { place: 1 });
    assert_eq!(g.to_move(), Player::new(1));
    g.play_text("j6-j5").unwrap();
    assert!(g.is_over());
    assert_eq!(
        g.ranking(),
        vec![
            (0, PlayerState::Finished { place: 1 }),
            (1, PlayerState::Finished { place: 2 }),
            (2, PlayerState::Placed { place: 3 }),
        ]
    );
    assert_eq!(winner(&g), Some(0));
}

#[test]
fn stop_at_first_finisher() {
    let mut g = three_player_race(0);
    g.play_text("j13-j14").unwrap();
    assert!(g.is_over());
    assert_eq!(g.end_reason(), Some(EndReason::FirstFinisher));
    // The others are ranked by pieces in goal: player 2 has nine.
    assert_eq!(g.player_states()[1], PlayerState::Placed { place: 2 });
    assert_eq!(g.player_states()[2], PlayerState::Placed { place: 3 });
}

#[test]
fn pass_only_when_no_move() {
    // Player 2's only piece on m17 is walled in by l16, m16 and the points
    // behind them (k15, m15).
    let mut g = game("I2 1 e9,l16,m16,k15,m15/m17");
    assert!(matches!(g.play_text("pass"), Err(PlayError::CannotPass(_))));
    g.play_text("e9-e10").unwrap();
    // Player 2 passed automatically; player 1 is to move again.
    assert_eq!(g.history().last(), Some(&Turn::Pass { player: 1 }));
    assert_eq!(g.to_move(), Player::new(0));
    // Loaded with player 2 to move, `pass` is the one legal action.
    let mut g = game("I2 2 e9,l16,m16,k15,m15/m17");
    assert!(g.legal_moves().is_empty());
    g.play_text("pass").unwrap();
    assert_eq!(g.to_move(), Player::new(0));
}

#[test]
fn resignation_with_two_players() {
    let mut g = Checkers::new(Rules::default());
    g.play_text("resign").unwrap();
    assert!(g.is_over());
    assert_eq!(winner(&g), Some(1));
    assert_eq!(g.player_states()[0], PlayerState::Resigned { place: 2 });
    assert_eq!(g.play_text("e4-e5"), Err(PlayError::GameOver));
}

#[test]
fn resignation_with_three_players() {
    let mut g = Checkers::new(Rules::for_players(3));
    let first = g.legal_moves()[0];
    g.play(first).unwrap();
    assert_eq!(g.to_move(), Player::new(1));
    let before = g.position().pieces(1);
    g.play_text("resign").unwrap();
    assert!(!g.is_over());
    assert_eq!(g.player_states()[1], PlayerState::Resigned { place: 3 });
    assert_eq!(g.to_move(), Player::new(2));
    let mv = g.legal_moves()[0];
    g.play(mv).unwrap();
    assert_eq!(g.to_move(), Player::new(0));
    let mv = g.legal_moves()[0];
    g.play(mv).unwrap();
    assert_eq!(
        g.to_move(),
        Player::new(2),
        "the resigner's turns are skipped"
    );
    assert_eq!(g.position().pieces(1), before, "its pieces stay");
    // A second resignation ends the game: the last player takes first place.
    g.play_text("resign").unwrap();
    assert!(g.is_over());
    assert_eq!(g.player_states()[2], PlayerState::Resigned { place: 2 });
    assert_eq!(winner(&g), Some(0));
}

#[test]
fn move_limit_draw() {
    let rules = Rules {
        move_limit: Some(2),
        ..Rules::default()
    };
    let mut g = Checkers::new(rules);
    for _ in 0..3 {
        let mv = g.legal_moves()[0];
        g.play(mv).unwrap();
        assert!(!g.is_over());
    }
    let mv = g.legal_moves()[0];
    g.play(mv).unwrap();
    assert!(g.is_over());
    assert_eq!(g.end_reason(), Some(EndReason::MoveLimit));
    assert!(g.outcome().expect("over").is_draw());
    assert_eq!(g.player_states(), &[PlayerState::Placed { place: 1 }; 2]);
}

#[test]
fn no_progress_ranking() {
    // Records that cannot be beaten, five quiet rounds already, limit six:
    // the round completed by these two moves ends the game.
    let base = "I2 1 m17,i9/e1,i10 rounds=5 progress=- best=10:0,10:0 noprog=6";
    let mut g = game(base);
    g.play_text("i9-h9").unwrap();
    assert!(!g.is_over());
    g.play_text("i10-j10").unwrap();
    assert!(g.is_over());
    assert_eq!(g.end_reason(), Some(EndReason::NoProgressLimit));
    let pos = g.position();
    assert_eq!(pos.pieces_in_goal(0), 1);
    assert_eq!(pos.pieces_in_goal(1), 1);
    assert!(pos.goal_distance(0) < pos.goal_distance(1));
    assert_eq!(g.player_states()[0], PlayerState::Placed { place: 1 });
    assert_eq!(g.player_states()[1], PlayerState::Placed { place: 2 });
    // Pieces in goal come before distance: player 2 with two in goal wins.
    let mut g = game("I2 1 m17,i9/e1,e2,i10 rounds=5 progress=- best=10:0,10:0 noprog=6");
    g.play_text("i9-h9").unwrap();
    g.play_text("i10-j10").unwrap();
    assert_eq!(winner(&g), Some(1));
}

#[test]
fn king_jumps_a_line_of_three() {
    let g = game("J2 1 e9*/f9,g9,h9");
    let d = dests(&g, "e9");
    assert!(d.contains(c("i9")));
    assert!(!d.contains(c("g9")));
    assert_eq!(g.move_text(&Move::new(c("e9"), c("i9"))), "e9-i9");
    // A king inside the line stops it.
    let g = game("J2 1 e9*/f9,g9*,h9");
    assert!(!dests(&g, "e9").contains(c("i9")));
    // Chains of line jumps: e9 over f9..h9 to i9, then over i10 to i11.
    let g = game("J2 1 e9*/f9,g9,h9,i10");
    assert!(dests(&g, "e9").contains(c("i11")));
}

#[test]
fn ordinary_piece_cannot_jump_a_king() {
    let g = game("J2 1 e9/f9*");
    assert!(!dests(&g, "e9").contains(c("g9")));
    let g = game("J2 1 e9,f9*/m17*");
    assert!(!dests(&g, "e9").contains(c("g9")), "not even its own king");
    let g = game("J2 1 e9/f9,m17*");
    assert!(dests(&g, "e9").contains(c("g9")));
}

#[test]
fn japanese_camp_restriction() {
    // Three players: e9, f10 and e10 are in player 2's (North-west) camp.
    let nw = Triangle::NorthWest.camp();
    assert!(nw.contains(c("e9")) && nw.contains(c("e10")) && nw.contains(c("f10")));
    let g = game("J3 1 f9/i9*/i7*");
    let d = dests(&g, "f9");
    assert!(
        !d.contains(c("e9")) && !d.contains(c("f10")),
        "may not step into it"
    );
    assert!(d.contains(c("e8")) && d.contains(c("g10")));
    // g10 over f10 to e10 (in the camp) then over e9 to e8: passing is fine.
    let g = game("J3 1 g10/f10,e9/i7*");
    let d = dests(&g, "g10");
    assert!(!d.contains(c("e10")));
    assert!(d.contains(c("e8")));
    assert_eq!(g.move_text(&Move::new(c("g10"), c("e8"))), "g10-e10-e8");
    // Player 2 may end in its own camp.
    let g = game("J3 2 f9/f10/i7*");
    assert!(dests(&g, "f10").contains(c("e10")));
    // International rules: no restriction.
    let g = game("I3 1 f9/i9/i7");
    assert!(dests(&g, "f9").contains(c("e9")));
}

#[test]
fn japanese_king_on_tip_finish() {
    // All North camp points but the tip hold player 1's ordinary pieces; the
    // king on m12 jumps the line m13..m16 to the tip m17.
    let camp = Triangle::North.camp();
    let own: Vec<String> = camp
        .iter()
        .filter(|&x| x != c("m17"))
        .map(|x| x.to_string())
        .collect();
    assert_eq!(own.len(), 14);
    let text = format!("J2 1 m12*,{}/e1*", own.join(","));
    let mut g = game(&text);
    assert!(!g.position().has_finished(0, true));
    g.play_text("m12-m17").unwrap();
    assert!(g.is_over());
    assert_eq!(winner(&g), Some(0));
    // A full camp without the king on the tip does not finish.
    let all: Vec<String> = camp.iter().map(|x| x.to_string()).collect();
    let g = game(&format!("J2 1 {}/e1*", all.join(",")));
    assert!(!g.position().has_finished(0, true));
}

#[test]
fn japanese_with_four_players_falls_back() {
    let rules = Rules {
        players: 4,
        variant: Variant::Japanese,
        ..Rules::default()
    };
    assert!(rules.variant_fallback());
    let g = Checkers::new(rules);
    assert_eq!(g.position().variant(), Variant::International);
    assert_eq!(g.position().pieces(0).count(), 10);
    assert_eq!(Checkers::from_str(&g.to_string()).unwrap(), g);
}

#[test]
fn goal_lock() {
    let text = "I2 1 j14,e9/e1 lock=1";
    let g = game(text);
    let d = dests(&g, "j14");
    assert!(!d.contains(c("j13")), "may not leave the goal");
    assert!(d.contains(c("k14")));
    // Off: it may leave.
    let g = game("I2 1 j14,e9/e1 lock=0");
    assert!(dests(&g, "j14").contains(c("j13")));
    // Pieces outside the goal are free.
    let g = game(text);
    assert!(dests(&g, "e9").contains(c("e8")));
}

#[test]
fn a_game_may_start_with_any_seat() {
    let rules = Rules::for_players(3);
    let g = Checkers::with_first_player(rules, 2);
    assert_eq!(g.to_move(), Player::new(2));
    assert_eq!(
        damas::Game::first_player(&g),
        Player::new(2).expect("a seat")
    );
}

#[test]
fn text_errors_are_typed() {
    use damas::chinese::TextError;
    assert!(matches!(Checkers::from_str(""), Err(TextError::Missing(_))));
    assert!(matches!(
        Checkers::from_str("X2 1 e1/m17"),
        Err(TextError::Header(_))
    ));
    assert!(matches!(
        Checkers::from_str("I2 3 e1/m17"),
        Err(TextError::ToMove(_))
    ));
    assert!(matches!(
        Checkers::from_str("I2 1 e1"),
        Err(TextError::Pieces(_))
    ));
    assert!(matches!(
        Checkers::from_str("I2 1 e1/z9"),
        Err(TextError::Cell(_))
    ));
    assert!(matches!(
        Checkers::from_str("I2 1 e1/e1"),
        Err(TextError::Overlap(_))
    ));
    assert!(matches!(
        Checkers::from_str("I2 1 e1/m17 foo=1"),
        Err(TextError::Field(_))
    ));
    assert!(matches!(
        Checkers::from_str("I2 1 e1*/m17"),
        Err(TextError::King(_))
    ));
}

#[test]
fn diagram_shows_every_player() {
    let g = Checkers::new(Rules {
        players: 3,
        variant: Variant::Japanese,
        ..Rules::default()
    });
    let d = g.diagram();
    for ch in ['1', '2', '3', 'A', 'B', 'C'] {
        assert!(d.contains(ch), "{d}");
    }
    assert_eq!(d.lines().count(), 18);
}

/// A game after `plies` random actions (moves, sometimes resignations).
fn random_game(seed: u64, plies: usize) -> Checkers {
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let n = 1 + (next() % 6) as u8;
    let variant = if next() % 2 == 0 {
        Variant::Japanese
    } else {
        Variant::International
    };
    let rules = Rules {
        players: n,
        variant,
        goal_lock: next() % 3 == 0,
        anti_blocking: next() % 2 == 0,
        play_to_end: next() % 2 == 0,
        ..Rules::default()
    };
    let mut g = Checkers::with_first_player(rules, (next() % u64::from(n)) as usize);
    for _ in 0..plies {
        if g.is_over() {
            break;
        }
        if next() % 50 == 0 {
            g.play_text("resign").unwrap();
            continue;
        }
        let ms = g.legal_moves();
        if ms.is_empty() {
            g.play_text("pass").unwrap();
        } else {
            let mv = ms[(next() % ms.len() as u64) as usize];
            g.play(mv).unwrap();
        }
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn prop_incremental_hash(seed in any::<u64>(), plies in 0usize..80) {
        let g = random_game(seed, plies);
        prop_assert_eq!(g.position().hash(), g.position().compute_hash());
    }

    #[test]
    fn prop_text_round_trips(seed in any::<u64>(), plies in 0usize..80) {
        let g = random_game(seed, plies);
        let t = g.to_string();
        let back = Checkers::from_str(&t).unwrap();
        prop_assert_eq!(back.to_string(), t.clone());
        prop_assert_eq!(back.position(), g.position());
        prop_assert_eq!(back.player_states(), g.player_states());
        prop_assert_eq!(back.rules(), g.rules());
        prop_assert_eq!(back.ply(), g.ply());
        prop_assert_eq!(back.rounds(), g.rounds());
        prop_assert_eq!(back.quiet_rounds(), g.quiet_rounds());
        prop_assert_eq!(back.first_player(), g.first_player());
        prop_assert_eq!(back.end_reason(), g.end_reason());
        prop_assert_eq!(back.to_move(), g.to_move());
    }

    #[test]
    fn prop_printed_moves_parse_back(seed in any::<u64>(), plies in 0usize..60) {
        let g = random_game(seed, plies);
        for mv in g.legal_moves() {
            let text = g.move_text(&mv);
            let mut a = g.clone();
            let mut b = g.clone();
            prop_assert_eq!(a.play_text(&text).unwrap(), text.clone());
            prop_assert_eq!(last_move(&a), Some(mv));
            b.play(mv).unwrap();
            prop_assert_eq!(a.position(), b.position());
            let ends = format!("{}-{}", mv.from(), mv.to());
            let mut e = g.clone();
            prop_assert_eq!(e.play_text(&ends).unwrap(), text.clone());
            prop_assert_eq!(last_move(&e), Some(mv));
        }
    }
}

#[test]
fn position_hash_changes_with_side_to_move() {
    let mut p = Position::start(&Rules::default());
    let h = p.hash();
    p.set_to_move_unchecked(1);
    assert_ne!(p.hash(), h);
    assert_eq!(p.hash(), p.compute_hash());
}

#[test]
fn position_text_refuses_counters_near_overflow() {
    use damas::chinese::Checkers;
    assert!(Checkers::from_str("I2 1 e4/m14 ply=4294967295").is_err());
    assert!(Checkers::from_str("I2 1 e4/m14 rounds=1000000001").is_err());
    let mut game =
        Checkers::from_str("I2 1 e4/m14 ply=1000000000 rounds=1000000000").expect("bounded");
    game.play_text("e4-e5").expect("legal");
    assert_eq!(game.ply(), 1_000_000_001);
}

// ---- rule cases added by the rules review -----------------------------------

#[test]
fn step_never_combines_with_jump_and_any_colour_supports() {
    // e9 jumps its own piece f9 (own colour supports) to g9; from g9 no step
    // follows (h9, g10, h10, f8, g8 stay out of reach) and no step is
    // followed by a jump.
    let g = game("I2 1 e9,f9/m17");
    let d = dests(&g, "e9");
    let steps = c("e9").neighbours() & !g.position().occupied();
    assert!(d.contains(c("g9")), "a jump over an own piece");
    assert_eq!(d, steps.with(c("g9")), "steps plus the one jump only");
    for far in ["h9", "g10", "h10", "g8"] {
        assert!(!d.contains(c(far)), "{far} would need a jump and a step");
    }
    // The same with a rival piece as support.
    let g = game("I2 1 e9/f9,m17");
    assert_eq!(dests(&g, "e9"), steps.with(c("g9")));
}

#[test]
fn pieces_enter_any_triangle_and_leave_their_goal() {
    // Player 1 (goal North) steps into the South-west triangle (nobody's
    // seat or goal in a 2-player game) and into player 2's home triangle.
    let sw = Triangle::SouthWest.cells();
    let g = game("I2 1 e6,e5/m17");
    let d = dests(&g, "e6");
    assert!(!(d & sw).is_empty(), "may enter the South-west triangle");
    let g = game("I2 1 i9,l13/e1");
    assert!(dests(&g, "l13").contains(c("l14")), "enters its goal");
    // A piece in its goal may step out again (goal lock off, the default).
    let g = game("I2 1 l14/e1");
    assert!(dests(&g, "l14").contains(c("l13")));
    // Player 2 steps from the hexagon edge into its goal (player 1's home).
    let g = game("I2 2 i9/e5");
    assert!(dests(&g, "e5").contains(c("e4")));
}

#[test]
fn five_player_seats() {
    let g = Checkers::new(Rules::for_players(5));
    let pos = g.position();
    assert_eq!(pos.players(), 5);
    let seats: Vec<Triangle> = (0..5).map(|p| pos.seat(p)).collect();
    assert_eq!(
        seats,
        [
            Triangle::South,
            Triangle::SouthWest,
            Triangle::NorthWest,
            Triangle::North,
            Triangle::NorthEast
        ]
    );
    for (p, t) in seats.iter().enumerate() {
        assert_eq!(pos.pieces(p), t.cells(), "player {p} fills its triangle");
        assert_eq!(pos.goal(p), t.opposite().cells());
    }
    // South-east is empty; the North-west player has nobody opposite.
    assert!((pos.occupied() & Triangle::SouthEast.cells()).is_empty());
    assert!(!seats.contains(&Triangle::NorthWest.opposite()));
    assert_eq!(pos.occupied().count(), 50);
    // Turns go round the five seats.
    let mut g = g;
    for p in [0, 1, 2, 3, 4, 0] {
        assert_eq!(g.to_move(), Player::new(p));
        let mv = g.legal_moves()[0];
        g.play(mv).unwrap();
    }
}

#[test]
fn japanese_start_fifteen_pieces_king_on_tip() {
    for n in [2u8, 3] {
        let rules = Rules {
            players: n,
            variant: Variant::Japanese,
            ..Rules::default()
        };
        let pos = *Checkers::new(rules).position();
        for p in 0..usize::from(n) {
            let t = pos.seat(p);
            assert_eq!(pos.pieces(p), t.camp(), "{n} players, player {p}");
            assert_eq!(pos.pieces(p).count(), 15);
            assert_eq!(pos.pieces(p) & pos.kings(), t.tip().bit());
            assert_eq!(pos.goal(p), t.opposite().camp());
        }
    }
    // Neighbouring camps share the hexagon corner between them.
    let shared = Triangle::South.camp() & Triangle::SouthWest.camp();
    assert_eq!(shared.count(), 1);
    assert_eq!(
        (Triangle::South.camp() & Triangle::SouthEast.camp()).count(),
        1
    );
    assert!((Triangle::South.camp() & Triangle::NorthWest.camp()).is_empty());
}

#[test]
fn move_limit_draws_among_players_still_playing() {
    // Player 1 finishes; then the move limit ends the game: players 2 and 3,
    // still playing, share second place and player 1 keeps the win.
    let p1 = north(&["j14"]).into_iter().chain(["j13".into()]);
    let t = format!("I3 1 {}/i5/i9 limit=1", p1.collect::<Vec<_>>().join(","));
    let mut g = game(&t);
    g.play_text("j13-j14").unwrap();
    assert_eq!(g.player_states()[0], PlayerState::Finished { place: 1 });
    assert!(!g.is_over());
    g.play_text("i5-i6").unwrap();
    assert!(!g.is_over());
    g.play_text("i9-i10").unwrap();
    assert!(g.is_over());
    assert_eq!(g.end_reason(), Some(EndReason::MoveLimit));
    assert_eq!(g.player_states()[1], PlayerState::Placed { place: 2 });
    assert_eq!(g.player_states()[2], PlayerState::Placed { place: 2 });
    assert_eq!(winner(&g), Some(0));
}

#[test]
fn ply_yard_rules_are_two_players_without_anti_blocking() {
    // A rival piece on j14 in player 1's goal: finished under the default
    // rules, not under Ply Yard's (all ten own pieces).
    let own = north(&["j14", "k14"]).join(",");
    let text = |anti: u8| format!("I2 1 {own},j13/j14,e1 anti={anti}");
    let mut g = game(&text(1));
    g.play_text("j13-k14").unwrap();
    assert_eq!(winner(&g), Some(0));
    let mut g = game(&text(0));
    g.play_text("j13-k14").unwrap();
    assert!(!g.is_over());
    assert!(!g.rules().anti_blocking && g.rules().players == 2);
}

#[test]
fn divide_has_a_pass_row_when_the_side_to_move_is_stuck() {
    // Player 2's only piece on m17 is walled in: it must pass.
    let g = game("I2 2 e9,l16,m16,k15,m15/m17");
    let pos = *g.position();
    assert!(pos.legal_moves().is_empty());
    // Before the fix divide printed no row at all for this position.
    assert_eq!(damas::chinese::perft(&pos, 2), 15);
    let rows = damas::chinese::divide(&pos, 2);
    assert_eq!(rows, vec![(None, 15)]);
    assert_eq!(damas::chinese::divide(&pos, 1), vec![(None, 1)]);
}

#[test]
fn undo_takes_back_moves_passes_and_resignations() {
    let fresh = Checkers::new(Rules::for_players(3));
    let mut g = fresh.clone();
    assert!(!g.undo());
    let mut texts = vec![g.to_string()];
    for _ in 0..4 {
        let mv = g.legal_moves()[0];
        g.play(mv).unwrap();
        texts.push(g.to_string());
    }
    g.resign(seat(1)).unwrap();
    texts.push(g.to_string());
    g.play_text(&g.move_text(&g.legal_moves()[0])).unwrap();
    texts.push(g.to_string());
    g.play_text("resign").unwrap();
    assert!(g.is_over());
    texts.push(g.to_string());
    while g.undo() {
        texts.pop();
        assert_eq!(g.to_string(), *texts.last().unwrap());
    }
    assert_eq!(texts.len(), 1);
    assert_eq!(g.to_string(), fresh.to_string());
    assert_eq!(g.hash(), fresh.hash());
    assert_eq!(g, fresh);

    // The automatic pass that followed a move goes back with it.
    let loaded = game("I2 1 e9,l16,m16,k15,m15/m17");
    let mut g = loaded.clone();
    g.play_text("e9-e10").unwrap();
    assert_eq!(g.history().last(), Some(&Turn::Pass { player: 1 }));
    assert!(g.undo());
    assert_eq!(g, loaded);
    // An explicit pass is one turn too.
    let loaded = game("I2 2 e9,l16,m16,k15,m15/m17");
    let mut g = loaded.clone();
    assert!(matches!(
        game("I2 1 e9,l16,m16,k15,m15/m17").pass(),
        Err(PlayError::CannotPass(_))
    ));
    g.pass().unwrap();
    assert_eq!(g.to_move(), Player::new(0));
    assert!(g.undo());
    assert_eq!(g, loaded);
}

#[test]
fn adjudicated_draw_shares_the_next_place() {
    let mut g = Checkers::new(Rules::for_players(3));
    g.resign(seat(0)).unwrap();
    g.adjudicate_draw();
    assert_eq!(g.end_reason(), Some(EndReason::Adjudicated));
    assert_eq!(
        g.player_states(),
        [
            PlayerState::Resigned { place: 3 },
            PlayerState::Placed { place: 1 },
            PlayerState::Placed { place: 1 },
        ]
    );
    let back: Checkers = g.to_string().parse().unwrap();
    assert_eq!(back.to_string(), g.to_string());
    assert!(g.undo());
    assert!(!g.is_over());
}

#[test]
fn position_text_defaults_come_from_the_caller() {
    let defaults = Rules {
        anti_blocking: false,
        move_limit: Some(7),
        goal_lock: true,
        ..Rules::default()
    };
    let g = Checkers::from_text_with_defaults("I2 1 e1/m17 lock=0", &defaults).unwrap();
    assert!(!g.rules().anti_blocking);
    assert_eq!(g.rules().move_limit, Some(7));
    assert!(!g.rules().goal_lock);
    let plain = Checkers::from_str("I2 1 e1/m17").unwrap();
    assert_eq!(plain.rules().move_limit, Rules::default().move_limit);
}

/// A game of the CCERL rules from a position text.
fn ccerl(text: &str) -> Checkers {
    Checkers::from_text_with_defaults(text, &Rules::ccerl())
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn goal_lock_holds_a_piece_from_its_landing_in_the_goal() {
    // p2 (goal: the South triangle) jumps h6-f4 into its goal, then f4-h4
    // within it; h4-j6 would leave it again.
    let text = "I2 2 g5,g4,i5/h6";
    let free = game(text);
    assert!(
        dests(&free, "h6").contains(c("j6")),
        "no lock: j6 by h6-f4-h4-j6"
    );
    let locked = ccerl(text);
    let reach = dests(&locked, "h6");
    assert!(reach.contains(c("f4")) && reach.contains(c("h4")));
    assert!(
        !reach.contains(c("j6")),
        "locked: the chain may not leave the goal"
    );
    assert!(!locked
        .position()
        .is_legal_path(&[c("h6"), c("f4"), c("h4"), c("j6")]));
    let mut g = locked.clone();
    assert!(g.play_text("h6-f4-h4-j6").is_err());
    assert!(g.play_text("h6-f4-h4").is_ok());
    // GoalLock on its own means the same.
    let lock_only = game(&format!("{text} lock=1"));
    assert!(!dests(&lock_only, "h6").contains(c("j6")));
    // A piece of p1 landing in its goal mid-chain: i11-i13-k15 lands in the
    // goal (k15), so k15-k13 and on are refused.
    let p1 = ccerl("I2 1 i11/i12,j14,k14,l14");
    assert!(dests(&p1, "i11").contains(c("k15")));
    assert!(!dests(&p1, "i11").contains(c("k13")));
    let free = game("I2 1 i11/i12,j14,k14,l14");
    assert!(dests(&free, "i11").contains(c("k13")));
}

#[test]
fn threefold_repetition_draws_under_ccerl_only() {
    let shuffle = ["e4-e5", "m14-m13", "e5-e4", "m13-m14"];
    let mut g = Checkers::new(Rules::ccerl());
    let mut plain = Checkers::new(Rules::default());
    for round in 0..2 {
        for mv in shuffle {
            assert!(g.outcome().is_none(), "over early, round {round}");
            g.play_text(mv).expect("legal");
            plain.play_text(mv).expect("legal");
        }
    }
    // The start position stands for the third time.
    assert_eq!(g.end_reason(), Some(EndReason::Repetition));
    assert_eq!(g.places(), vec![Some(1), Some(1)]);
    assert_eq!(plain.end_reason(), None);
    // Undo takes the draw back.
    assert!(g.undo());
    assert_eq!(g.end_reason(), None);
}

#[test]
fn a_player_without_a_legal_move_loses_under_ccerl() {
    // p1's h4-g3 shuts p2's last piece in on e1.
    let text = "I2 1 e2,f2,e3,h4/e1";
    let mut g = ccerl(text);
    g.play_text("h4-g3").expect("legal");
    assert_eq!(g.end_reason(), Some(EndReason::NoMoves));
    assert_eq!(winner(&g), Some(0));
    assert_eq!(g.player_states()[1], PlayerState::Resigned { place: 2 });
    // By default p2 passes instead.
    let mut g = game(text);
    g.play_text("h4-g3").expect("legal");
    assert_eq!(g.end_reason(), None);
    assert_eq!(g.history().last(), Some(&Turn::Pass { player: 1 }));
    // Read with p2 to move and stuck: decided at once.
    let g = ccerl("I2 2 e2,f2,e3,g3/e1");
    assert_eq!(winner(&g), Some(0));
}

#[test]
fn the_equal_turn_rule_gives_the_second_player_one_more_move() {
    let text = "I2 1 k14,l14,m14,k15,l15,m15,l16,m16,m17,j13/e1,e2,f2,e3,f3,g3,e4,f4,g4,h5";
    // p1 finishes first; p2 finishes with its equal turn: a draw.
    let mut g = ccerl(text);
    g.play_text("j13-j14").expect("legal");
    assert_eq!(g.outcome(), None, "p2 still has its turn");
    assert_eq!(g.to_move(), Some(seat(1)));
    g.play_text("h5-h4").expect("legal");
    assert_eq!(g.places(), vec![Some(1), Some(1)]);
    // p2 does not finish: p1 wins.
    let mut g = ccerl(text);
    g.play_text("j13-j14").expect("legal");
    g.play_text("h5-h6").expect("legal");
    assert_eq!(winner(&g), Some(0));
    assert_eq!(g.end_reason(), Some(EndReason::FirstFinisher));
    // Without the rule the first finisher wins at once.
    let mut g = game(text);
    g.play_text("j13-j14").expect("legal");
    assert_eq!(winner(&g), Some(0));
}

#[test]
fn the_ccerl_rules_stop_at_240_plies_and_read_back_from_text() {
    let rules = Rules::ccerl();
    let g = Checkers::new(rules);
    let back = Checkers::from_str(&g.to_string()).expect("round trip");
    assert_eq!(*back.rules(), rules);
    assert!(g
        .to_string()
        .ends_with("limit=120 noprog=- lock=1 nomove=1 rep=1 equal=1"));
    // 240 plies without a finisher: a draw (rounds of two plies).
    let g = ccerl("I2 1 e1/m17 ply=239 rounds=119");
    let mut g = g;
    let mv = g.legal_moves_text()[0].clone();
    g.play_text(&mv).expect("legal");
    assert_eq!(g.outcome(), None);
    let mv = g.legal_moves_text()[0].clone();
    g.play_text(&mv).expect("legal");
    assert_eq!(g.end_reason(), Some(EndReason::MoveLimit));
    assert_eq!(g.places(), vec![Some(1), Some(1)]);
}
