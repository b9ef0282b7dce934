//! `damas.Engine`: the engine's search ([`Search`] on [`AnyEngine`]) under
//! limits, stoppable from another thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use damas::options::Options;
use damas::search::{Score, SearchInfo, SearchLimits, SearchResult};
use damas::{AnyEngine, AnyGame, AnyMove, Game, Search};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::blocking::run_interruptible;
use crate::errors::option_error;
use crate::game::PyGame;
use crate::moves::{PyMove, Source};

/// Longest `movetime` accepted, in seconds (a day).
const MAX_MOVETIME_S: f64 = 86_400.0;

/// Checked search limits from Python's arguments.
pub fn limits(
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<f64>,
    infinite: bool,
) -> PyResult<SearchLimits> {
    if depth == Some(0) {
        return Err(option_error("depth must be at least 1"));
    }
    if nodes == Some(0) {
        return Err(option_error("nodes must be at least 1"));
    }
    let movetime = match movetime {
        None => None,
        Some(seconds) if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_MOVETIME_S => {
            Some(Duration::from_secs_f64(seconds).max(Duration::from_millis(1)))
        }
        Some(seconds) => {
            return Err(option_error(format!(
                "movetime {seconds} is not a number of seconds in (0, {MAX_MOVETIME_S}]"
            )))
        }
    };
    let limits = SearchLimits {
        depth,
        nodes,
        movetime,
        infinite,
        ..SearchLimits::default()
    };
    if limits.is_unlimited() && !infinite {
        return Err(option_error(
            "give a limit (depth, nodes or movetime) or infinite=True (then call stop())",
        ));
    }
    Ok(limits)
}

/// A search context: the transposition table and the per-thread state kept
/// from one search to the next.
///
/// `Engine(hash_mb=16, threads=1, style="best", seed=0, beam_width=64)`:
/// `style` is `"best"` (the full engine), `"plain"` (fixed-depth
/// alpha-beta on material or distance), `"greedy"` (the best move one ply
/// ahead) or `"random"`; `seed` (1–2147483647) makes the baselines'
/// random choices repeatable (0: from the clock). Values are checked
/// against the engine's option table (`Hash`, `Threads`, `Style`, `Seed`,
/// `BeamWidth`).
#[pyclass(name = "Engine", module = "damas", frozen)]
pub struct PyEngine {
    engine: Mutex<AnyEngine>,
    stop: Arc<AtomicBool>,
}

impl PyEngine {
    /// Searches `game` with the GIL released; `on_info` (a Python callable,
    /// if any) gets a dict after each depth.
    pub fn search_any(
        &self,
        py: Python<'_>,
        game: &AnyGame,
        limits: &SearchLimits,
        on_info: Option<Py<PyAny>>,
    ) -> PyResult<SearchResult<AnyMove>> {
        let mut guard = self.engine.try_lock().map_err(|_| {
            PyRuntimeError::new_err("the engine is searching (one search at a time)")
        })?;
        // The guard stays on this thread; the helper thread borrows the engine.
        let engine: &mut AnyEngine = &mut guard;
        self.stop.store(false, Ordering::Relaxed);
        let stop = Arc::clone(&self.stop);
        let mut callback_error: Option<PyErr> = None;
        let result = run_interruptible(py, &self.stop, || {
            engine.search(game, limits, &stop, &mut |info| {
                if let (Some(callback), None) = (&on_info, &callback_error) {
                    let outcome = Python::attach(|py| -> PyResult<()> {
                        callback.call1(py, (info_dict(py, game, info)?,))?;
                        Ok(())
                    });
                    if let Err(error) = outcome {
                        callback_error = Some(error);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            })
        })?;
        match callback_error {
            Some(error) => Err(error),
            None => Ok(result),
        }
    }
}

fn info_dict<'py>(
    py: Python<'py>,
    game: &AnyGame,
    info: &SearchInfo<AnyMove>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("depth", info.depth)?;
    dict.set_item("seldepth", info.seldepth)?;
    dict.set_item("score", PyScore::from(info.score))?;
    dict.set_item("nodes", info.nodes)?;
    dict.set_item("time", info.time.as_secs_f64())?;
    dict.set_item("nps", info.nps())?;
    dict.set_item("pv", game.line_text(&info.pv))?;
    Ok(dict)
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (hash_mb = 16, threads = 1, style = "best", seed = 0, beam_width = 64))]
    fn new(
        hash_mb: u64,
        threads: u64,
        style: &str,
        seed: u64,
        beam_width: u64,
    ) -> PyResult<PyEngine> {
        let mut settings = Options::default();
        for (name, value) in [
            ("Hash", hash_mb.to_string()),
            ("Threads", threads.to_string()),
            ("Style", style.to_string()),
            ("Seed", seed.to_string()),
            ("BeamWidth", beam_width.to_string()),
        ] {
            settings.set(name, &value).map_err(option_error)?;
        }
        let mut engine = AnyEngine::new(settings.hash_mb);
        // The library's searches (training, analysis) search every
        // position: the opening book is the protocol's and the web board's.
        settings.own_book = false;
        engine.set_options(&settings.engine_options());
        Ok(PyEngine {
            engine: Mutex::new(engine),
            stop: Arc::new(AtomicBool::new(false)),
        })
    }

    /// Searches the position of `game` for the player to move under the
    /// limits: `depth` (plies), `nodes`, `movetime` (seconds) or
    /// `infinite=True` (until `stop()`); at least one must be given.
    /// `on_info`, if given, is called with a dict (depth, seldepth, score,
    /// nodes, time, nps, pv) after each depth. Releases the GIL; `stop()`
    /// from another thread, or Ctrl-C, ends the search, which then returns
    /// its best move so far. A finished game gives no move and no nodes.
    #[pyo3(signature = (game, depth = None, nodes = None, movetime = None, infinite = false, on_info = None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        game: PyRef<'_, PyGame>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        infinite: bool,
        on_info: Option<Py<PyAny>>,
    ) -> PyResult<PySearchResult> {
        let limits = limits(depth, nodes, movetime, infinite)?;
        if game.game.to_move().is_none() {
            // A finished game has nothing to search (the position may
            // still have moves, as after a resignation).
            return Ok(PySearchResult {
                best: None,
                score: Score::Centi(0).into(),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            });
        }
        let snapshot = game.game.clone();
        drop(game);
        let result = self.search_any(py, &snapshot, &limits, on_info)?;
        let pv = snapshot.line_text(&result.pv);
        let source = Source::fixed(snapshot);
        Ok(PySearchResult {
            best: result.best.map(|mv| PyMove { mv, source }),
            score: result.score.into(),
            depth: result.depth,
            nodes: result.nodes,
            pv,
        })
    }

    /// Ends the running search (from any thread); it returns its best move
    /// so far. Does nothing when no search runs.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Forgets what earlier searches learned (for a new game).
    fn clear(&self) -> PyResult<()> {
        let mut engine = self.engine.try_lock().map_err(|_| {
            PyRuntimeError::new_err("the engine is searching (one search at a time)")
        })?;
        engine.clear();
        Ok(())
    }
}

/// A score for the side to move: `kind` `"cp"` (hundredths of a man in
/// draughts, of a step in Chinese checkers), `"win"` or `"loss"` (in
/// `value` plies).
#[pyclass(name = "Score", module = "damas", frozen, get_all)]
#[derive(Clone, Copy)]
pub struct PyScore {
    /// `"cp"`, `"win"` or `"loss"`.
    pub kind: &'static str,
    /// Centi-units or plies.
    pub value: i64,
}

impl From<Score> for PyScore {
    fn from(score: Score) -> PyScore {
        match score {
            Score::Centi(cp) => PyScore {
                kind: "cp",
                value: i64::from(cp),
            },
            Score::Win(plies) => PyScore {
                kind: "win",
                value: i64::from(plies),
            },
            Score::Loss(plies) => PyScore {
                kind: "loss",
                value: i64::from(plies),
            },
        }
    }
}

#[pymethods]
impl PyScore {
    fn __repr__(&self) -> String {
        format!("Score({:?}, {})", self.kind, self.value)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyScore>()
            .is_ok_and(|o| o.get().kind == self.kind && o.get().value == self.value)
    }
}

/// What a search found: `best` (a `Move`, or `None` when the player to move
/// has no legal move), `score`, `depth` (last completed), `nodes` and `pv`
/// (the principal variation as move texts, `best` first).
#[pyclass(name = "SearchResult", module = "damas", frozen, get_all)]
pub struct PySearchResult {
    /// The move to play.
    pub best: Option<PyMove>,
    /// Its score.
    pub score: PyScore,
    /// Last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation, as texts.
    pub pv: Vec<String>,
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(best={:?}, score={}, depth={}, nodes={}, pv={:?})",
            self.pv.first(),
            self.score.__repr__(),
            self.depth,
            self.nodes,
            self.pv
        )
    }
}
