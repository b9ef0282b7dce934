//! Verification of the files against the rules: every stored value and
//! distance must follow from the values of the successors, in the slice
//! and across captures and promotions into other slices.

use std::path::Path;

use super::file::{self, Slice, Table};
use super::index::{Indexer, Material};
use super::probe::Tablebase;
use super::solve::Solved;
use super::stream;
use super::{par, TablebaseError, Value, MAX_PIECES};
use crate::spanish::{MoveList, Position, Rules, Variant};

/// The outcome of [`verify`].
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// The variant whose rules the tables were checked against (that of
    /// the directory's files, [`Tablebase::variant`]).
    pub variant: Variant,
    /// Slices checked.
    pub slices: usize,
    /// Positions checked (holes excluded).
    pub positions: u64,
    /// Positions whose stored value does not follow from their moves.
    pub errors: u64,
    /// The first few of them, as `material FEN: why`.
    pub examples: Vec<String>,
    /// Files not checked, as `file name: why` (not a regular file, or a
    /// `.dtb` name that is no slice), in name order.
    pub skipped: Vec<String>,
}

/// What [`verify`] is doing, for its progress report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyStep<'a> {
    /// Checking this slice.
    Checking(Material),
    /// Skipping a file: its name and why.
    Skipped(&'a str),
}

/// What a position's successors say its value must be, unbounded by the
/// no-progress rule: a win or loss with a distance, or a draw.
fn expected(
    solved: &Solved<'_>,
    slice: &Slice,
    pos: &Position,
) -> Result<(Value, u32), TablebaseError> {
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    if moves.is_empty() {
        return Ok((Value::Loss, 0));
    }
    let mut best_win: Option<u32> = None;
    let mut all_lose = true;
    let mut longest_loss = 0;
    for mv in &moves {
        let child = pos.played_unchecked(mv);
        // The child's unbounded value for its side to move, and the
        // distance the move adds.
        let (v, d) = if mv.is_capture() || pos.moves_man(mv) {
            (solved.exit_value(&child)?, 1)
        } else {
            let i = solved.indexer.index(&child);
            let (v, d) = (slice.value(i), u32::from(slice.distance(i)));
            let v = match v {
                Value::CursedWin => Value::Win,
                Value::Draw if d > 0 => Value::Loss,
                v => v,
            };
            (v, d.saturating_add(1).min(255))
        };
        match v {
            Value::Loss => best_win = Some(best_win.map_or(d, |b| b.min(d))),
            Value::Win => longest_loss = longest_loss.max(d),
            _ => all_lose = false,
        }
    }
    Ok(match best_win {
        Some(d) => (Value::Win, d),
        None if all_lose => (Value::Loss, longest_loss),
        None => (Value::Draw, 0),
    })
}

/// Checks one position against its successors.
fn check(
    solved: &Solved<'_>,
    slice: &Slice,
    pos: &Position,
    index: u64,
) -> Result<Option<String>, TablebaseError> {
    let (want, want_d) = expected(solved, slice, pos)?;
    let stored = slice.value(index);
    let d = u32::from(slice.distance(index));
    let (got, got_d) = match stored {
        Value::CursedWin => (Value::Win, d),
        Value::Draw if d > 0 => (Value::Loss, d),
        v => (v, d),
    };
    let distance_ok = got_d == want_d.min(255);
    let in_rule = matches!(stored, Value::Win | Value::Loss);
    let limit = Rules::of_variant(solved.variant).no_progress_plies();
    let class_ok = in_rule == (want != Value::Draw && want_d <= limit);
    if got == want && distance_ok && (want == Value::Draw || class_ok) {
        return Ok(None);
    }
    Ok(Some(format!(
        "{} {}: stored {:?} {}, the moves give {:?} {}",
        solved.indexer.material,
        pos.to_fen(),
        stored,
        d,
        want,
        want_d
    )))
}

/// Verifies every slice file of up to [`MAX_PIECES`] pieces found in
/// `dir`, under the rules of the variant its files name
/// ([`Tablebase::variant`]; a file of another variant fails as damaged):
/// the checksum when it is read, then each position against its moves (a win has a move to a loss at one ply less and none shorter, a
/// loss only moves to wins and its distance is the longest, a draw no move
/// to a loss and a move to a draw). A slice whose successors are missing
/// is an error. A file that is not a regular file (a FIFO, a device, a
/// directory) is skipped without being opened, and so is a `.dtb` file
/// whose name is no slice: both are listed in [`VerifyReport::skipped`].
/// `progress` hears of each slice when it starts and of each file skipped.
///
/// # Errors
///
/// [`TablebaseError::NoDirectory`] when `dir` is not a directory;
/// [`TablebaseError::Missing`] when a slice's successors have no file;
/// [`TablebaseError::Io`] or [`TablebaseError::BadFile`] when a file cannot
/// be listed or read. Wrong entries of a slice that reads are not an error
/// of the call: the report lists them.
pub fn verify(
    dir: &Path,
    progress: &(dyn Fn(VerifyStep<'_>) + Sync),
) -> Result<VerifyReport, TablebaseError> {
    if !dir.is_dir() {
        return Err(TablebaseError::NoDirectory(dir.to_path_buf()));
    }
    let variant = Tablebase::variant_in(dir);
    let tables = Tablebase::empty(dir, MAX_PIECES, variant);
    let mut report = VerifyReport {
        variant,
        ..VerifyReport::default()
    };
    let mut skip = |why: String| {
        progress(VerifyStep::Skipped(&why));
        report.skipped.push(why);
    };
    for why in stray_names(dir)? {
        skip(why);
    }
    for n in 2..=MAX_PIECES {
        for m in Material::all_with(n) {
            let path = file::path(dir, m);
            match std::fs::metadata(&path) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Ok(meta) => {
                    if let Some(kind) = file::not_regular(&meta) {
                        skip(format!(
                            "{}: not a regular file ({kind})",
                            file::file_name(m)
                        ));
                        continue;
                    }
                }
                // Reading it reports the error.
                Err(_) => {}
            }
            progress(VerifyStep::Checking(m));
            let whole;
            let slice = match tables.load(m)? {
                Table::Plain(slice) => slice,
                Table::Packed(packed) => {
                    let mut decoded = packed
                        .to_slice()
                        .map_err(|why| TablebaseError::BadFile(path.display().to_string(), why))?;
                    if packed.captures_free() {
                        stream::resolve_slice(&tables, &mut decoded)?;
                    }
                    whole = decoded;
                    &whole
                }
            };
            let (positions, errors) = verify_slice(&tables, slice)?;
            report.slices += 1;
            report.positions += positions;
            report.errors += errors.len() as u64;
            for e in errors {
                if report.examples.len() < 10 {
                    report.examples.push(e);
                }
            }
        }
    }
    report.skipped.sort();
    Ok(report)
}

/// The `.dtb` names in `dir` that are no slice of up to [`MAX_PIECES`]
/// pieces, each with why it is skipped, in name order.
fn stray_names(dir: &Path) -> Result<Vec<String>, TablebaseError> {
    let io = |e| TablebaseError::Io(dir.display().to_string(), e);
    let mut stray = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let name = entry.map_err(io)?.file_name();
        let name = name.to_string_lossy();
        let Some(stem) = name.strip_suffix(".dtb") else {
            continue;
        };
        let is_slice = stem
            .parse::<Material>()
            .is_ok_and(|m| m.is_valid() && m.pieces() <= MAX_PIECES && file::file_name(m) == *name);
        if !is_slice {
            stray.push(format!("{name}: not the name of a slice"));
        }
    }
    stray.sort();
    Ok(stray)
}

/// Checks every position of `slice`: positions checked and the errors
/// (at most 10 kept per configuration).
fn verify_slice(tables: &Tablebase, slice: &Slice) -> Result<(u64, Vec<String>), TablebaseError> {
    let m = slice.material;
    let ix = Indexer::new(m);
    let solved = Solved {
        tables,
        current: slice,
        indexer: ix,
        variant: slice.variant,
    };
    let per_config = par::map_range(m.men_configs() as usize, |c| {
        let men = ix.men(c as u64);
        let mut errors = Vec::new();
        if !men.is_valid() {
            return Ok((0, errors));
        }
        let base = c as u64 * ix.sub_len();
        for local in 0..ix.sub_len() {
            let pos = ix.position(men, local, slice.variant);
            if let Some(e) = check(&solved, slice, &pos, base + local)? {
                if errors.len() < 10 {
                    errors.push(e);
                }
            }
        }
        Ok::<_, TablebaseError>((ix.sub_len(), errors))
    });
    let mut positions = 0;
    let mut errors = Vec::new();
    for r in per_config {
        let (n, e) = r?;
        positions += n;
        errors.extend(e);
    }
    Ok((positions, errors))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_value_is_found() {
        let dir = std::env::temp_dir().join(format!("damas-tb-verify-{}", std::process::id()));
        super::super::generate(&dir, 2, 1, &|_| {}).unwrap();
        let report = verify(&dir, &|_| {}).unwrap();
        assert_eq!(
            (report.slices, report.errors),
            (4, 0),
            "{:?}",
            report.examples
        );
        // Turn one drawn position of king against king into a win.
        let m: Material = "1k0m-1k0m".parse().unwrap();
        let mut s = file::read(&dir, m, Variant::Spanish).unwrap();
        let ix = Indexer::new(m);
        let pos: Position = "W:WK5:BK27".parse().unwrap();
        let i = ix.index(&pos);
        assert_eq!(s.value(i), Value::Draw);
        s.set(i, Value::Win, 3);
        file::write(&dir, &s).unwrap();
        let report = verify(&dir, &|_| {}).unwrap();
        assert!(report.errors >= 1, "{report:?}");
        assert!(report.examples.iter().any(|e| e.contains("W:WK5:BK27")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
