//! The reader: slices loaded on demand and kept, probes of positions and
//! the ranking of moves under the variant's no-progress rule.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};

use super::file::{self, Table};
use super::index::{Indexer, Material};
use super::resolve;
use super::{GameValue, TablebaseError, Value, Wdl, MAX_PIECES};
use crate::spanish::{Move, Position, Variant};

/// What the tables say about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The value for the side to move.
    pub wdl: Wdl,
    /// Plies to the next zeroing move (capture or man move) or to the end
    /// of the game with best play: the winner hurries, the loser delays.
    /// 0 for draws and for a side to move without a move; 255 means 255
    /// or more.
    pub distance: u32,
    /// The plies without progress after which the tables' variant draws
    /// ([`Rules::no_progress_plies`](crate::spanish::Rules::no_progress_plies):
    /// 80 in Spanish draughts).
    pub no_progress_plies: u32,
}

impl Probe {
    /// The result under the rules when the no-progress count is `counter`:
    /// a win or loss needs `counter + distance <= no_progress_plies` (80
    /// in Spanish draughts).
    pub fn value_at(&self, counter: u32) -> GameValue {
        let in_time = counter + self.distance <= self.no_progress_plies;
        match self.wdl {
            Wdl::Win if in_time => GameValue::Win,
            Wdl::Loss if in_time => GameValue::Loss,
            _ => GameValue::Draw,
        }
    }
}

/// One legal move with its value for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its result under the rules for the mover at the given count.
    pub value: GameValue,
    /// Plies from the current position to the next zeroing move along it
    /// (1 for a capture or a man move).
    pub distance: u32,
}

/// Why the tables give no value for a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// The position has more pieces than the tables cover (the number),
    /// or the side not to move has none.
    #[error("not in the tables (they cover up to {0} pieces)")]
    NotCovered(u32),
    /// The position's slice has no file.
    #[error("slice {0} has no file")]
    Missing(Material),
    /// The position's slice is damaged: none of its entries is used.
    #[error("{0}")]
    Damaged(DamagedSlice),
    /// The slice is still being read and checked (a probe that does not
    /// wait); until then its positions are unknown.
    #[error("slice {0} is not read yet")]
    NotRead(Material),
    /// The position is of another variant than the tables.
    #[error("the tables hold {tables} draughts, not {position} draughts")]
    OtherVariant {
        /// The tables' variant.
        tables: Variant,
        /// The position's.
        position: Variant,
    },
}

/// A slice whose file cannot be used: its header, length or checksum is
/// wrong, or it is not a readable regular file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("slice {material} is damaged ({why})")]
pub struct DamagedSlice {
    /// The slice.
    pub material: Material,
    /// What is wrong with its file (e.g. `checksum mismatch`).
    pub why: String,
}

/// Why a probe failed, without the text: what the search's probes pass
/// around (no allocation per probe).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Miss {
    NotCovered,
    Missing(Material),
    Damaged(Material),
    /// A block of a version 2 slice whose checksum is wrong.
    DamagedBlock(Material, u64),
    NotRead(Material),
    OtherVariant(Variant),
}

/// A set of tablebase files in one directory, read on demand.
///
/// Each slice file is read the first time a position of its material is
/// probed, its checksum checked, and kept in memory for the life of the
/// value; a missing or damaged file makes its positions unknown. A format
/// version 1 file is checked whole before any entry is used; a version 2
/// file (compressed blocks) has its header and block index checked when
/// read, and each block's checksum when the block is first probed and
/// decoded: a damaged block makes only its own positions unknown. Probes
/// take `&self` and are safe from any number of threads.
///
/// Reading a large slice takes a second or more, so a search on the clock
/// probes with [`Tablebase::probe_without_waiting`], which hands the read
/// to one background thread and meanwhile answers "unknown"; the plain
/// [`Tablebase::probe`] waits for the read.
pub struct Tablebase {
    dir: PathBuf,
    variant: Variant,
    shared: Arc<Shared>,
    max_pieces: u32,
    /// The queue of the one background reader, started by the first probe
    /// that does not wait (`None` if the thread could not be started).
    reader: OnceLock<Option<mpsc::Sender<Material>>>,
}

/// What the probes and the background reader share.
struct Shared {
    /// The variant every file must name.
    variant: Variant,
    slots: Box<[Slot]>,
    /// The slices found damaged, in the order found.
    damaged: Mutex<Vec<DamagedSlice>>,
}

/// One material's slice: read once, by whichever probe asks first.
#[derive(Default)]
struct Slot {
    state: OnceLock<SliceState>,
    /// A background read has been requested.
    requested: AtomicBool,
}

/// A slice after its file has been looked at.
enum SliceState {
    /// Read and checked (a version 2 slice: its header and block index;
    /// each block is checked when it is decoded).
    Ready(Arc<Table>),
    /// No file.
    Missing,
    /// A file that cannot be used, and why.
    Damaged(String),
}

impl Shared {
    /// The state of `material`'s slice, reading its file now if no one
    /// has yet (a damaged file is logged once, by the reader that finds
    /// it).
    fn get_or_read(&self, dir: &Path, material: Material) -> &SliceState {
        let slot = &self.slots[material.key()];
        slot.state.get_or_init(|| {
            let state = SliceState::of(file::read_table(dir, material, self.variant));
            if let SliceState::Damaged(why) = &state {
                self.log_damage(material, why);
            }
            state
        })
    }

    fn log_damage(&self, material: Material, why: &str) {
        let mut damaged = self.damaged.lock().unwrap_or_else(|e| e.into_inner());
        damaged.push(DamagedSlice {
            material,
            why: why.to_string(),
        });
    }
}

impl SliceState {
    fn of(read: Result<Table, TablebaseError>) -> SliceState {
        match read {
            Ok(table) => SliceState::Ready(Arc::new(table)),
            Err(TablebaseError::Io(_, e)) if e.kind() == std::io::ErrorKind::NotFound => {
                SliceState::Missing
            }
            Err(TablebaseError::BadFile(_, why)) => SliceState::Damaged(why),
            Err(TablebaseError::Io(_, e)) => SliceState::Damaged(format!("cannot be read: {e}")),
            Err(other) => SliceState::Damaged(other.to_string()),
        }
    }

    fn slice(&self, material: Material) -> Result<&Table, Miss> {
        match self {
            SliceState::Ready(table) => Ok(table),
            SliceState::Missing => Err(Miss::Missing(material)),
            SliceState::Damaged(_) => Err(Miss::Damaged(material)),
        }
    }
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("dir", &self.dir)
            .field("variant", &self.variant)
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

impl Tablebase {
    /// The tables in `dir`: [`Tablebase::max_pieces`] is the largest `n`
    /// such that every slice of up to `n` pieces has a regular file there.
    /// Only the files' headers are read now ([`Tablebase::damaged_slices`]
    /// lists those found wrong); the tables are read when probed. Their
    /// variant is the one the first readable header names
    /// ([`Tablebase::variant`]); a file of another variant is damaged.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::NoDirectory`] when `dir` is not a directory;
    /// [`TablebaseError::Io`] when it cannot be listed.
    pub fn open(dir: &Path) -> Result<Tablebase, TablebaseError> {
        if !dir.is_dir() {
            return Err(TablebaseError::NoDirectory(dir.to_path_buf()));
        }
        let mut max_pieces = 0;
        for n in 2..=MAX_PIECES {
            if Material::all_with(n)
                .iter()
                .all(|&m| file::path(dir, m).is_file())
            {
                max_pieces = n;
            } else {
                break;
            }
        }
        let tables = Tablebase::empty(dir, max_pieces, Tablebase::variant_in(dir));
        for n in 2..=max_pieces {
            for m in Material::all_with(n) {
                if let Err(err) = file::open(dir, m, tables.variant) {
                    let state = SliceState::of(Err(err));
                    if let SliceState::Damaged(why) = &state {
                        tables.shared.log_damage(m, why);
                    }
                    let _ = tables.shared.slots[m.key()].state.set(state);
                }
            }
        }
        Ok(tables)
    }

    /// The variant of the tables in `dir`: that of the first slice file,
    /// in the order of [`Material::all_with`], whose header reads; Spanish
    /// draughts when there is none.
    pub(crate) fn variant_in(dir: &Path) -> Variant {
        Tablebase::variant_found(dir).unwrap_or(Variant::Spanish)
    }

    /// The variant of the first slice file in `dir` whose header reads, if
    /// any.
    pub(crate) fn variant_found(dir: &Path) -> Option<Variant> {
        (2..=MAX_PIECES)
            .flat_map(Material::all_with)
            .find_map(|m| file::open_any(dir, m).ok())
            .map(|slice| slice.variant)
    }

    pub(crate) fn empty(dir: &Path, max_pieces: u32, variant: Variant) -> Tablebase {
        Tablebase {
            dir: dir.to_path_buf(),
            variant,
            shared: Arc::new(Shared {
                variant,
                slots: (0..Material::KEYS).map(|_| Slot::default()).collect(),
                damaged: Mutex::new(Vec::new()),
            }),
            max_pieces,
            reader: OnceLock::new(),
        }
    }

    /// Largest piece count fully covered.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The directory of the files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The variant whose rules the tables were solved under: only its
    /// positions are answered.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The slices found damaged so far (when the tables were opened, for
    /// a wrong header or length, or when a slice was read, for a wrong
    /// checksum), in the order found. Their positions are never answered.
    /// A damaged block of a version 2 slice is listed once, when a probe
    /// first meets it, its `why` naming the block and its positions; only
    /// those positions go unanswered.
    pub fn damaged_slices(&self) -> Vec<DamagedSlice> {
        self.shared
            .damaged
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Whether `material` is a slice the tables can hold.
    fn covers(material: Material) -> bool {
        material.is_valid() && material.pieces() <= MAX_PIECES
    }

    /// Whether the slice of `material` has been read into memory and
    /// checked (or found missing or damaged): then probes of it no longer
    /// wait and no longer answer "not read yet".
    pub fn is_in_memory(&self, material: Material) -> bool {
        Tablebase::covers(material) && self.shared.slots[material.key()].state.get().is_some()
    }

    /// Queues `material`'s slice for the background reader (once).
    fn request(&self, material: Material) {
        let slot = &self.shared.slots[material.key()];
        if !slot.requested.swap(true, Ordering::AcqRel) {
            if let Some(reader) = self.reader.get_or_init(|| self.start_reader()) {
                let _ = reader.send(material);
            }
        }
    }

    /// Starts the background reader: one thread that reads and checks the
    /// requested slices in turn, so that loading never takes more than
    /// one core from the search (several readers at once starved a search
    /// on a busy machine). It ends when the tables are dropped. `None` if
    /// the thread cannot be started: then only blocking probes read files.
    fn start_reader(&self) -> Option<mpsc::Sender<Material>> {
        let (send, receive) = mpsc::channel::<Material>();
        let shared = Arc::clone(&self.shared);
        let dir = self.dir.clone();
        std::thread::Builder::new()
            .name("damas-tb-read".to_string())
            .spawn(move || {
                for material in receive {
                    shared.get_or_read(&dir, material);
                }
            })
            .ok()?;
        Some(send)
    }

    /// The slice of `material`, waiting for its file to be read or not
    /// (then a slice not yet read is queued for the background reader).
    #[inline]
    fn slice_for(&self, material: Material, wait: bool) -> Result<&Table, Miss> {
        if !Tablebase::covers(material) {
            return Err(Miss::NotCovered);
        }
        let slot = &self.shared.slots[material.key()];
        match slot.state.get() {
            Some(state) => state.slice(material),
            None if wait => self.shared.get_or_read(&self.dir, material).slice(material),
            None => {
                self.request(material);
                Err(Miss::NotRead(material))
            }
        }
    }

    /// The slice of `material` from its file, with the error when it
    /// cannot be read (verification).
    pub(crate) fn load(&self, material: Material) -> Result<&Table, TablebaseError> {
        self.slice_for(material, true)
            .map_err(|miss| self.table_error(miss))
    }

    /// The stored value code of `pos` (the generator's and the verifier's
    /// exits), or why there is none.
    #[inline]
    pub(crate) fn stored(&self, pos: &Position) -> Result<(Value, u8), TablebaseError> {
        self.stored_for(pos, true)
            .map_err(|miss| self.table_error(miss))
    }

    /// A probe's miss as a [`TablebaseError`] of the generator or verifier.
    fn table_error(&self, miss: Miss) -> TablebaseError {
        match self.error(miss) {
            ProbeError::Damaged(damaged) => TablebaseError::BadFile(
                file::path(&self.dir, damaged.material)
                    .display()
                    .to_string(),
                damaged.why,
            ),
            ProbeError::NotCovered(_) => TablebaseError::TooManyPieces(MAX_PIECES + 1),
            ProbeError::OtherVariant { tables, position } => TablebaseError::OtherVariant {
                dir: self.dir.clone(),
                found: tables,
                wanted: position,
            },
            ProbeError::Missing(m) | ProbeError::NotRead(m) => TablebaseError::Missing(m),
        }
    }

    /// The full error of a miss (the damage's text looked up).
    fn error(&self, miss: Miss) -> ProbeError {
        match miss {
            Miss::NotCovered => ProbeError::NotCovered(self.max_pieces),
            Miss::Missing(m) => ProbeError::Missing(m),
            Miss::NotRead(m) => ProbeError::NotRead(m),
            Miss::OtherVariant(position) => ProbeError::OtherVariant {
                tables: self.variant,
                position,
            },
            Miss::Damaged(m) => {
                let why = match self.shared.slots[m.key()].state.get() {
                    Some(SliceState::Damaged(why)) => why.clone(),
                    _ => String::new(),
                };
                ProbeError::Damaged(DamagedSlice { material: m, why })
            }
            Miss::DamagedBlock(m, block) => {
                let why = match self.shared.slots[m.key()].state.get() {
                    Some(SliceState::Ready(table)) => table.block_why(block),
                    _ => String::new(),
                };
                ProbeError::Damaged(DamagedSlice { material: m, why })
            }
        }
    }

    /// [`Tablebase::stored`], waiting for the slice or not. Without
    /// waiting, a slice not yet read and checked is queued for the
    /// background reader and its positions are unknown meanwhile.
    ///
    /// A position with a capture in a version 3 slice is worked out from
    /// its captures' successors (fewer pieces, so the recursion ends): it
    /// is unknown when a successor it needs is, so a damaged block or a
    /// slice not yet read never gives it a wrong value.
    #[inline]
    fn stored_for(&self, pos: &Position, wait: bool) -> Result<(Value, u8), Miss> {
        let m = Material::of(pos);
        let table = self.slice_for(m, wait)?;
        if table.captures_free() && pos.has_capture() {
            return resolve::resolve(pos, |child| self.stored_for(child, wait).map(|(v, _)| v));
        }
        let i = Indexer::new(m).index(pos);
        table.entry(i).map_err(|damaged| {
            if damaged.first {
                self.shared.log_damage(m, &table.block_why(damaged.block));
            }
            Miss::DamagedBlock(m, damaged.block)
        })
    }

    /// The value and distance of `pos` for the side to move, or `None`
    /// when the position has more pieces than the tables or its slice is
    /// missing or damaged. A side to move without pieces has lost.
    ///
    /// ```
    /// use damas::spanish::tablebase::{generate, Tablebase, Wdl};
    /// use damas::spanish::Position;
    /// let dir = std::env::temp_dir().join(format!("damas-tb-probe-{}", std::process::id()));
    /// generate(&dir, 2, 1, &|_| {}).unwrap();
    /// let tb = Tablebase::open(&dir).unwrap();
    /// let pos: Position = "W:WK5:BK27".parse().unwrap();
    /// assert_eq!(tb.probe(&pos).unwrap().wdl, Wdl::Draw);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        self.probe_for(pos, true).ok()
    }

    /// [`Tablebase::probe`] with the reason when there is no value: not
    /// covered, a missing slice or a damaged one (named with what is
    /// wrong).
    ///
    /// # Errors
    ///
    /// [`ProbeError::NotCovered`] for a position with more pieces than the
    /// tables cover; [`ProbeError::Missing`] when its slice has no file;
    /// [`ProbeError::Damaged`] when its slice failed its checks;
    /// [`ProbeError::OtherVariant`] for a position of another variant.
    pub fn try_probe(&self, pos: &Position) -> Result<Probe, ProbeError> {
        self.probe_for(pos, true).map_err(|miss| self.error(miss))
    }

    /// [`Tablebase::probe`] without waiting for a slice to be read: the
    /// first probe of a slice queues it for the background reader, and
    /// until it has been read and its checksum checked its positions are
    /// unknown (`None`). What a search on the clock uses, since a large
    /// slice takes a second or more to read.
    #[inline]
    pub fn probe_without_waiting(&self, pos: &Position) -> Option<Probe> {
        self.probe_for(pos, false).ok()
    }

    #[inline]
    fn probe_for(&self, pos: &Position, wait: bool) -> Result<Probe, Miss> {
        let rules = pos.rules();
        if rules.variant() != self.variant {
            return Err(Miss::OtherVariant(rules.variant()));
        }
        let no_progress_plies = rules.no_progress_plies();
        let side = pos.to_move();
        if pos.pieces(side).is_empty() {
            return Ok(Probe {
                wdl: Wdl::Loss,
                distance: 0,
                no_progress_plies,
            });
        }
        if pos.occupied().count() > self.max_pieces || pos.pieces(!side).is_empty() {
            return Err(Miss::NotCovered);
        }
        let (value, d) = self.stored_for(pos, wait)?;
        let wdl = match value {
            Value::Win => Wdl::Win,
            Value::Loss => Wdl::Loss,
            Value::CursedWin => Wdl::CursedWin,
            Value::Draw if d > 0 => Wdl::BlessedLoss,
            Value::Draw => Wdl::Draw,
        };
        let distance = match wdl {
            Wdl::Draw => 0,
            _ => u32::from(d),
        };
        Ok(Probe {
            wdl,
            distance,
            no_progress_plies,
        })
    }

    /// Every legal move of `pos` with its value for the mover when the
    /// no-progress count is `counter`, best first: wins by the shortest
    /// distance to the next zeroing move (the conversion that always
    /// arrives in time), then draws, then losses by the longest
    /// resistance. `None` when a successor is not in the tables.
    pub fn rank_moves(&self, pos: &Position, counter: u32) -> Option<Vec<MoveValue>> {
        self.rank_moves_for(pos, counter, true).ok()
    }

    /// [`Tablebase::rank_moves`] with the reason when a successor has no
    /// value (see [`Tablebase::try_probe`]).
    ///
    /// # Errors
    ///
    /// The [`ProbeError`] of the first successor without a value, as
    /// [`Tablebase::try_probe`] gives it.
    pub fn try_rank_moves(
        &self,
        pos: &Position,
        counter: u32,
    ) -> Result<Vec<MoveValue>, ProbeError> {
        self.rank_moves_for(pos, counter, true)
            .map_err(|miss| self.error(miss))
    }

    /// [`Tablebase::rank_moves`] without waiting for a slice to be read
    /// (see [`Tablebase::probe_without_waiting`]).
    pub fn rank_moves_without_waiting(
        &self,
        pos: &Position,
        counter: u32,
    ) -> Option<Vec<MoveValue>> {
        self.rank_moves_for(pos, counter, false).ok()
    }

    fn rank_moves_for(
        &self,
        pos: &Position,
        counter: u32,
        wait: bool,
    ) -> Result<Vec<MoveValue>, Miss> {
        let mut out = Vec::new();
        for mv in pos.legal_moves() {
            let child = pos.played_unchecked(&mv);
            let zeroing = mv.is_capture() || pos.moves_man(&mv);
            let probe = self.probe_for(&child, wait)?;
            let (child_value, distance) = if zeroing {
                (probe.value_at(0), 1)
            } else {
                (probe.value_at(counter + 1), probe.distance + 1)
            };
            let value = match child_value {
                GameValue::Win => GameValue::Loss,
                GameValue::Loss => GameValue::Win,
                GameValue::Draw => GameValue::Draw,
            };
            out.push(MoveValue {
                mv,
                value,
                distance,
            });
        }
        out.sort_by(|a, b| {
            b.value.cmp(&a.value).then_with(|| match a.value {
                GameValue::Win => a.distance.cmp(&b.distance),
                GameValue::Loss => b.distance.cmp(&a.distance),
                GameValue::Draw => std::cmp::Ordering::Equal,
            })
        });
        Ok(out)
    }
}
