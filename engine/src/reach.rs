//! Positions compared and reached through the [`Game`] interface alone:
//! [`same_position`] and [`reach_position`], for a front end that is told
//! only positions (CCP's `position cells`) and wants to keep the game's
//! history, which the repetition rule reads, by finding the turns that led
//! from the game it has to the position it is sent.

use crate::board::Point;
use crate::game::Game;

/// Whether `a` and `b` stand at the same position: the same game and
/// number of seats, the same piece (owner and kind) on every point and the
/// same player to move (`None` for both once over). The history, the
/// counters and the places decided are not compared: this is the position
/// a FEN or a CCP `position cells` names.
///
/// ```
/// use damas::{same_position, spanish::Draughts, Game};
/// // Two kings go and come back.
/// let start = Draughts::default().read_position("W:WK4:BK29").unwrap();
/// let mut game = start.clone();
/// game.play_text("4-8").unwrap();
/// assert!(!same_position(&game, &start));
/// for mv in ["29-25", "8-4", "25-29"] {
///     game.play_text(mv).unwrap();
/// }
/// assert!(same_position(&game, &start));
/// assert_eq!(game.turn_count(), 4);
/// ```
pub fn same_position<G: Game>(a: &G, b: &G) -> bool {
    comparable(a, b) && same_pieces(a, b, &points(a))
}

/// `game` continued by the fewest turns, at most `max_turns`, that bring it
/// to the position of `target` ([`same_position`]): each turn a legal move
/// of the player to move, or a pass when that player must pass. Zero turns
/// when `game` already stands there (the game itself, unchanged). `None`
/// when no such turns exist, or when `target` is of another game or number
/// of seats.
///
/// The continued game keeps `game`'s history and adds the turns found, so
/// the rules that read the history (the repetition rule, the counters) go
/// on from `game`; a turn that ends the game (a third occurrence, say)
/// leaves no player to move and so never matches a `target` that still
/// has one. The rules are `game`'s. Turns are tried in the order of the
/// legal moves, all of one length before the next, and each position
/// reached is compared by [`Game::hash`] (of the position and the player
/// to move) before its points. The cost grows as the number of legal moves
/// to the power `max_turns`, so keep `max_turns` small: two turns of
/// Chinese checkers are a few thousand moves played and taken back, a few
/// milliseconds.
///
/// ```
/// use damas::{reach_position, same_position, spanish::Draughts, Game};
/// let start = Draughts::default();
/// let mut later = start.clone();
/// later.play_text("11-15").unwrap();
/// later.play_text("22-18").unwrap();
/// let target = start.read_position(&later.position_text()).unwrap();
/// let reached = reach_position(&start, &target, 2).unwrap();
/// assert!(same_position(&reached, &later));
/// assert_eq!(reached.turn_count(), 2);
/// assert!(reach_position(&start, &target, 1).is_none());
/// ```
pub fn reach_position<G: Game>(game: &G, target: &G, max_turns: usize) -> Option<G> {
    if !comparable(game, target) {
        return None;
    }
    let points = points(game);
    let mut work = game.clone();
    (0..=max_turns)
        .find_map(|turns| search(&mut work, target, &points, turns).then(|| work.clone()))
}

/// Whether exactly `turns` more turns from `game` reach `target`; when they
/// do, `game` is left continued by them (otherwise as it was).
fn search<G: Game>(game: &mut G, target: &G, points: &[Point], turns: usize) -> bool {
    if turns == 0 {
        // The hash is of the position and the player to move, so the
        // points are compared only when it agrees.
        return game.hash() == target.hash() && same_pieces(game, target, points);
    }
    if game.to_move().is_none() {
        return false;
    }
    let moves = game.legal_moves();
    if moves.is_empty() {
        if game.pass().is_err() {
            return false;
        }
        if search(game, target, points, turns - 1) {
            return true;
        }
        game.undo();
        return false;
    }
    for mv in moves {
        if game.play(mv).is_err() {
            continue;
        }
        if search(game, target, points, turns - 1) {
            return true;
        }
        game.undo();
    }
    false
}

/// Whether `a` and `b` are the same game with the same seats, so that
/// their points can be compared one by one.
fn comparable<G: Game>(a: &G, b: &G) -> bool {
    a.kind() == b.kind()
        && a.player_count() == b.player_count()
        && a.board().points.len() == b.board().points.len()
}

/// Every point of `game`'s board.
fn points<G: Game>(game: &G) -> Vec<Point> {
    (0..game.board().points.len())
        .filter_map(Point::new)
        .collect()
}

/// Whether `a` and `b` have the same player to move and the same piece on
/// each of `points`.
fn same_pieces<G: Game>(a: &G, b: &G, points: &[Point]) -> bool {
    a.to_move() == b.to_move() && points.iter().all(|&p| a.piece_at(p) == b.piece_at(p))
}
