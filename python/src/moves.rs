//! `damas.Move` and `damas.MoveList`: the legal moves of a position, whose
//! texts and paths are read from the position they were legal in.
//!
//! A list of moves does not copy its game (a whole game, history and undo
//! records included, costs more to copy than its moves cost to generate).
//! It reads the live game while the game stays where it was; when the game
//! plays on, the moves still alive note the turn they belong to and find
//! their position again, if they are read, by taking a copy of the game
//! back to that turn; when the game takes that turn back, they keep the
//! position's text instead. Move objects are made as they are read.

use std::sync::{Arc, Mutex, OnceLock};

use damas::board::MoveKind;
use damas::{AnyGame, AnyMove, Game, Point};
use pyo3::exceptions::{PyIndexError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice};

/// The game live moves came from (the Python `Game` object, game.rs),
/// lending its game for a moment; this module names no game object.
pub trait Owner: Send + Sync {
    /// Runs `f` on the owner's game as it is now; an error when the game
    /// is being changed.
    fn with_game(&self, py: Python<'_>, f: &mut dyn FnMut(&AnyGame)) -> PyResult<()>;
}

/// Where the position of a set of moves is to be found.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Place {
    /// The owner's game as it is.
    Live,
    /// The owner's game after `turns` turns, where the position hashed
    /// `hash`.
    Turn { turns: usize, hash: u64 },
    /// The position text.
    Text(String),
}

/// Where moves read the position they were legal in.
pub struct Source {
    /// The game the moves came from.
    owner: Option<Box<dyn Owner>>,
    place: Mutex<Place>,
    /// The position once rebuilt (or a fixed copy).
    fixed: OnceLock<Result<AnyGame, String>>,
}

impl Source {
    /// The live game `owner`.
    pub fn live(owner: impl Owner + 'static) -> Arc<Source> {
        Arc::new(Source {
            owner: Some(Box::new(owner)),
            place: Mutex::new(Place::Live),
            fixed: OnceLock::new(),
        })
    }

    /// A copy of a game that no one changes.
    pub fn fixed(game: AnyGame) -> Arc<Source> {
        let fixed = OnceLock::new();
        let _ = fixed.set(Ok(game));
        Arc::new(Source {
            owner: None,
            place: Mutex::new(Place::Live),
            fixed,
        })
    }

    fn set_place(&self, place: Place) {
        if let Ok(mut current) = self.place.lock() {
            *current = place;
        }
    }

    /// The owner's game, as it is now, is about to play on.
    pub fn leave_turn(&self, game: &AnyGame) {
        self.set_place(Place::Turn {
            turns: game.turn_count(),
            hash: game.hash(),
        });
    }

    /// Whether the moves' position is the owner's after `turns` turns.
    pub fn is_at_turn(&self, turns: usize) -> bool {
        self.place
            .lock()
            .is_ok_and(|place| matches!(*place, Place::Turn { turns: t, .. } if t == turns))
    }

    /// The owner's game, as it is now, is about to be taken back.
    pub fn leave_text(&self, text: String) {
        self.set_place(Place::Text(text));
    }

    fn rebuild(&self, py: Python<'_>) -> PyResult<Option<Result<AnyGame, String>>> {
        let place = self
            .place
            .lock()
            .map_err(|_| PyRuntimeError::new_err("a move's position was lost"))?
            .clone();
        let owner = || {
            self.owner
                .as_deref()
                .ok_or_else(|| PyRuntimeError::new_err("a move without a position"))
        };
        Ok(match place {
            Place::Live => None,
            Place::Text(text) => {
                let mut read = None;
                owner()?.with_game(py, &mut |game| {
                    read = Some(game.read_position(&text).map_err(|e| e.to_string()));
                })?;
                read
            }
            Place::Turn { turns, hash } => {
                let mut copy = None;
                owner()?.with_game(py, &mut |game| copy = Some(game.clone()))?;
                let Some(mut game) = copy else {
                    return Ok(None);
                };
                while game.turn_count() > turns && game.undo() {}
                if game.turn_count() == turns && game.hash() == hash {
                    Some(Ok(game))
                } else {
                    Some(Err("a move's position was lost".to_string()))
                }
            }
        })
    }

    /// Runs `f` on the position the moves were legal in.
    pub fn with<T>(&self, py: Python<'_>, f: impl FnOnce(&AnyGame) -> T) -> PyResult<T> {
        if self.fixed.get().is_none() {
            if let Some(rebuilt) = self.rebuild(py)? {
                let _ = self.fixed.set(rebuilt);
            }
        }
        if let Some(fixed) = self.fixed.get() {
            return fixed
                .as_ref()
                .map(f)
                .map_err(|error| PyRuntimeError::new_err(error.clone()));
        }
        let owner = self
            .owner
            .as_deref()
            .ok_or_else(|| PyRuntimeError::new_err("a move without a position"))?;
        let mut f = Some(f);
        let mut out = None;
        owner.with_game(py, &mut |game| out = f.take().map(|f| f(game)))?;
        out.ok_or_else(|| PyRuntimeError::new_err("a move without a position"))
    }
}

/// The legal moves of a position, as `Game.legal_moves()` gives them: a
/// read-only sequence (`len`, indexing and slices, iteration, `in`) whose
/// `Move` objects are made when read, so that listing the moves costs
/// about what the engine spends generating them. Equal to another
/// `MoveList` or a list with the same moves in the same order.
#[pyclass(name = "MoveList", module = "damas", frozen, sequence)]
pub struct PyMoveList {
    pub moves: Vec<AnyMove>,
    pub source: Arc<Source>,
}

impl PyMoveList {
    fn item(&self, index: usize) -> PyMove {
        PyMove {
            mv: self.moves[index],
            source: Arc::clone(&self.source),
        }
    }

    fn all(&self) -> Vec<PyMove> {
        (0..self.moves.len()).map(|i| self.item(i)).collect()
    }
}

#[pymethods]
impl PyMoveList {
    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(slice) = index.cast::<PySlice>() {
            let range = slice.indices(self.moves.len() as isize)?;
            let mut picked = Vec::new();
            let mut i = range.start;
            while (range.step > 0 && i < range.stop) || (range.step < 0 && i > range.stop) {
                picked.push(self.item(i as usize));
                i += range.step;
            }
            return Ok(PyList::new(py, picked)?.into_any());
        }
        let index: isize = index.extract()?;
        let len = self.moves.len() as isize;
        let at = if index < 0 { index + len } else { index };
        if !(0..len).contains(&at) {
            return Err(PyIndexError::new_err("move index out of range"));
        }
        Ok(Bound::new(py, self.item(at as usize))?.into_any())
    }

    fn __contains__(&self, mv: &Bound<'_, PyAny>) -> bool {
        mv.cast::<PyMove>()
            .is_ok_and(|mv| self.moves.contains(&mv.get().mv))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyList::new(py, self.all())?
            .try_iter()
            .map(|it| it.into_any())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(other) = other.cast::<PyMoveList>() {
            return other.get().moves == self.moves;
        }
        let Ok(items) = other.extract::<Vec<PyRef<'_, PyMove>>>() else {
            return false;
        };
        items.len() == self.moves.len() && items.iter().zip(&self.moves).all(|(a, b)| a.mv == *b)
    }

    /// The moves' canonical texts.
    fn texts(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.source.with(py, |game| {
            self.moves.iter().map(|mv| game.move_text(mv)).collect()
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("MoveList({:?})", self.texts(py)?))
    }
}

/// A legal move of a position: its canonical text, the points it leaves,
/// lands on and ends on, the pieces it takes.
///
/// `from_` (the name `from` is a Python keyword) and `to` are point names;
/// `path` lists every point the piece stands on, `from_` first and `to`
/// last; `captures` the points of the pieces taken, in order; `promotes`
/// whether a man becomes a king; `kind` is `"step"`, `"jump"` or
/// `"capture"`. A move is equal to another for the same move.
#[pyclass(name = "Move", module = "damas", frozen)]
#[derive(Clone)]
pub struct PyMove {
    pub mv: AnyMove,
    /// The position the move was legal in, which its text and path need.
    pub source: Arc<Source>,
}

impl PyMove {
    fn names(game: &AnyGame, points: &[Point]) -> Vec<String> {
        points.iter().map(|&p| game.point_name(p)).collect()
    }
}

#[pymethods]
impl PyMove {
    /// The canonical text (`"11-15"`, `"15x24"`, `"e4-e5"`).
    #[getter]
    pub fn text(&self, py: Python<'_>) -> PyResult<String> {
        self.source.with(py, |game| game.move_text(&self.mv))
    }

    /// The point the piece leaves.
    #[getter]
    fn from_(&self, py: Python<'_>) -> PyResult<String> {
        self.source
            .with(py, |game| game.point_name(self.mv.ends().0))
    }

    /// The point it ends on.
    #[getter]
    fn to(&self, py: Python<'_>) -> PyResult<String> {
        self.source
            .with(py, |game| game.point_name(self.mv.ends().1))
    }

    /// Every point the piece stands on, `from_` first.
    #[getter]
    fn path(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.source
            .with(py, |game| Self::names(game, &game.anatomy(&self.mv).path))
    }

    /// The points of the pieces taken, in the order they are jumped.
    #[getter]
    fn captures(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.source.with(py, |game| {
            Self::names(game, &game.anatomy(&self.mv).captured)
        })
    }

    /// Whether a man becomes a king.
    #[getter]
    fn promotes(&self, py: Python<'_>) -> PyResult<bool> {
        self.source.with(py, |game| game.anatomy(&self.mv).promotes)
    }

    /// `"step"`, `"jump"` or `"capture"`.
    #[getter]
    fn kind(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.source
            .with(py, |game| match game.anatomy(&self.mv).kind {
                MoveKind::Step => "step",
                MoveKind::Jump => "jump",
                MoveKind::Capture => "capture",
            })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyMove>()
            .is_ok_and(|other| other.get().mv == self.mv)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.mv.hash(&mut hasher);
        hasher.finish()
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.text(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Move({:?})", self.text(py)?))
    }
}
