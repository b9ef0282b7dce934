//! Two-player Chinese checkers against rivals that keep their home base
//! (the engine's goal) sealed: under CCERL the search breaks into a seal
//! still open and lays siege to one that is closed (docs/SEARCH.md, "The
//! siege"); under the site rules, where the no-progress ranking decides,
//! it holds its own home base (docs/SEARCH.md, "The hold"). Each game runs
//! at a fixed node budget, so it is deterministic.

use std::sync::atomic::AtomicBool;

use damas::chinese::{Checkers, Engine, Mask, Move, Rules};
use damas::search::SearchLimits;
use damas::{Game, Search};

#[path = "support/xorshift.rs"]
mod xorshift;
use xorshift::Rng;

/// Two CCERL positions where the second player keeps seven pieces on its
/// home base (the first player's goal) for good: one point short of sealed
/// (ply 40) and sealed (ply 60), the first player to move.
const SEALABLE_GOAL: &str =
    "I2 1 f4,g5,i7,j9,j10,k10,k12,l12,k13,m13/f2,e5,e6,l13,j14,k14,l14,m14,k15,m15 ply=40";
const SEALED_GOAL: &str =
    "I2 1 k10,j11,k11,m11,j12,k12,l12,m12,k13,m13/f2,e3,f4,j14,k14,l14,m14,k15,l15,m15 ply=60";

/// A defender that never moves a piece standing on its home base while it
/// has another move, else the first legal move.
fn keeps_home(game: &Checkers) -> Move {
    let pos = game.position();
    let home = pos.goal(1 - pos.to_move());
    let legal = game.legal_moves();
    *legal
        .iter()
        .find(|m| !home.contains(m.from()))
        .unwrap_or(&legal[0])
}

/// The first version of the blocking bot of `benches/scripts/blocking_bot.py`,
/// move for move, a harder opponent than the script's: it never opens a
/// seal point to let a tip piece out, so a tip piece that has not left
/// by the time the seal is refilled stays behind it for good. Its seal is
/// the seven points of its home base nearest the centre, its tips the
/// three behind them. In order it plays a tip piece leaving home, a tip
/// piece refilling a seal point, a move of any piece off the seal (a piece
/// behind the seal shuffling among the tip points too), and only then a
/// seal piece; within the first kind that has a move, the move that
/// advances most rows towards its goal, ties broken by `rng`.
fn first_blocking_bot(game: &Checkers, rng: &mut Rng) -> Move {
    let pos = game.position();
    let me = pos.to_move();
    let home = pos.goal(1 - me);
    let home_tip = pos.seat(me).tip();
    let seal = home
        .iter()
        .filter(|c| c.hex_distance(home_tip) >= 2)
        .fold(Mask::EMPTY, Mask::with);
    let tips = home & !seal;
    let legal = game.legal_moves();
    let kinds: [&dyn Fn(&Move) -> bool; 4] = [
        &|m| tips.contains(m.from()) && !home.contains(m.to()),
        &|m| tips.contains(m.from()) && seal.contains(m.to()),
        &|m| !seal.contains(m.from()),
        &|_| true,
    ];
    let pool: Vec<Move> = kinds
        .iter()
        .map(|kind| {
            legal
                .iter()
                .copied()
                .filter(|m| kind(m))
                .collect::<Vec<_>>()
        })
        .find(|pool| !pool.is_empty())
        .unwrap_or_default();
    most_rows_forward(pool, me, rng)
}

/// Of `pool` (not empty), a move of player `me` that advances most rows
/// towards its goal, ties broken by `rng`.
fn most_rows_forward(pool: Vec<Move>, me: usize, rng: &mut Rng) -> Move {
    // The first player starts at the south and moves up the ranks.
    let gain = |m: &Move| {
        let rows = i32::from(m.to().y()) - i32::from(m.from().y());
        if me == 0 {
            rows
        } else {
            -rows
        }
    };
    let best = pool.iter().map(gain).max().unwrap_or(0);
    let ties: Vec<Move> = pool.into_iter().filter(|m| gain(m) == best).collect();
    ties[rng.below(ties.len())]
}

/// The blocking bot of `benches/scripts/blocking_bot.py` once its tips
/// are out: it moves the seven pieces on its seal (the points of its home
/// base nearest the centre) only when no other piece can move; otherwise
/// the move that advances most rows towards its goal, ties broken by `rng`.
fn seal_keeper(game: &Checkers, rng: &mut Rng) -> Move {
    let pos = game.position();
    let me = pos.to_move();
    let home = pos.goal(1 - me);
    let home_tip = pos.seat(me).tip();
    let legal = game.legal_moves();
    let free: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| !home.contains(m.from()) || m.from().hex_distance(home_tip) < 2)
        .collect();
    let pool = if free.is_empty() { legal } else { free };
    most_rows_forward(pool, me, rng)
}

/// Plays `game` out under its rules (CCERL's move limit ends it 240 plies
/// on, the site rules' no-progress limit 30 rounds after the last progress):
/// `engine_seat` by the engine at `nodes` per move, the other seat by
/// `defender`; the places and the plies played.
fn play_out(
    mut game: Checkers,
    engine_seat: usize,
    nodes: u64,
    mut defender: impl FnMut(&Checkers) -> Move,
) -> (Vec<Option<u8>>, u32) {
    let mut engine = Engine::new(16);
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    let start = game.ply();
    while !game.is_over() {
        let mv = if game.to_move().map(|p| p.index()) == Some(engine_seat) {
            engine
                .search(&game, &limits, &AtomicBool::new(false), &mut |_| {})
                .best
                .expect("a move")
        } else {
            defender(&game)
        };
        game.play(mv).expect("legal");
    }
    (game.places(), game.ply() - start)
}

fn ccerl(text: &str) -> Checkers {
    Checkers::from_text_with_defaults(text, &Rules::ccerl()).expect("valid")
}

#[test]
fn a_goal_one_point_short_of_sealed_is_entered_against_a_defender_keeping_home() {
    let (places, _) = play_out(ccerl(SEALABLE_GOAL), 0, 20_000, keeps_home);
    assert_eq!(places, vec![Some(1), Some(2)]);
}

/// The sealed goal: the search's siege evaluation takes the moves away
/// from the defender's pieces locked in its goal until it must open its
/// home base, and the goal is then filled (a win before the 240-ply limit).
#[test]
fn a_goal_kept_sealed_by_home_pieces_is_beaten() {
    let (places, _) = play_out(ccerl(SEALED_GOAL), 0, 20_000, keeps_home);
    assert_eq!(places, vec![Some(1), Some(2)]);
}

/// A position built after the games against the blocking bot (it plays
/// p1, its two free pieces on their way north) where the seal is still
/// open: e4 is free, and the bot's e1 and f2 behind the seal refill it
/// (e1-e2, e2-e4) as soon as nothing better is left. Once closed, with a
/// piece behind it and a tip point free, the seal can never be opened, so
/// the engine must send a runner to e4 first (the breach), then wait for
/// the bot's pieces behind the seal to leave e2 or e3 free while it
/// takes its other pieces' moves away (the siege), and fill the goal.
const OPEN_SEAL: &str =
    "I2 2 e1,f2,e3,f3,g3,f4,g4,h4,i8,j9/g7,h8,h9,i10,j10,j11,k11,k12,l13,m13 ply=16";

#[test]
fn a_seal_still_open_is_breached_and_the_blocking_bot_beaten() {
    for seed in [1, 2] {
        let mut rng = Rng::new(seed);
        let (places, plies) = play_out(ccerl(OPEN_SEAL), 1, 20_000, |game| {
            first_blocking_bot(game, &mut rng)
        });
        assert_eq!(places, vec![Some(2), Some(1)], "seed {seed}, {plies} plies");
    }
}

/// A position of a game against the blocking bot under the site rules
/// (ply 24, the engine p1 to move): the bot's seal of p1's goal is closed
/// (j14, k14, l14, m14, k15, l15, m15, with m16 behind it) and its two free
/// pieces c5 and d5 stand at p1's home base, where p1 holds the seven seal
/// points e3, f3, g3, e4, f4, g4 and h4 with its other three pieces out.
/// Nothing can enter the bot's home base, so the no-progress ranking
/// decides: a bot piece let into p1's home base ranks the bot first.
const HOME_SEALED: &str =
    "I2 1 e3,f3,g3,e4,f4,g4,h4,g7,h8,i10/c5,d5,j14,k14,l14,m14,k15,l15,m15,m16 ply=24";

/// The engine holds its home base's seal against the bot's free pieces:
/// at the no-progress limit it is not ranked below the bot, with
/// anti-blocking on (the site defaults) or off.
#[test]
fn the_own_home_base_is_held_when_the_ranking_decides_a_sealed_game() {
    for anti_blocking in [true, false] {
        let rules = Rules {
            anti_blocking,
            ..Rules::default()
        };
        let game = Checkers::from_text_with_defaults(HOME_SEALED, &rules).expect("valid");
        for seed in [1, 2] {
            let mut rng = Rng::new(seed);
            let (places, plies) = play_out(game.clone(), 0, 20_000, |game| {
                first_blocking_bot(game, &mut rng)
            });
            let (engine, bot) = (places[0].expect("placed"), places[1].expect("placed"));
            assert!(
                engine <= bot,
                "anti-blocking {anti_blocking}, seed {seed}: places {places:?} after {plies} plies"
            );
        }
    }
}

/// A position of a game against the script's bot under the site rules
/// (ply 16, the engine p1 to move): the bot keeps its seven seal points
/// with its three other pieces out (l12, k13, m13, coming south), and p1's
/// own seal is not whole: e3 is free, with e2 behind it.
const HOLD_TO_MAKE: &str =
    "I2 1 e2,f3,g3,e4,f4,g4,h4,g6,h6,i7/l12,k13,m13,j14,k14,l14,m14,k15,l15,m15 ply=16";

/// The engine closes its seal before the bot's pieces arrive, lets none in
/// and brings its three pieces out to the bot's seal: it is never ranked
/// below the bot, and it is ranked first whenever the bot's pieces are not
/// all at its own seal when the limit comes (their sideways moves take
/// some away), anti-blocking on or off.
#[test]
fn the_hold_is_made_whole_and_wins_the_ranking_against_the_seal_keeper() {
    let mut wins = 0;
    for anti_blocking in [true, false] {
        let rules = Rules {
            anti_blocking,
            ..Rules::default()
        };
        let game = Checkers::from_text_with_defaults(HOLD_TO_MAKE, &rules).expect("valid");
        for seed in 1..=4 {
            let mut rng = Rng::new(seed);
            let (places, plies) =
                play_out(game.clone(), 0, 20_000, |game| seal_keeper(game, &mut rng));
            let (engine, bot) = (places[0].expect("placed"), places[1].expect("placed"));
            assert!(
                engine <= bot,
                "anti-blocking {anti_blocking}, seed {seed}: places {places:?} after {plies} plies"
            );
            wins += usize::from(engine < bot);
        }
    }
    assert!(wins >= 5, "{wins} wins of 8");
}
