//! Endgame tables behind one game-neutral handle: a front end opens the
//! tables of a directory, hands them to the search ([`AnyEngine`]) and asks
//! for the one-line value of a position ([`EndgameTables::probe_text`]),
//! without naming the game that has them (today Spanish draughts only).

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::any::{AnyEngine, AnyGame};
use crate::spanish;
use crate::spanish::tablebase::{ProbeError, Tablebase, TablebaseError};

/// The endgame tables of a directory (cheap to clone: the files are shared
/// and only read when probed).
#[derive(Clone, Debug)]
pub struct EndgameTables {
    draughts: Arc<Tablebase>,
    /// How many damaged slices [`EndgameTables::damage_notes`] has told
    /// of, shared by the clones so that each is told once.
    damage_told: Arc<AtomicUsize>,
}

/// Why [`EndgameTables::open`] found no tables.
#[derive(Debug, thiserror::Error)]
pub enum EndgameTablesError {
    /// The directory has no complete set of the smallest tables.
    #[error("no complete set of tables in {0} (every 2-piece slice is needed)")]
    Incomplete(String),
    /// The directory could not be read.
    #[error(transparent)]
    Open(#[from] TablebaseError),
}

impl EndgameTables {
    /// The tables in `dir`, which must hold at least every 2-piece slice.
    ///
    /// # Errors
    ///
    /// [`EndgameTablesError::Incomplete`] when `dir` lacks the 2-piece slices;
    /// the table's own error ([`EndgameTablesError`] wrapping a
    /// [`TablebaseError`](crate::spanish::tablebase::TablebaseError)) when the
    /// directory cannot be read or a file's header is damaged.
    pub fn open(dir: &Path) -> Result<EndgameTables, EndgameTablesError> {
        let tablebase = Tablebase::open(dir)?;
        if tablebase.max_pieces() == 0 {
            return Err(EndgameTablesError::Incomplete(dir.display().to_string()));
        }
        Ok(EndgameTables {
            draughts: Arc::new(tablebase),
            damage_told: Arc::new(AtomicUsize::new(0)),
        })
    }

    /// One line for each slice found damaged since the last call (by this
    /// handle or a clone), e.g. `tablebase slice 1k0m-3k0m is damaged
    /// (checksum mismatch); its positions are searched instead`. A slice
    /// is found damaged when the tables are opened (a wrong header or
    /// length) or when it is first read (a wrong checksum); its entries
    /// are never used.
    pub fn damage_notes(&self) -> Vec<String> {
        let damaged = self.draughts.damaged_slices();
        let told = self.damage_told.fetch_max(damaged.len(), Ordering::AcqRel);
        damaged
            .iter()
            .skip(told)
            .map(|slice| format!("tablebase {slice}; its positions are searched instead"))
            .collect()
    }

    /// Largest piece count the tables fully cover.
    pub fn max_pieces(&self) -> u32 {
        self.draughts.max_pieces()
    }

    /// The draughts variant the tables hold (that of their files'
    /// headers): the searches and [`EndgameTables::probe_text`] use them
    /// for that variant's games only.
    pub fn variant(&self) -> spanish::Variant {
        self.draughts.variant()
    }

    /// The value of `game`'s position in the tables as one line, or `None`
    /// when the position is not in them (or its game has no tables):
    /// `tablebase <value> distance <plies> counter <n> result <win|draw|loss>`
    /// (the value with the 80-ply rule's distinctions, the distance to the
    /// next capture or man move, and the result at the game's count).
    /// A position whose slice is damaged or missing has no value but a line
    /// that says so: `tablebase damaged slice <material> (<why>)` or
    /// `tablebase missing slice <material>`.
    pub fn probe_text(&self, game: &AnyGame) -> Option<String> {
        let AnyGame::Spanish(game) = game else {
            return None;
        };
        let probe = match self.draughts.try_probe(game.position()) {
            Ok(probe) => probe,
            Err(ProbeError::Damaged(slice)) => {
                return Some(format!(
                    "tablebase damaged slice {} ({})",
                    slice.material, slice.why
                ))
            }
            Err(ProbeError::Missing(material)) => {
                return Some(format!("tablebase missing slice {material}"))
            }
            // The tables of another variant say nothing about this one.
            Err(
                ProbeError::NotCovered(_)
                | ProbeError::NotRead(_)
                | ProbeError::OtherVariant { .. },
            ) => return None,
        };
        let counter = game.plies_without_progress();
        Some(format!(
            "tablebase {} distance {} counter {counter} result {}",
            probe.wdl.name(),
            probe.distance,
            probe.value_at(counter).name()
        ))
    }
}

impl AnyEngine {
    /// The endgame tables the searches probe, or none.
    pub fn set_endgame_tables(&mut self, tables: Option<&EndgameTables>) {
        self.set_tablebase(tables.map(|tables| Arc::clone(&tables.draughts)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameSpec, Search};

    #[test]
    fn a_missing_or_empty_directory_is_refused() {
        let missing = Path::new("/nonexistent/damas-endgame-tables");
        assert!(matches!(
            EndgameTables::open(missing),
            Err(EndgameTablesError::Open(_))
        ));
        let empty =
            std::env::temp_dir().join(format!("damas-endgame-empty-{}", std::process::id()));
        std::fs::create_dir_all(&empty).expect("temporary directory");
        let refused = EndgameTables::open(&empty);
        assert!(
            matches!(&refused, Err(EndgameTablesError::Incomplete(dir)) if dir == &empty.display().to_string()),
            "{refused:?}"
        );
        let _ = std::fs::remove_dir_all(&empty);
    }

    #[test]
    fn tables_probe_their_game_only() {
        let dir = std::env::temp_dir().join(format!("damas-endgame-two-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        crate::spanish::tablebase::generate(&dir, 2, 1, &|_| {}).expect("tables");
        let tables = EndgameTables::open(&dir).expect("complete 2-piece tables");
        assert_eq!(tables.max_pieces(), 2);
        let kings = AnyGame::from_text(&GameSpec::default(), "W:WK14:BK23").expect("position");
        let line = tables.probe_text(&kings).expect("in the tables");
        assert!(line.starts_with("tablebase "), "{line}");
        assert!(line.contains(" counter 0 result "), "{line}");
        let start = AnyGame::new(&GameSpec::default());
        assert_eq!(tables.probe_text(&start), None);
        let star = AnyGame::new(&GameSpec::Chinese(crate::chinese::Rules::for_players(2)));
        assert_eq!(tables.probe_text(&star), None);
        let mut engine = AnyEngine::new(1);
        engine.set_endgame_tables(Some(&tables));
        engine.set_endgame_tables(None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
