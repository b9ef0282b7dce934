//! `damas.Game`, `damas.Move` and `damas.Outcome`: one game of any kind
//! through the engine's [`Game`] interface.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Weak};

use damas::board::{PieceKind, PlayerStatus};
use damas::search::MAX_THREADS;
use damas::{AnyGame, AnyMove, Game, Outcome, Player, MAX_PERFT_HASH_MB};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::blocking::run_interruptible;
use crate::errors::{option_error, play_error, position_error};
use crate::moves::{Owner, PyMove, PyMoveList, Source};
use crate::setup::{clip, Setup, MAX_POSITION_TEXT};

/// Deepest perft or divide asked for. Counts stop on Ctrl-C, so the bound
/// only keeps the number sensible.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Longest move text read.
const MAX_MOVE_TEXT: usize = 1000;

/// The player `index` (0-based) of `game`, or an `OptionError`.
pub fn seat(game: &AnyGame, index: usize) -> PyResult<Player> {
    Player::all(game.player_count()).nth(index).ok_or_else(|| {
        option_error(format!(
            "player {index} is not a seat of this {}-player game",
            game.player_count()
        ))
    })
}

/// The player `index` of `game`, or with none the player to move (a
/// `ValueError` once the game is over).
pub fn seat_or_mover(game: &AnyGame, index: Option<usize>) -> PyResult<Player> {
    match index {
        Some(index) => seat(game, index),
        None => game
            .to_move()
            .ok_or_else(|| play_error(damas::PlayError::GameOver)),
    }
}

/// One game of Spanish draughts, Chinese checkers or its Japanese variant,
/// with its history.
///
/// `Game(kind="spanish", players=None, rules=None, position=None,
/// first_player=0, variant=None)`: `kind` is `"spanish"`, `"chinese"` or
/// `"japanese"`; `variant` the draughts rule set (`"brazilian"`: the
/// `Variant` option, also given as `rules={"Variant": "brazilian"}`);
/// `players` 2 for Spanish draughts, 1–6 for Chinese checkers and 1–3 for
/// the Japanese variant (default 2); `rules` a dict of rule options by
/// their protocol names (`{"AntiBlocking": False, "MoveLimit": 100}`, or
/// `{"Rules": "ccerl"}`; see `damas.rule_options()`); `position` a
/// position text (a PDN FEN in Spanish draughts, the Chinese checkers
/// line) to start from; `first_player` the seat (0-based) that opens a
/// Chinese checkers game.
///
/// Players are 0-based seat numbers (`0` is White in Spanish draughts and
/// the bottom seat of the star). Points are named as the notation names
/// them (`"11"`, `"e4"`).
#[pyclass(name = "Game", module = "damas")]
pub struct PyGame {
    pub game: AnyGame,
    pub setup: Arc<Setup>,
    /// Where the moves handed out for this position read it, while any
    /// is alive (see [`Source`]).
    source: Weak<Source>,
    /// The sources of earlier positions still alive.
    left: Vec<Weak<Source>>,
}

impl Owner for Py<PyGame> {
    fn with_game(&self, py: Python<'_>, f: &mut dyn FnMut(&AnyGame)) -> PyResult<()> {
        f(&self.bind(py).try_borrow()?.game);
        Ok(())
    }
}

impl PyGame {
    pub fn from_parts(game: AnyGame, setup: Arc<Setup>) -> PyGame {
        PyGame {
            game,
            setup,
            source: Weak::new(),
            left: Vec::new(),
        }
    }

    /// The game, to be played on: moves still alive note their turn.
    fn game_mut(&mut self) -> &mut AnyGame {
        self.left.retain(|source| source.strong_count() > 0);
        if let Some(source) = self.source.upgrade() {
            source.leave_turn(&self.game);
            self.left.push(Arc::downgrade(&source));
        }
        self.source = Weak::new();
        &mut self.game
    }

    /// The game, to take its last turn back: moves of the position about
    /// to go keep its text.
    fn game_to_undo(&mut self) -> &mut AnyGame {
        let turns = self.game.turn_count();
        let mut text: Option<String> = None;
        let current = self.source.upgrade();
        let mut going: Vec<Arc<Source>> = current.into_iter().collect();
        self.left.retain(|weak| match weak.upgrade() {
            Some(source) if source.is_at_turn(turns) => {
                going.push(source);
                false
            }
            Some(_) => true,
            None => false,
        });
        for source in going {
            let text = text.get_or_insert_with(|| self.game.position_text());
            source.leave_text(text.clone());
        }
        self.source = Weak::new();
        &mut self.game
    }

    fn moves(slf: &Bound<'_, Self>, moves: Vec<AnyMove>) -> PyMoveList {
        let mut this = slf.borrow_mut();
        let source = match this.source.upgrade() {
            Some(source) => source,
            None => {
                let source = Source::live(slf.clone().unbind());
                this.source = Arc::downgrade(&source);
                source
            }
        };
        PyMoveList { moves, source }
    }

    fn point(&self, name: &str) -> PyResult<damas::Point> {
        self.game.point(&clip(name)).map_err(play_error)
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (kind = "spanish", players = None, rules = None, position = None, first_player = 0, variant = None))]
    fn new(
        kind: &str,
        players: Option<u8>,
        rules: Option<&Bound<'_, PyDict>>,
        position: Option<String>,
        first_player: usize,
        variant: Option<&str>,
    ) -> PyResult<PyGame> {
        let setup = Setup::new(kind, players, rules, first_player, position, variant)?;
        let game = setup.new_game()?;
        Ok(PyGame::from_parts(game, Arc::new(setup)))
    }

    /// The game's name: `"spanish"`, `"chinese"` or `"japanese"` (the
    /// Japanese variant with 4 or more players is played, and named, as
    /// `"chinese"`).
    #[getter]
    fn kind(&self) -> &'static str {
        self.game.kind().name()
    }

    /// The game's name for people (`"Spanish draughts"`).
    #[getter]
    fn title(&self) -> &'static str {
        self.game.kind().title()
    }

    /// The rule options of this game, by name, as text.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.setup.rules_dict(py)
    }

    /// How many seats the game has.
    #[getter]
    fn player_count(&self) -> usize {
        self.game.player_count()
    }

    /// The seat to move (0-based), or `None` once the game is over.
    #[getter]
    fn to_move(&self) -> Option<usize> {
        self.game.to_move().map(Player::index)
    }

    /// The seat that took the first turn.
    #[getter]
    fn first_player(&self) -> usize {
        self.game.first_player().index()
    }

    /// Turns taken since the start (moves, passes and resignations).
    #[getter]
    fn turn_count(&self) -> usize {
        self.game.turn_count()
    }

    /// How people call a seat (`"White"`, `"Red"`, ...).
    fn player_name(&self, player: usize) -> PyResult<&'static str> {
        Ok(self.game.player_name(seat(&self.game, player)?))
    }

    /// Every legal move of the player to move (empty when the game is over
    /// or the player must pass): a `MoveList`, a sequence of `Move`
    /// objects made as they are read.
    fn legal_moves(slf: &Bound<'_, Self>) -> PyMoveList {
        let moves = slf.borrow().game.legal_moves();
        Self::moves(slf, moves)
    }

    /// Every legal move in canonical text; `["pass"]` when the player to
    /// move must pass.
    fn legal_moves_text(&self) -> Vec<String> {
        self.game.legal_moves_text()
    }

    /// The legal moves of the piece on `point` (a point name).
    fn moves_from(slf: &Bound<'_, Self>, point: &str) -> PyResult<PyMoveList> {
        let moves = {
            let this = slf.borrow();
            this.game.moves_from(this.point(point)?)
        };
        Ok(Self::moves(slf, moves))
    }

    /// Whether the player to move has no legal move and must pass.
    fn must_pass(&self) -> bool {
        self.game.must_pass()
    }

    /// Plays a move: a `Move` from `legal_moves()` or a move text (also
    /// `"pass"` and `"resign"`). Checked: an illegal move raises
    /// `IllegalMoveError` and changes nothing.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(mv) = mv.cast::<PyMove>() {
            let mv = mv.get().mv;
            return self.game_mut().play(mv).map_err(play_error);
        }
        let text: String = mv
            .extract()
            .map_err(|_| PyTypeError::new_err("play takes a Move or a move text"))?;
        self.play_text(&text).map(|_| ())
    }

    /// Plays a move text (also `"pass"` and `"resign"`) and returns its
    /// canonical text; an illegal move raises `IllegalMoveError` and
    /// changes nothing.
    fn play_text(&mut self, text: &str) -> PyResult<String> {
        if text.len() > MAX_MOVE_TEXT {
            return Err(play_error(damas::PlayError::Notation(format!(
                "a move text is at most {MAX_MOVE_TEXT} bytes"
            ))));
        }
        // The library leaves the game unchanged when it refuses a move.
        self.game_mut().play_text(text).map_err(play_error)
    }

    /// The player to move, who has no legal move, passes (Chinese
    /// checkers).
    #[pyo3(name = "pass_")]
    fn pass(&mut self) -> PyResult<()> {
        self.game_mut().pass().map_err(play_error)
    }

    /// `player` (default: the player to move) resigns. With two players
    /// the rival wins; with more, the game goes on for the others.
    #[pyo3(signature = (player = None))]
    fn resign(&mut self, player: Option<usize>) -> PyResult<()> {
        let player = seat_or_mover(&self.game, player)?;
        self.game_mut().resign(player).map_err(play_error)
    }

    /// Takes back the last turn; `False` at the start.
    fn undo(&mut self) -> bool {
        if self.game.turn_count() == 0 {
            return false;
        }
        self.game_to_undo().undo()
    }

    /// The position text (PDN FEN, or the Chinese checkers line) that
    /// `Game(..., position=text)` and `read_position` read back.
    #[getter]
    fn position(&self) -> String {
        self.game.position_text()
    }

    /// A new game of the same game and rules from a position text.
    fn read_position(&self, text: &str) -> PyResult<PyGame> {
        if text.len() > MAX_POSITION_TEXT {
            return Err(crate::errors::PositionError::new_err(format!(
                "invalid position: longer than {MAX_POSITION_TEXT} bytes"
            )));
        }
        let game = self.game.read_position(text).map_err(position_error)?;
        let setup = Setup {
            start: Some(text.to_string()),
            ..(*self.setup).clone()
        };
        Ok(PyGame::from_parts(game, Arc::new(setup)))
    }

    /// The board for people, several lines.
    fn diagram(&self) -> String {
        self.game.diagram()
    }

    /// Zobrist hash of the position and the player to move.
    #[getter]
    fn hash(&self) -> u64 {
        self.game.hash()
    }

    /// The place decided so far for each seat (`None` while playing).
    fn places(&self) -> Vec<Option<u8>> {
        self.game.places()
    }

    /// How each seat stands: `"playing"`, `"finished"`, `"resigned"` or
    /// `"out"`.
    fn statuses(&self) -> Vec<&'static str> {
        self.game
            .player_statuses()
            .into_iter()
            .map(|status| match status {
                PlayerStatus::Playing => "playing",
                PlayerStatus::Finished { .. } => "finished",
                PlayerStatus::Resigned { .. } => "resigned",
                PlayerStatus::Out { .. } => "out",
            })
            .collect()
    }

    /// How the game ended, or `None` while it goes on.
    #[getter]
    fn outcome(&self) -> Option<PyOutcome> {
        self.game.outcome().map(PyOutcome::from)
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.to_move().is_none()
    }

    /// The texts of the turns taken, in order (`"pass"`, `"resign"`
    /// included).
    fn turns(&self) -> Vec<String> {
        self.game
            .turns()
            .into_iter()
            .map(|turn| turn.text)
            .collect()
    }

    /// Every point's name, in index order.
    fn points(&self) -> Vec<String> {
        self.game
            .board()
            .points
            .into_iter()
            .map(|point| point.name)
            .collect()
    }

    /// The piece on `point` as `(seat, "man" | "king")`, or `None`.
    fn piece_at(&self, point: &str) -> PyResult<Option<(usize, &'static str)>> {
        let point = self.point(point)?;
        Ok(self.game.piece_at(point).map(|piece| {
            let kind = match piece.kind {
                PieceKind::Man => "man",
                PieceKind::King => "king",
            };
            (piece.owner.index(), kind)
        }))
    }

    /// Leaf nodes of the move tree `depth` plies deep, over `threads`
    /// threads (0: every core; default 1), with a transposition table of
    /// `hash_mb` MiB when given (the same counts, faster where moves
    /// transpose). Releases the GIL; Ctrl-C stops it.
    #[pyo3(signature = (depth, threads = 1, hash_mb = None))]
    fn perft(
        slf: PyRef<'_, Self>,
        py: Python<'_>,
        depth: u32,
        threads: usize,
        hash_mb: Option<usize>,
    ) -> PyResult<u64> {
        check_depth(depth)?;
        if threads > MAX_THREADS {
            return Err(option_error(format!(
                "threads {threads} is not in 0-{MAX_THREADS}"
            )));
        }
        if let Some(mb) = hash_mb {
            if !(1..=MAX_PERFT_HASH_MB).contains(&mb) {
                return Err(option_error(format!(
                    "hash_mb {mb} is not in 1-{MAX_PERFT_HASH_MB}"
                )));
            }
        }
        let game = slf.game.clone();
        drop(slf);
        let stop = AtomicBool::new(false);
        let count = run_interruptible(py, &stop, || match hash_mb {
            Some(mb) => game.perft_hashed_until(depth, threads, mb, &stop),
            None => game.perft_until(depth, threads, &stop),
        })?;
        count.ok_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err("perft stopped"))
    }

    /// The leaf counts `depth` plies deep per legal move, as
    /// `(move text, count)` pairs (`"pass"` for a forced pass). Releases
    /// the GIL; Ctrl-C stops it.
    fn divide(slf: PyRef<'_, Self>, py: Python<'_>, depth: u32) -> PyResult<Vec<(String, u64)>> {
        check_depth(depth)?;
        let game = slf.game.clone();
        drop(slf);
        let stop = AtomicBool::new(false);
        let rows = run_interruptible(py, &stop, || game.divide_until(depth, &stop))?;
        rows.ok_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err("divide stopped"))
    }

    /// An independent copy of the game.
    fn copy(&self) -> PyGame {
        PyGame::from_parts(self.game.clone(), Arc::clone(&self.setup))
    }

    fn __copy__(&self) -> PyGame {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.copy()
    }

    /// Pickles as the setup and the turns played, replayed on loading.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let restore = py.import("damas._damas")?.getattr("_restore_game")?;
        let args = (
            self.setup.kind_name(),
            self.setup.spec.players(),
            self.setup.rules_dict(py)?,
            self.setup.start.clone(),
            self.setup.first_player.index(),
            self.turns(),
        )
            .into_pyobject(py)?;
        Ok((restore, args))
    }

    fn __str__(&self) -> String {
        self.game.diagram()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, players={}, position={:?})",
            self.game.kind().name(),
            self.game.player_count(),
            self.game.position_text()
        )
    }
}

fn check_depth(depth: u32) -> PyResult<()> {
    if depth > MAX_PERFT_DEPTH {
        return Err(option_error(format!(
            "depth {depth} is not in 0-{MAX_PERFT_DEPTH}"
        )));
    }
    Ok(())
}

/// Makes a pickled game again (see `Game.__reduce__`).
#[pyfunction]
#[pyo3(name = "_restore_game")]
pub fn restore_game(
    kind: &str,
    players: u8,
    rules: &Bound<'_, PyDict>,
    start: Option<String>,
    first_player: usize,
    turns: Vec<String>,
) -> PyResult<PyGame> {
    let setup = Setup::new(kind, Some(players), Some(rules), first_player, start, None)?;
    let mut game = setup.new_game()?;
    for text in &turns {
        game.play_text(text).map_err(play_error)?;
    }
    Ok(PyGame::from_parts(game, Arc::new(setup)))
}

/// How a game ended: `places` (1-based, per seat; equal places tie),
/// `reason` (the library's sentence), `reason_code` (`"no_pieces"`,
/// `"repetition"`, `"no_progress"`, `"three_kings"`, `"all_placed"`, ...), `winner` (the seat alone in first
/// place, or `None`) and `is_draw`.
#[pyclass(name = "Outcome", module = "damas", frozen, get_all)]
#[derive(Clone)]
pub struct PyOutcome {
    /// Place of each seat, 1-based (a `Vec<u8>` would reach Python as
    /// bytes).
    pub places: Vec<u32>,
    /// Why the game ended, in words.
    pub reason: String,
    /// Why the game ended, as a code.
    pub reason_code: String,
    /// The seat alone in first place.
    pub winner: Option<usize>,
    /// Whether the first place is shared (or nobody took it).
    pub is_draw: bool,
}

impl From<Outcome> for PyOutcome {
    fn from(outcome: Outcome) -> PyOutcome {
        PyOutcome {
            reason: outcome.reason.to_string(),
            reason_code: outcome.reason.code().to_string(),
            winner: outcome.winner().map(Player::index),
            is_draw: outcome.is_draw(),
            places: outcome.places.iter().map(|&p| u32::from(p)).collect(),
        }
    }
}

#[pymethods]
impl PyOutcome {
    fn __repr__(&self) -> String {
        format!(
            "Outcome(places={:?}, reason={:?})",
            self.places, self.reason_code
        )
    }
}
