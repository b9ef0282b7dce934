//! A quiet line of play for the draw-rule tests: moves that capture
//! nothing, leave no capture on offer and repeat no position.

use std::collections::HashSet;

use damas::spanish::{Draughts, Move, Position};
use damas::Game;

/// Plays `plies` moves that capture nothing, never leave a capture on
/// offer and repeat no position: the first such line a depth-first search
/// finds (so the same moves under any rules). Returns their texts.
pub fn shuffle(game: &mut Draughts, plies: usize) -> Vec<String> {
    fn line(pos: Position, plies: usize, seen: &mut HashSet<u64>, out: &mut Vec<Move>) -> bool {
        if plies == 0 {
            return true;
        }
        for mv in pos.legal_moves() {
            let next = pos.played_unchecked(&mv);
            if mv.is_capture() || next.has_capture() || !seen.insert(next.hash()) {
                continue;
            }
            out.push(mv);
            if line(next, plies - 1, seen, out) {
                return true;
            }
            out.pop();
            seen.remove(&next.hash());
        }
        false
    }
    let mut seen: HashSet<u64> = game.history_hashes().iter().copied().collect();
    let mut moves = Vec::new();
    assert!(
        line(*game.position(), plies, &mut seen, &mut moves),
        "no quiet line of {plies} plies from {:?}",
        game.position()
    );
    moves
        .into_iter()
        .map(|mv| {
            let text = game.move_text(&mv);
            game.play(mv).expect("legal");
            text
        })
        .collect()
}
