//! The reader: slices loaded on demand and kept, probes of positions and
//! the ranking of moves under the 80-ply rule.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, OnceLock};

use super::file::{self, Slice};
use super::index::{Indexer, Material};
use super::{GameValue, TablebaseError, Value, Wdl, MAX_PIECES};
use crate::spanish::{Move, Position, NO_PROGRESS_PLIES};

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
}

impl Probe {
    /// The result under the rules when the no-progress count is `counter`:
    /// a win or loss needs `counter + distance <= 80`.
    pub fn value_at(&self, counter: u32) -> GameValue {
        let in_time = counter + self.distance <= NO_PROGRESS_PLIES;
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

/// A set of tablebase files in one directory, read on demand.
///
/// Each slice file is read the first time a position of its material is
/// probed and kept in memory (values and distances) for the life of the
/// value; a missing or damaged file makes its positions unknown (`None`).
/// Probes take `&self` and are safe from any number of threads.
///
/// Reading a large slice takes a second or more, so a search on the clock
/// probes with [`Tablebase::probe_without_waiting`], which hands the read
/// to one background thread and meanwhile reads the probed entry from the
/// file at its offset; the plain [`Tablebase::probe`] waits for the read.
pub struct Tablebase {
    dir: PathBuf,
    slots: Arc<[Slot]>,
    max_pieces: u32,
    /// The queue of the one background reader, started by the first probe
    /// that does not wait (`None` if the thread could not be started).
    reader: OnceLock<Option<mpsc::Sender<Material>>>,
}

/// One material's slice: read once, by whichever probe asks first.
#[derive(Default)]
struct Slot {
    slice: OnceLock<Option<Arc<Slice>>>,
    /// A background read has been requested.
    requested: AtomicBool,
    /// The file opened for positioned reads of single entries, used by
    /// probes that do not wait while the background read runs.
    file: OnceLock<Option<file::OpenSlice>>,
}

impl Slot {
    /// The slice, reading it now if no one has yet.
    fn get_or_read(&self, dir: &Path, material: Material) -> Option<&Slice> {
        self.slice
            .get_or_init(|| file::read(dir, material).ok().map(Arc::new))
            .as_deref()
    }
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("dir", &self.dir)
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

impl Tablebase {
    /// The tables in `dir`: [`Tablebase::max_pieces`] is the largest `n`
    /// such that every slice of up to `n` pieces has a file there (the
    /// files are only read when probed).
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
        Ok(Tablebase::empty(dir, max_pieces))
    }

    pub(crate) fn empty(dir: &Path, max_pieces: u32) -> Tablebase {
        Tablebase {
            dir: dir.to_path_buf(),
            slots: (0..Material::KEYS).map(|_| Slot::default()).collect(),
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

    /// Puts a slice solved in memory into the cache (the generator).
    pub(crate) fn insert(&self, slice: Slice) {
        let key = slice.material.key();
        let _ = self.slots[key].slice.set(Some(Arc::new(slice)));
    }

    /// The slice of `material`, read from its file the first time.
    pub(crate) fn slice(&self, material: Material) -> Option<&Slice> {
        self.slot(material)?.get_or_read(&self.dir, material)
    }

    /// The slot of `material`, `None` for a material outside the tables.
    fn slot(&self, material: Material) -> Option<&Slot> {
        (material.is_valid() && material.pieces() <= MAX_PIECES)
            .then(|| &self.slots[material.key()])
    }

    /// Whether the slice of `material` has been read into memory (or
    /// found unreadable): then probes no longer touch its file.
    pub fn is_in_memory(&self, material: Material) -> bool {
        self.slot(material)
            .is_some_and(|slot| slot.slice.get().is_some())
    }

    /// Queues `material`'s slice for the background reader (once).
    fn request(&self, material: Material) {
        let slot = &self.slots[material.key()];
        if !slot.requested.swap(true, Ordering::AcqRel) {
            if let Some(reader) = self.reader.get_or_init(|| self.start_reader()) {
                let _ = reader.send(material);
            }
        }
    }

    /// Starts the background reader: one thread that reads the requested
    /// slices in turn, so that loading never takes more than one core
    /// from the search (several readers at once starved a search on a
    /// busy machine). It ends when the tables are dropped. `None` if the
    /// thread cannot be started: then only blocking probes read files.
    fn start_reader(&self) -> Option<mpsc::Sender<Material>> {
        let (send, receive) = mpsc::channel::<Material>();
        let slots = Arc::clone(&self.slots);
        let dir = self.dir.clone();
        std::thread::Builder::new()
            .name("damas-tb-read".to_string())
            .spawn(move || {
                for material in receive {
                    slots[material.key()].get_or_read(&dir, material);
                }
            })
            .ok()?;
        Some(send)
    }

    /// The slice of `material` from its file, with the error when it
    /// cannot be read (verification).
    pub(crate) fn load(&self, material: Material) -> Result<&Slice, TablebaseError> {
        let slot = &self.slots[material.key()];
        if slot.slice.get().is_none() {
            let s = file::read(&self.dir, material)?;
            let _ = slot.slice.set(Some(Arc::new(s)));
        }
        self.slice(material)
            .ok_or(TablebaseError::Missing(material))
    }

    /// The stored value code of `pos` (the generator's exits), `None` if
    /// its slice is missing.
    #[inline]
    pub(crate) fn stored(&self, pos: &Position) -> Option<(Value, u8)> {
        self.stored_for(pos, true)
    }

    /// [`Tablebase::stored`], waiting for the slice or not. Without
    /// waiting, a slice not yet in memory is queued for the background
    /// reader and the entry is read from its file at its offset meanwhile.
    #[inline]
    fn stored_for(&self, pos: &Position, wait: bool) -> Option<(Value, u8)> {
        let m = Material::of(pos);
        let slot = self.slot(m)?;
        let i = Indexer::new(m).index(pos);
        let slice = match slot.slice.get() {
            Some(loaded) => loaded.as_deref()?,
            None if wait => slot.get_or_read(&self.dir, m)?,
            None => {
                self.request(m);
                return slot
                    .file
                    .get_or_init(|| file::open(&self.dir, m).ok())
                    .as_ref()?
                    .entry(i);
            }
        };
        Some((slice.value(i), slice.distance(i)))
    }

    /// The value and distance of `pos` for the side to move, or `None`
    /// when the position has more pieces than the tables or its slice is
    /// missing. A side to move without pieces has lost.
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
        self.probe_for(pos, true)
    }

    /// [`Tablebase::probe`] without waiting for a slice to be read: the
    /// first probe of a slice queues it for the background reader, and
    /// until it is in memory each probe reads its entry from the file at
    /// its offset (two one-byte reads, a few microseconds from the page
    /// cache; on non-Unix systems `None` instead). What a search on the
    /// clock uses, since a large slice takes a second or more to read.
    /// Until the background read has checked the checksum, these entries
    /// are trusted on the header's checks alone.
    #[inline]
    pub fn probe_without_waiting(&self, pos: &Position) -> Option<Probe> {
        self.probe_for(pos, false)
    }

    #[inline]
    fn probe_for(&self, pos: &Position, wait: bool) -> Option<Probe> {
        let side = pos.to_move();
        if pos.pieces(side).is_empty() {
            return Some(Probe {
                wdl: Wdl::Loss,
                distance: 0,
            });
        }
        if pos.occupied().count() > self.max_pieces || pos.pieces(!side).is_empty() {
            return None;
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
        Some(Probe { wdl, distance })
    }

    /// Every legal move of `pos` with its value for the mover when the
    /// no-progress count is `counter`, best first: wins by the shortest
    /// distance to the next zeroing move (the conversion that always
    /// arrives in time), then draws, then losses by the longest
    /// resistance. `None` when a successor is not in the tables.
    pub fn rank_moves(&self, pos: &Position, counter: u32) -> Option<Vec<MoveValue>> {
        self.rank_moves_for(pos, counter, true)
    }

    /// [`Tablebase::rank_moves`] without waiting for a slice to be read
    /// (see [`Tablebase::probe_without_waiting`]).
    pub fn rank_moves_without_waiting(
        &self,
        pos: &Position,
        counter: u32,
    ) -> Option<Vec<MoveValue>> {
        self.rank_moves_for(pos, counter, false)
    }

    fn rank_moves_for(&self, pos: &Position, counter: u32, wait: bool) -> Option<Vec<MoveValue>> {
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
        Some(out)
    }
}
