//! The engine session: the game being played, the options, and the search
//! thread with its stop flag.
//!
//! [`Session::handle_line`] takes one input line and never waits for a
//! search: `go`, `perft` and `divide` start a worker thread, `stop` raises
//! its flag and joins it. Every reply goes through the output callback, from
//! whichever thread produced it.
//!
//! The session holds no hidden state between games: `position startpos` is
//! the same position for the same options whatever came before (rotating
//! who opens a series is the runner's or the GUI's job).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use damas::chinese::ccp;
use damas::search::{effective_threads, SearchInfo, SearchLimits};
use damas::spanish::tablebase::Tablebase;
use damas::{AnyEngine, AnyGame, AnyMove, Game, GameSpec, Player, Search};

use crate::command::{self, Command, CommandError, GoParams, Query};
use crate::options::{OptionEffect, Options};
use crate::reply;

/// Where replies go: one complete line per call, without the newline.
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Whether the client asked the engine to exit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading input.
    Continue,
    /// `quit` was received: exit.
    Quit,
}

/// The protocol the client speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UGI (and UCI spellings): the default.
    Ugi,
    /// JumpStar's CCP, after `ccp`: cells as CCP ids, CCERL rules.
    Ccp,
}

/// A search or perft running on the worker thread.
struct RunningSearch {
    stop: Arc<AtomicBool>,
    /// Raised by the worker just before its last line (`bestmove`,
    /// `nodes`), so that a client answering that line at once finds the
    /// engine idle even if the thread has not quite exited.
    done: Arc<AtomicBool>,
    /// Gives the search context back when the search ends.
    handle: JoinHandle<AnyEngine>,
}

/// One engine session.
pub struct Session {
    options: Options,
    /// False until the first line: a byte-order mark may start it.
    started: bool,
    dialect: Dialect,
    game: AnyGame,
    /// The search context (transposition tables, per-thread state); lent
    /// to the search thread while a search runs.
    engine: Option<AnyEngine>,
    search: Option<RunningSearch>,
    /// The Spanish draughts endgame tables of `TablebasePath`.
    tablebase: Option<Arc<Tablebase>>,
    out: Output,
}

impl Session {
    /// A session in the default state (Spanish draughts, start position)
    /// that sends its replies to `out`.
    pub fn new(out: Output) -> Session {
        let options = Options::default();
        let game = AnyGame::new(&GameSpec::Spanish);
        // The engine makes its table on the first search: nothing large is
        // allocated before the client's first `isready` (or `go`).
        let engine = AnyEngine::new(options.hash_mb);
        Session {
            options,
            started: false,
            dialect: Dialect::Ugi,
            game,
            engine: Some(engine),
            search: None,
            tablebase: None,
            out,
        }
    }

    /// The current game.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The protocol the client speaks.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// True while a search thread is running.
    pub fn is_searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|search| !search.done.load(Ordering::Acquire))
    }

    fn send(&self, line: impl AsRef<str>) {
        (self.out)(line.as_ref());
    }

    /// Handles one input line. A UTF-8 byte-order mark before the first
    /// command is ignored.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.reap_finished_search();
        let line = if self.started {
            line
        } else {
            self.started = true;
            line.strip_prefix('\u{feff}').unwrap_or(line)
        };
        match command::parse(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.handle(command),
            Err(err) => {
                self.send(reply::error(err));
                Flow::Continue
            }
        }
    }

    /// Answers a line the reader refused to keep because it has `len`
    /// bytes, more than [`command::MAX_LINE_LEN`]: the one error line.
    pub fn handle_overlong_line(&mut self, len: usize) {
        self.started = true;
        self.send(reply::error(CommandError::TooLong(len)));
    }

    /// Ends the session: stops and joins any search.
    pub fn shutdown(&mut self) {
        self.stop_search();
    }

    fn handle(&mut self, command: Command) -> Flow {
        let busy = self.is_searching();
        let changes_state = matches!(
            command,
            Command::SetOption { .. }
                | Command::NewGame
                | Command::Position { .. }
                | Command::PositionCells { .. }
                | Command::Ccp
                | Command::Go(_)
                | Command::Perft(_)
                | Command::Divide(_)
        );
        if busy && changes_state {
            self.send(reply::error(
                "a search or perft is running; send 'stop' first",
            ));
            return Flow::Continue;
        }
        match command {
            Command::Hello { uci } => {
                self.dialect = Dialect::Ugi;
                self.send(format!("id name {}", reply::ENGINE_NAME));
                self.send(format!("id author {}", reply::ENGINE_AUTHOR));
                for line in crate::options::declaration_lines(&self.options) {
                    self.send(line);
                }
                self.send(if uci { "uciok" } else { "ugiok" });
            }
            Command::IsReady => self.send("readyok"),
            Command::Ccp => {
                self.dialect = Dialect::Ccp;
                self.set_option("Rules", "ccerl");
                self.send(format!("id name {}", reply::ENGINE_NAME));
                self.send(format!("id author {}", reply::ENGINE_AUTHOR));
                self.send("ccpok");
            }
            Command::PositionCells {
                cells,
                player,
                ply,
                moves,
            } => {
                if let Some(spec) = self.spec() {
                    let built = match spec {
                        GameSpec::Chinese(rules) if rules.players == 2 => {
                            ccp::read_position(&cells, player, ply, &rules)
                                .map(|game| AnyGame::Chinese(Box::new(game)))
                                .map_err(|err| err.to_string())
                        }
                        _ => Err("'position cells' needs two-player Chinese checkers \
                                  (send 'ccp' or set Rules to ccerl)"
                            .to_string()),
                    };
                    match built {
                        Ok(game) => self.play_moves(game, &moves),
                        Err(err) => self.send(reply::error(err)),
                    }
                }
            }
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::NewGame => {
                let Some(spec) = self.spec() else {
                    return Flow::Continue;
                };
                if let Some(engine) = &mut self.engine {
                    engine.clear();
                }
                self.game = AnyGame::new(&spec);
            }
            Command::Position { fen, moves } => {
                if let Some(spec) = self.spec() {
                    self.set_position(&spec, fen.as_deref(), &moves);
                }
            }
            Command::Go(params) => {
                if self.spec().is_some() {
                    self.start_search(&params);
                }
            }
            Command::Stop => self.stop_search(),
            Command::PonderHit | Command::Debug => {}
            Command::Quit => {
                self.stop_search();
                return Flow::Quit;
            }
            Command::Query(query) => self.answer_query(query),
            Command::Display => {
                for line in reply::display(&self.game).lines() {
                    self.send(line);
                }
                if let (Some(tb), AnyGame::Spanish(game)) = (&self.tablebase, &self.game) {
                    if let Some(line) = reply::tablebase(tb, game) {
                        self.send(line);
                    }
                }
            }
            Command::Perft(depth) => self.start_perft(depth, false),
            Command::Divide(depth) => self.start_perft(depth, true),
            Command::Help => {
                for line in crate::help::TEXT.lines() {
                    self.send(line);
                }
            }
        }
        Flow::Continue
    }

    /// The game the options describe, or `None` after sending the error
    /// when the combination is impossible (options are checked one by one
    /// when set, and together when a game starts).
    fn spec(&self) -> Option<GameSpec> {
        match self.options.spec() {
            Ok(spec) => Some(spec),
            Err(err) => {
                self.send(reply::error(err));
                None
            }
        }
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let mut options = self.options.clone();
        let effect = match options.set(name, value) {
            Ok(effect) => effect,
            Err(err) => {
                self.send(reply::error(err));
                return;
            }
        };
        if effect == OptionEffect::LoadTablebase {
            return self.load_tablebase(options);
        }
        let before = self.options.spec().ok();
        self.options = options;
        // A new game only when the game itself changes: a Chinese rule set
        // while playing Spanish draughts changes nothing. An impossible
        // combination waits, since the next option may complete it.
        let new_game = match self.options.spec() {
            Ok(spec) if effect == OptionEffect::NewGame && Some(&spec) != before.as_ref() => {
                Some(spec)
            }
            _ => None,
        };
        if let Some(spec) = &new_game {
            if let Some(warning) = spec.rules_warning() {
                self.send(reply::info_string(warning));
            }
            self.game = AnyGame::new(spec);
        }
        if let Some(engine) = &mut self.engine {
            match effect {
                // Resizes only when the size changes (old table freed first).
                OptionEffect::ResizeHash => engine.set_hash(self.options.hash_mb),
                OptionEffect::NewGame if new_game.is_some() => engine.clear(),
                OptionEffect::NewGame | OptionEffect::LoadTablebase | OptionEffect::None => {}
            }
            engine.set_options(&self.options.engine_options());
        }
    }

    /// Opens the tables of `options.tablebase_path` (none when empty) and
    /// keeps `options`, or keeps the old tables and options after sending
    /// the error.
    fn load_tablebase(&mut self, options: Options) {
        let path = &options.tablebase_path;
        let tablebase = if path.is_empty() {
            None
        } else {
            match Tablebase::open(std::path::Path::new(path)) {
                Ok(tb) if tb.max_pieces() == 0 => {
                    return self.send(reply::error(format!(
                        "no complete set of tables in {path} (every 2-piece slice is needed)"
                    )))
                }
                Ok(tb) => Some(Arc::new(tb)),
                Err(err) => return self.send(reply::error(err)),
            }
        };
        if let Some(engine) = &mut self.engine {
            engine.set_tablebase(tablebase.clone());
        }
        self.tablebase = tablebase;
        self.options = options;
    }

    fn set_position(&mut self, spec: &GameSpec, fen: Option<&str>, moves: &[String]) {
        match fen {
            None => self.play_moves(AnyGame::new(spec), moves),
            Some(text) => match AnyGame::from_text(spec, text) {
                Ok(game) => self.play_moves(game, moves),
                Err(err) => self.send(reply::error(err)),
            },
        }
    }

    /// Plays `moves` from `game` and makes it the current game, or leaves
    /// the current one when a move is refused. In CCP, a move may be a path
    /// of cell ids.
    fn play_moves(&mut self, mut game: AnyGame, moves: &[String]) {
        for (index, mv) in moves.iter().enumerate() {
            let text = match self.dialect {
                Dialect::Ccp => ccp::path_of_ids(mv).unwrap_or_else(|_| mv.clone()),
                Dialect::Ugi => mv.clone(),
            };
            if let Err(err) = game.play_text(&text) {
                self.send(reply::error(format!(
                    "move {} '{}': {err}",
                    index + 1,
                    mv.chars().take(40).collect::<String>()
                )));
                return;
            }
        }
        self.game = game;
    }

    fn answer_query(&self, query: Query) {
        let game = &self.game;
        let answer = match query {
            Query::GameOver => game.is_over().to_string(),
            Query::P1Turn => (game.to_move() == Player::new(0)).to_string(),
            Query::Result => reply::result(game),
            Query::Turn => reply::turn(game),
            Query::Ranking => reply::ranking(game),
            Query::Moves(None) => game.legal_moves_text().join(" "),
            Query::Moves(Some(cell)) => match game.point(&cell).map(|p| game.moves_from(p)) {
                Ok(moves) => moves
                    .iter()
                    .map(|mv| game.move_text(mv))
                    .collect::<Vec<_>>()
                    .join(" "),
                Err(err) => {
                    self.send(reply::error(err));
                    return;
                }
            },
        };
        self.send(reply::response(answer));
    }

    /// Runs `perft` or `divide` on the worker thread, like a search:
    /// `isready` is answered meanwhile and `stop` or `quit` ends it.
    fn start_perft(&mut self, depth: u32, divide: bool) {
        const MAX_PERFT_DEPTH: u32 = 32;
        if depth > MAX_PERFT_DEPTH {
            self.send(reply::error(format!(
                "perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
            )));
            return;
        }
        let game = self.game.clone();
        let threads = effective_threads(self.options.threads);
        let out = Arc::clone(&self.out);
        self.spawn_worker("perft", move |stop, done| {
            let start = std::time::Instant::now();
            let total = if divide {
                game.divide_until(depth, stop).map(|rows| {
                    for (mv, count) in &rows {
                        out(&format!("{mv} {count}"));
                    }
                    // Depth 0 has no move to split on; its one leaf is the
                    // position itself, as `perft 0` counts it.
                    if depth == 0 {
                        1
                    } else {
                        rows.iter().map(|(_, count)| count).sum()
                    }
                })
            } else {
                game.perft_until(depth, threads, stop)
            };
            let elapsed = start.elapsed();
            done.store(true, Ordering::Release);
            match total {
                Some(total) => {
                    let nps = (u128::from(total) * 1_000_000 / elapsed.as_micros().max(1)) as u64;
                    out(&format!(
                        "info string perft depth {depth} nodes {total} time {} nps {nps}",
                        elapsed.as_millis()
                    ));
                    out(&format!("nodes {total}"));
                }
                None => out(&reply::info_string(format!(
                    "perft depth {depth} stopped after {} ms",
                    elapsed.as_millis()
                ))),
            }
        });
    }

    /// Turns `go` parameters into the limits of the player to move.
    fn limits(&self, params: &GoParams) -> SearchLimits {
        let player = self.game.to_move().map_or(0, Player::index);
        let overhead = Duration::from_millis(self.options.move_overhead_ms);
        // The overhead never takes more than half of a budget, so a short
        // movetime still leaves time to search.
        let net = |t: Duration| t.saturating_sub(overhead).max(t / 2);
        // A client that sends clocks but not the mover's (two-player clocks
        // in a three-player game, say) gets the tightest clock it sent
        // rather than a search that never ends.
        let own_clock = params.time[player].or_else(|| params.time.iter().flatten().min().copied());
        SearchLimits {
            depth: params.depth,
            nodes: params.nodes,
            movetime: params.movetime.map(net),
            infinite: params.infinite,
            time_left: own_clock.map(net),
            increment: params.inc[player].unwrap_or(Duration::ZERO),
            moves_to_go: params.movestogo,
        }
    }

    fn start_search(&mut self, params: &GoParams) {
        let limits = self.limits(params);
        let game = self.game.clone();
        let out = Arc::clone(&self.out);
        let dialect = self.dialect;
        self.spawn_worker_with_engine("search", move |engine, stop, done| {
            let best = if game.is_over() {
                None
            } else {
                let mut on_info = |info: &SearchInfo<AnyMove>| {
                    let pv: Vec<String> = game
                        .line_text(&info.pv)
                        .iter()
                        .map(|mv| reply::move_in(dialect, mv))
                        .collect();
                    out(&reply::search_info(info, &pv));
                };
                let result = engine.search(&game, &limits, stop, &mut on_info);
                match result.best {
                    Some(mv) => Some(reply::move_in(dialect, &game.move_text(&mv))),
                    // Chinese checkers: the player to move must pass.
                    None => game.must_pass().then(|| "pass".to_string()),
                }
            };
            done.store(true, Ordering::Release);
            out(&reply::bestmove(best.as_deref()));
        });
    }

    /// Starts `work` on the worker thread (it needs no search context).
    fn spawn_worker(
        &mut self,
        name: &str,
        work: impl FnOnce(&AtomicBool, &AtomicBool) + Send + 'static,
    ) {
        self.spawn_worker_with_engine(name, move |_, stop, done| work(stop, done));
    }

    /// Starts `work` on the worker thread with the search context, its stop
    /// flag and its done flag (to raise just before its last line).
    fn spawn_worker_with_engine(
        &mut self,
        name: &str,
        work: impl FnOnce(&mut AnyEngine, &AtomicBool, &AtomicBool) + Send + 'static,
    ) {
        self.reap_finished_search();
        let Some(mut engine) = self.engine.take() else {
            self.send(reply::error("the search context is lost"));
            return;
        };
        engine.set_tablebase(self.tablebase.clone());
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let done = Arc::new(AtomicBool::new(false));
        let thread_done = Arc::clone(&done);
        // The thread hands the context back through its result; if the
        // thread cannot start, the context is dropped with the closure and
        // a fresh one takes its place.
        let spawned = std::thread::Builder::new()
            .name(name.into())
            .stack_size(64 << 20)
            .spawn(move || {
                work(&mut engine, &thread_stop, &thread_done);
                engine
            });
        match spawned {
            Ok(handle) => {
                self.search = Some(RunningSearch { stop, done, handle });
            }
            Err(err) => {
                self.engine = Some(self.fresh_engine());
                self.send(reply::error(format!(
                    "cannot start the {name} thread: {err}"
                )));
            }
        }
    }

    /// A new search context for the options, in place of one that was lost
    /// with a search thread.
    fn fresh_engine(&self) -> AnyEngine {
        let mut engine = AnyEngine::new(self.options.hash_mb);
        engine.set_options(&self.options.engine_options());
        engine
    }

    fn stop_search(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop.store(true, Ordering::Relaxed);
            match search.handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    self.engine = Some(self.fresh_engine());
                    self.send(reply::error("the search thread failed"));
                }
            }
        }
    }

    fn reap_finished_search(&mut self) {
        if self
            .search
            .as_ref()
            .is_some_and(|search| search.done.load(Ordering::Acquire))
        {
            self.stop_search();
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_search();
    }
}
