//! Positions with a capture, which a version 3 file does not store: the
//! reader works out their value and distance from their captures, whose
//! successors all have fewer pieces.
//!
//! Captures are mandatory, so such a position's moves are all zeroing and
//! its entry follows from its successors' values at a no-progress count
//! of 0, exactly as the generator decides it before any king move is
//! followed: a win at distance 1 when a capture reaches a position lost
//! for the opponent; otherwise a draw when one reaches a position that is
//! not won for the opponent (a draw, a cursed win or a blessed loss);
//! otherwise a loss at distance 1. The recursion ends because every
//! capture removes a piece.

use super::index::{Indexer, Material};
use super::{par, TablebaseError, Value};
use crate::spanish::{MoveList, Position, Variant};

/// Entries of a run whose capture positions one task resolves.
const RUN: usize = 1 << 12;

/// The value and distance of `pos`, whose side to move has a capture, from
/// the values of its successors at a count of 0 (`value` of a successor
/// whose side to move has pieces). A successor without a value fails the
/// position, unless another capture already wins it.
///
/// # Errors
///
/// The first error of `value` when no capture wins.
pub(crate) fn resolve<E>(
    pos: &Position,
    mut value: impl FnMut(&Position) -> Result<Value, E>,
) -> Result<(Value, u8), E> {
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    let mut draw = false;
    let mut failed = None;
    for mv in &moves {
        let child = pos.played_unchecked(mv);
        let v = if child.pieces(child.to_move()).is_empty() {
            Ok(Value::Loss)
        } else {
            value(&child)
        };
        match v {
            Ok(Value::Loss) => return Ok((Value::Win, 1)),
            Ok(Value::Win) => {}
            Ok(Value::Draw | Value::CursedWin) => draw = true,
            Err(e) => failed = failed.or(Some(e)),
        }
    }
    match failed {
        Some(e) => Err(e),
        None if draw => Ok((Value::Draw, 0)),
        None => Ok((Value::Loss, 1)),
    }
}

/// Whether each position of `material` in `variant` from index `start` on
/// (`len` of them) has a capture for its side to move: the entries a
/// version 3 file leaves to the reader (never a hole's).
pub(crate) fn captures(material: Material, variant: Variant, start: u64, len: usize) -> Vec<bool> {
    let ix = Indexer::new(material);
    let sub = ix.sub_len();
    let mut out = Vec::with_capacity(len);
    let mut config = u64::MAX;
    let mut men = ix.men(0);
    for i in start..start + len as u64 {
        if i / sub != config {
            config = i / sub;
            men = ix.men(config);
        }
        out.push(men.is_valid() && ix.position(men, i % sub, variant).has_capture());
    }
    out
}

/// Replaces the entries of `material`'s capture positions in `variant`
/// from index `start` on by their values worked out from `value` (a run of
/// positions at a time, in parallel).
///
/// # Errors
///
/// The first successor without a value.
pub(crate) fn fix(
    material: Material,
    variant: Variant,
    start: u64,
    entries: &mut [(Value, u8)],
    value: &(dyn Fn(&Position) -> Result<Value, TablebaseError> + Sync),
) -> Result<(), TablebaseError> {
    let ix = Indexer::new(material);
    let sub = ix.sub_len();
    let n = entries.len();
    let fixed = par::map_range(n.div_ceil(RUN), |r| {
        let from = r * RUN;
        let len = RUN.min(n - from);
        let at = start + from as u64;
        let mut out = Vec::new();
        for (k, capture) in captures(material, variant, at, len).into_iter().enumerate() {
            if capture {
                let i = at + k as u64;
                let pos = ix.position(ix.men(i / sub), i % sub, variant);
                out.push((from + k, resolve(&pos, value)?));
            }
        }
        Ok::<_, TablebaseError>(out)
    });
    for run in fixed {
        for (k, entry) in run? {
            entries[k] = entry;
        }
    }
    Ok(())
}
