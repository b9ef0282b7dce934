//! `damas.RlGame`: a game behind the reinforcement-learning encoding of
//! [`codec`] (fixed action ids, legal-action masks, observation planes),
//! with forced passes played automatically and rewards from the places.
//! The PettingZoo, Gymnasium and OpenSpiel environments of the Python
//! package are thin layers over it.

mod codec;

use std::sync::Arc;

use damas::board::PlayerStatus;
use damas::{AnyGame, Game};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::engine::{limits, PyEngine};
use crate::errors::{option_error, play_error};
use crate::game::{seat, seat_or_mover, PyGame, PyOutcome};
use crate::setup::Setup;
use codec::{Codec, Encoded};

/// An observation and a legal-action mask.
type Observed<'py> = (Bound<'py, PyArray3<i8>>, Bound<'py, PyArray1<i8>>);

/// The reward of each seat whose place is decided: 1 for the first place,
/// −1 for the last, linear between, tied seats sharing the mean of the
/// places they hold (so the rewards of a finished game sum to 0). Alone
/// (solitaire): 1 for finishing, 0 otherwise.
pub fn place_rewards(game: &AnyGame) -> Vec<Option<f64>> {
    let places = game.places();
    let n = places.len();
    if n == 1 {
        let finished = matches!(
            game.player_statuses().first(),
            Some(PlayerStatus::Finished { .. })
        );
        return vec![places[0].map(|_| if finished { 1.0 } else { 0.0 })];
    }
    places
        .iter()
        .map(|place| {
            place.map(|q| {
                let tied = places.iter().filter(|&&p| p == Some(q)).count();
                let mean = f64::from(q) + (tied as f64 - 1.0) / 2.0;
                (n as f64 + 1.0 - 2.0 * mean) / (n as f64 - 1.0)
            })
        })
        .collect()
}

/// A game with action ids, masks and observation planes, for learning.
///
/// `RlGame(kind="spanish", players=None, rules=None, first_player=0,
/// position=None)` takes the arguments of `damas.Game`; `reset()` goes
/// back to the position it started from. Actions and observations are from the
/// point of view of one seat: the board turned so that its camp is at the
/// bottom (row 0), its pieces in the first planes. Forced passes are
/// played at once, so the player to move always has a legal action until
/// the game is over.
#[pyclass(name = "RlGame", module = "damas")]
pub struct PyRlGame {
    game: AnyGame,
    codec: Arc<Codec>,
    setup: Arc<Setup>,
    /// The legal moves with ids for the position, until it changes.
    legal: Option<Arc<(Vec<Encoded>, usize)>>,
    /// The seats whose reward `step_places` has given.
    rewarded: [bool; damas::MAX_PLAYERS],
}

impl PyRlGame {
    fn from_setup(setup: Setup) -> PyResult<PyRlGame> {
        let game = setup.new_game()?;
        let codec = Codec::new(&game).map_err(option_error)?;
        Ok(PyRlGame {
            game,
            codec: Arc::new(codec),
            setup: Arc::new(setup),
            legal: None,
            rewarded: [false; damas::MAX_PLAYERS],
        })
    }

    /// The legal moves with their ids, once any forced passes are played
    /// (so every reader of the position settles it first).
    fn legal(&mut self) -> Arc<(Vec<Encoded>, usize)> {
        if let Some(legal) = &self.legal {
            return Arc::clone(legal);
        }
        let mut encoded = self.codec.encode_legal(&self.game);
        // Each pass moves the turn on; a game ends within a round of
        // passes (nobody can move: `Blocked`), and the bound keeps that so.
        for _ in 0..=self.game.player_count() {
            if !encoded.0.is_empty() || self.game.to_move().is_none() || self.game.pass().is_err() {
                break;
            }
            encoded = self.codec.encode_legal(&self.game);
        }
        let legal = Arc::new(encoded);
        self.legal = Some(Arc::clone(&legal));
        legal
    }

    /// The game with its forced passes played.
    fn settled(&mut self) -> &AnyGame {
        self.legal();
        &self.game
    }

    fn find(&mut self, action: i64) -> Option<Encoded> {
        let legal = self.legal();
        let action = u32::try_from(action).ok()?;
        legal
            .0
            .binary_search_by_key(&action, |&(id, _)| id)
            .ok()
            .map(|i| legal.0[i])
    }

    fn observer(&self, player: usize) -> PyResult<usize> {
        Ok(seat(&self.game, player)?.index())
    }

    fn copy_of(&mut self) -> PyRlGame {
        self.legal();
        PyRlGame {
            game: self.game.clone(),
            codec: Arc::clone(&self.codec),
            setup: Arc::clone(&self.setup),
            legal: self.legal.clone(),
            rewarded: self.rewarded,
        }
    }
}

#[pymethods]
impl PyRlGame {
    #[new]
    #[pyo3(signature = (kind = "spanish", players = None, rules = None, first_player = 0, position = None))]
    fn new(
        kind: &str,
        players: Option<u8>,
        rules: Option<&Bound<'_, PyDict>>,
        first_player: usize,
        position: Option<String>,
    ) -> PyResult<PyRlGame> {
        PyRlGame::from_setup(Setup::new(
            kind,
            players,
            rules,
            first_player,
            position,
            None,
        )?)
    }

    /// Back to the start position.
    fn reset(&mut self) -> PyResult<()> {
        self.game = self.setup.new_game()?;
        self.legal = None;
        self.rewarded = [false; damas::MAX_PLAYERS];
        Ok(())
    }

    /// `"spanish"`, `"chinese"` or `"japanese"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.codec.kind.name()
    }

    /// How many seats the game has.
    #[getter]
    fn player_count(&self) -> usize {
        self.codec.players
    }

    /// Number of action ids (the size of the action space).
    #[getter]
    fn num_actions(&self) -> usize {
        self.codec.num_actions()
    }

    /// Action ids per `(from, to)` pair (Spanish draughts: the captures
    /// sharing both ends; 1 in Chinese checkers).
    #[getter]
    fn capture_slots(&self) -> usize {
        self.codec.slots
    }

    /// Points of the board (32 or 121).
    #[getter]
    fn num_points(&self) -> usize {
        self.codec.points
    }

    /// `(height, width, channels)` of an observation.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        (self.codec.height, self.codec.width, self.codec.channels)
    }

    /// The seat to move, or `None` once the game is over.
    #[getter]
    // A Python property: it settles forced passes, so it needs `&mut`.
    #[allow(clippy::wrong_self_convention)]
    fn to_move(&mut self) -> Option<usize> {
        self.settled().to_move().map(|p| p.index())
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&mut self) -> bool {
        self.settled().to_move().is_none()
    }

    /// Turns taken (forced passes included).
    #[getter]
    fn turn_count(&mut self) -> usize {
        self.settled().turn_count()
    }

    /// The legal action ids of the player to move, ascending.
    fn legal_actions(&mut self) -> Vec<u32> {
        self.legal().0.iter().map(|&(id, _)| id).collect()
    }

    /// How many legal moves have no action id here (Spanish captures past
    /// `capture_slots` sharing both ends; 0 in every position seen).
    fn unencoded_moves(&mut self) -> usize {
        self.legal().1
    }

    /// The legal-action mask of the player to move: int8, 1 for a legal
    /// id (all zero once the game is over).
    fn action_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let mask = PyArray1::<i8>::zeros(py, self.codec.num_actions(), false);
        {
            let mut view = mask.readwrite();
            let slice = view.as_slice_mut().map_err(option_error)?;
            for &(id, _) in &self.legal().0 {
                slice[id as usize] = 1;
            }
        }
        Ok(mask)
    }

    /// The observation planes of `player`: int8 array
    /// `observation_shape`, 0 or 1.
    fn observation<'py>(
        &mut self,
        py: Python<'py>,
        player: usize,
    ) -> PyResult<Bound<'py, PyArray3<i8>>> {
        self.legal();
        let observer = self.observer(player)?;
        let codec = &self.codec;
        let planes = PyArray3::<i8>::zeros(py, [codec.height, codec.width, codec.channels], false);
        {
            let mut view = planes.readwrite();
            let slice = view.as_slice_mut().map_err(option_error)?;
            codec.observe(&self.game, observer, slice);
        }
        Ok(planes)
    }

    /// `(observation(player), mask)` in one call; the mask is all zero
    /// unless `player` is to move.
    fn observe<'py>(&mut self, py: Python<'py>, player: usize) -> PyResult<Observed<'py>> {
        let planes = self.observation(py, player)?;
        let mask = if self.to_move() == Some(player) {
            self.action_mask(py)?
        } else {
            PyArray1::<i8>::zeros(py, self.codec.num_actions(), false)
        };
        Ok((planes, mask))
    }

    /// Plays legal action `action` of the player to move, then any forced
    /// passes; `False` (and nothing changes) when it is not a legal id.
    fn step(&mut self, action: i64) -> bool {
        let Some((_, mv)) = self.find(action) else {
            return false;
        };
        if self.game.play(mv).is_err() {
            return false;
        }
        self.legal = None;
        true
    }

    /// `step(action)`, then the rewards of the seats whose place it
    /// decided, as `(seat, reward)` pairs (each seat once per game);
    /// `None` (and nothing changes) when `action` is not a legal id.
    fn step_places(&mut self, action: i64) -> Option<Vec<(usize, f64)>> {
        if !self.step(action) {
            return None;
        }
        Some(self.new_places())
    }

    /// The rewards of the seats whose place was decided since the last
    /// call (or `step_places`), as `(seat, reward)` pairs.
    fn new_places(&mut self) -> Vec<(usize, f64)> {
        self.legal();
        let mut decided = Vec::new();
        for (seat, reward) in place_rewards(&self.game).into_iter().enumerate() {
            if let (Some(reward), Some(flag)) = (reward, self.rewarded.get_mut(seat)) {
                if !*flag {
                    *flag = true;
                    decided.push((seat, reward));
                }
            }
        }
        decided
    }

    /// The player to move resigns (or `player`); forced passes follow.
    #[pyo3(signature = (player = None))]
    fn resign(&mut self, player: Option<usize>) -> PyResult<()> {
        let player = seat_or_mover(&self.game, player)?;
        self.game.resign(player).map_err(play_error)?;
        self.legal = None;
        Ok(())
    }

    /// The canonical move text of legal action `action`.
    fn action_text(&mut self, action: i64) -> PyResult<String> {
        match self.find(action) {
            Some((_, mv)) => Ok(self.game.move_text(&mv)),
            None => Err(play_error(damas::PlayError::Illegal(
                damas::IllegalMove::new(
                    damas::IllegalReason::NotLegal,
                    format!("action {action}"),
                    format!("action {action} is not legal here"),
                ),
            ))),
        }
    }

    /// The action id of a legal move given as text.
    fn action_of(&mut self, text: &str) -> PyResult<u32> {
        let text = crate::setup::clip(text);
        let mv = self.game.parse_move(&text).map_err(play_error)?;
        self.legal()
            .0
            .iter()
            .find(|&&(_, m)| m == mv)
            .map(|&(id, _)| id)
            .ok_or_else(|| {
                play_error(damas::PlayError::Illegal(damas::IllegalMove::new(
                    damas::IllegalReason::NotLegal,
                    text.clone(),
                    format!("{text} has no action id here"),
                )))
            })
    }

    /// The action the engine chooses for the player to move (`None` when
    /// the game is over), under the limits of `Engine.search`.
    #[pyo3(signature = (engine, depth = None, nodes = None, movetime = None))]
    fn engine_action(
        &mut self,
        py: Python<'_>,
        engine: PyRef<'_, PyEngine>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
    ) -> PyResult<Option<u32>> {
        let limits = limits(depth, nodes, movetime, false)?;
        if self.settled().to_move().is_none() {
            return Ok(None);
        }
        let result = engine.search_any(py, &self.game, &limits, None)?;
        let Some(best) = result.best else {
            return Ok(None);
        };
        let legal = self.legal();
        Ok(legal.0.iter().find(|&&(_, m)| m == best).map(|&(id, _)| id))
    }

    /// The reward of each seat whose place is decided (`None` for the
    /// others): 1 for the first place, −1 for the last, linear between,
    /// ties sharing the mean of their places; solitaire: 1 for finishing.
    fn place_rewards(&mut self) -> Vec<Option<f64>> {
        place_rewards(self.settled())
    }

    /// The place decided so far for each seat.
    fn places(&mut self) -> Vec<Option<u8>> {
        self.settled().places()
    }

    /// How the game ended, or `None`.
    #[getter]
    fn outcome(&mut self) -> Option<PyOutcome> {
        self.settled().outcome().map(PyOutcome::from)
    }

    /// A `damas.Game` copy of the position and its history.
    fn game(&mut self) -> PyGame {
        PyGame::from_parts(self.settled().clone(), Arc::clone(&self.setup))
    }

    /// The board for people.
    fn diagram(&mut self) -> String {
        self.settled().diagram()
    }

    /// The position text.
    #[getter]
    fn position(&mut self) -> String {
        self.settled().position_text()
    }

    /// Zobrist hash of the position and the player to move.
    #[getter]
    fn hash(&mut self) -> u64 {
        self.settled().hash()
    }

    /// An independent copy.
    fn copy(&mut self) -> PyRlGame {
        self.copy_of()
    }

    fn __copy__(&mut self) -> PyRlGame {
        self.copy_of()
    }

    fn __deepcopy__(&mut self, _memo: &Bound<'_, PyAny>) -> PyRlGame {
        self.copy_of()
    }

    /// Pickles as the setup and the turns, replayed on loading.
    fn __reduce__<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        self.legal();
        let restore = py.import("damas._damas")?.getattr("_restore_rl_game")?;
        let turns: Vec<String> = self.game.turns().into_iter().map(|t| t.text).collect();
        let args = (
            self.setup.kind_name(),
            self.setup.spec.players(),
            self.setup.rules_dict(py)?,
            self.setup.first_player.index(),
            self.setup.start.clone(),
            turns,
        )
            .into_pyobject(py)?;
        Ok((restore, args))
    }

    fn __str__(&mut self) -> String {
        self.diagram()
    }

    fn __repr__(&self) -> String {
        format!(
            "RlGame({:?}, players={}, turns={})",
            self.codec.kind.name(),
            self.codec.players,
            self.game.turn_count()
        )
    }
}

/// Makes a pickled `RlGame` again.
#[pyfunction]
#[pyo3(name = "_restore_rl_game")]
pub fn restore_rl_game(
    kind: &str,
    players: u8,
    rules: &Bound<'_, PyDict>,
    first_player: usize,
    start: Option<String>,
    turns: Vec<String>,
) -> PyResult<PyRlGame> {
    let setup = Setup::new(kind, Some(players), Some(rules), first_player, start, None)?;
    let mut rl = PyRlGame::from_setup(setup)?;
    for text in &turns {
        rl.game.play_text(text).map_err(play_error)?;
    }
    rl.legal = None;
    // The rewards already given are those of the places decided.
    for (seat, reward) in place_rewards(rl.settled()).into_iter().enumerate() {
        if let Some(flag) = rl.rewarded.get_mut(seat) {
            *flag = reward.is_some();
        }
    }
    Ok(rl)
}
