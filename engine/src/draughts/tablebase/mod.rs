//! Endgame tablebases for draughts: retrograde generation, files, probing
//! and verification, for each [`Variant`](crate::spanish::Variant).
//!
//! A tablebase holds, for every position of up to a few pieces, its value
//! for the side to move *under the no-progress rule* of its variant (80
//! plies in Spanish draughts, the numbers below; 40 in Portuguese, 30 in
//! Russian: [`Rules::no_progress_plies`](crate::spanish::Rules::no_progress_plies))
//! and its distance to the next zeroing move (a capture or a man move,
//! which resets the no-progress count), as Syzygy does for chess's 50-move
//! rule:
//!
//! - [`Wdl::Win`] / [`Wdl::Loss`] with distance `d`: won (lost) when the
//!   no-progress count `c` satisfies `c + d <= 80`, drawn otherwise;
//! - [`Wdl::CursedWin`] / [`Wdl::BlessedLoss`]: a win (loss) if the game
//!   had no 80-ply rule, a draw under it (`d > 80`, saturated at 255);
//! - [`Wdl::Draw`].
//!
//! The exact semantics, the index and the file formats (version 1: 2 bits
//! of value and a byte of distance per position; version 2: blocks
//! compressed by a range coder, each with its checksum; version 3, written
//! by [`compress`]: version 2 without the positions whose side to move has
//! a capture, which the reader works out from smaller slices) are in
//! docs/TABLEBASES.md. Every file records its variant; a directory holds
//! one variant's tables ([`GenerateOptions::variant`],
//! [`Tablebase::variant`]).
//!
//! ```
//! use damas::spanish::tablebase::{generate, Tablebase, Wdl};
//! use damas::spanish::Position;
//! let dir = std::env::temp_dir().join(format!("damas-tb-doc-{}", std::process::id()));
//! generate(&dir, 2, 1, &|_| {}).unwrap();
//! let tb = Tablebase::open(&dir).unwrap();
//! // A king against a man on its start square: the king takes it.
//! let pos: Position = "W:WK18:B24".parse().unwrap();
//! let probe = tb.probe(&pos).unwrap();
//! assert_eq!(probe.wdl, Wdl::Win);
//! assert!(probe.distance <= 80);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

mod codec;
mod compress;
mod deps;
mod file;
mod generate;
mod index;
mod layout;
mod memory;
mod packed;
mod par;
mod parts;
mod probe;
mod resolve;
mod solve;
mod stream;
mod verify;

use std::path::PathBuf;

pub use compress::{compare, compress, CompareReport, CompressOptions, CompressReport};
pub use generate::{
    generate, generate_as, generate_slice, generate_slice_as, generate_slice_with, generate_with,
    memory_cap, memory_needed, waves, FileFormat, GenerateOptions, GenerateReport, Progress,
    SliceReport, Stage,
};
pub use index::{Material, MaterialParseError};
pub use probe::{DamagedSlice, MoveValue, Probe, ProbeError, Tablebase};
pub use verify::{verify, VerifyReport, VerifyStep};

/// Most pieces the generator and the reader handle (the machine here
/// builds up to 5 in full and some 6-piece slices).
pub const MAX_PIECES: u32 = 6;

/// The value stored for a position (two bits in the files).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Value {
    /// Drawn (also a blessed loss, told by a distance above 0).
    Draw = 0,
    /// Won within the distance.
    Win = 1,
    /// Lost within the distance.
    Loss = 2,
    /// Won only without the 80-ply rule.
    CursedWin = 3,
}

impl Value {
    #[inline(always)]
    pub(crate) fn code(self) -> u8 {
        self as u8
    }

    #[inline(always)]
    pub(crate) fn from_code(code: u8) -> Value {
        match code & 3 {
            1 => Value::Win,
            2 => Value::Loss,
            3 => Value::CursedWin,
            _ => Value::Draw,
        }
    }
}

/// The value of a position for the side to move, with the 80-ply rule's
/// distinctions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// Lost for the side to move if the no-progress count allows it.
    Loss,
    /// Lost without the 80-ply rule, drawn with it.
    BlessedLoss,
    /// Drawn whatever the counter.
    Draw,
    /// Won without the 80-ply rule, drawn with it.
    CursedWin,
    /// Won for the side to move if the no-progress count allows it.
    Win,
}

impl Wdl {
    /// The word the CLI and the protocol print.
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed-loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed-win",
            Wdl::Win => "win",
        }
    }
}

/// The result of a position under the rules, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameValue {
    /// The side to move loses with best play.
    Loss,
    /// Best play draws.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl GameValue {
    /// The word printed for it.
    pub fn name(self) -> &'static str {
        match self {
            GameValue::Loss => "loss",
            GameValue::Draw => "draw",
            GameValue::Win => "win",
        }
    }
}

/// Why a tablebase operation failed.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// A file or directory could not be read or written.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// A file is not a valid slice file (magic, version, size, checksum).
    #[error("{0}: {1}")]
    BadFile(String, String),
    /// A slice needs another one that is not there.
    #[error("slice {0} is needed but missing (generate smaller slices first)")]
    Missing(Material),
    /// More pieces than the tables support.
    #[error("at most {MAX_PIECES} pieces are supported, not {0}")]
    TooManyPieces(u32),
    /// The directory does not exist.
    #[error("no tablebase directory {0}")]
    NoDirectory(PathBuf),
    /// The tables of a directory are of another variant than the one
    /// asked for: a generation into it, or a position of another variant
    /// read from it (a directory holds one variant's tables).
    #[error("{} holds {found} draughts tables, not {wanted} draughts ones", .dir.display())]
    OtherVariant {
        /// The directory.
        dir: PathBuf,
        /// The variant of its files.
        found: crate::spanish::Variant,
        /// The variant asked for.
        wanted: crate::spanish::Variant,
    },
    /// A slice does not fit under the memory cap, even solved in parts.
    #[error(
        "slice {material} needs at least {} MB of memory to be generated, over the cap of {} MB",
        .needs.div_ceil(1_000_000),
        .cap / 1_000_000
    )]
    Memory {
        /// The slice.
        material: Material,
        /// The least memory its generation takes, in bytes.
        needs: u64,
        /// The cap, in bytes.
        cap: u64,
    },
}
