//! The engine session: the game being played, the options, and the search
//! thread with its stop flag.
//!
//! [`Session::handle_line`] takes one input line and never waits for a
//! search: `go` starts a thread, `stop` raises the flag and joins it. Every
//! reply goes through the output callback, from whichever thread produced it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use damas::search::{SearchInfo, SearchLimits};
use damas::spanish::tablebase::Tablebase;
use damas::{AnyEngine, AnyGame, AnyMove, Game, Player, Search};

use crate::command::{self, Command, GoParams, Query};
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

struct RunningSearch {
    stop: Arc<AtomicBool>,
    /// Raised by the search thread just before it sends `bestmove`, so
    /// that a client answering that line at once finds the engine idle
    /// even if the thread has not quite exited.
    done: Arc<AtomicBool>,
    /// Gives the search context back when the search ends.
    handle: JoinHandle<AnyEngine>,
}

/// One engine session.
pub struct Session {
    options: Options,
    /// The first player of the current game (rotates on `uginewgame`).
    first_player: usize,
    /// Whether the current game was used (a `position` or `go` since the
    /// session began, the rules changed or the last `uginewgame`). A
    /// `uginewgame` before any game was played starts game 0 of the
    /// series, which `p1` opens; only later ones rotate.
    game_used: bool,
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
        let game = AnyGame::new(&options.spec());
        let engine = AnyEngine::new(options.hash_mb);
        Session {
            options,
            first_player: 0,
            game_used: false,
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

    /// True while a search thread is running.
    pub fn is_searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|search| !search.done.load(Ordering::Acquire))
    }

    fn send(&self, line: impl AsRef<str>) {
        (self.out)(line.as_ref());
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.reap_finished_search();
        match command::parse(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.handle(command),
            Err(err) => {
                self.send(reply::error(err));
                Flow::Continue
            }
        }
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
                | Command::Go(_)
                | Command::Perft(_)
                | Command::Divide(_)
        );
        if busy && changes_state {
            self.send(reply::error("a search is running; send 'stop' first"));
            return Flow::Continue;
        }
        match command {
            Command::Hello { uci } => {
                self.send(format!("id name {}", reply::ENGINE_NAME));
                self.send(format!("id author {}", reply::ENGINE_AUTHOR));
                for line in self.options.declaration_lines() {
                    self.send(line);
                }
                self.send(if uci { "uciok" } else { "ugiok" });
            }
            Command::IsReady => self.send("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::NewGame => {
                if self.options.rotate_first && self.game_used {
                    self.first_player = (self.first_player + 1) % self.game.player_count();
                }
                self.game_used = false;
                if let Some(engine) = &mut self.engine {
                    engine.clear();
                }
                self.game = self.new_game();
            }
            Command::Position { fen, moves } => {
                self.game_used = true;
                self.set_position(fen.as_deref(), &moves);
            }
            Command::Go(params) => {
                self.game_used = true;
                self.start_search(&params);
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
            Command::Perft(depth) => self.perft(depth, false),
            Command::Divide(depth) => self.perft(depth, true),
            Command::Help => {
                for line in crate::help::TEXT.lines() {
                    self.send(line);
                }
            }
        }
        Flow::Continue
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let mut options = self.options.clone();
        match options.set(name, value) {
            Ok(OptionEffect::LoadTablebase) => {
                let path = &options.tablebase_path;
                let tablebase = if path.is_empty() {
                    None
                } else {
                    match Tablebase::open(std::path::Path::new(path)) {
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
            Ok(effect) => {
                let spec = options.spec();
                if effect == OptionEffect::NewGame {
                    if let Some(warning) = spec.rules_warning() {
                        self.send(reply::info_string(warning));
                    }
                    self.first_player = 0;
                    self.game_used = false;
                    self.game = AnyGame::new(&spec);
                }
                self.options = options;
                if let Some(engine) = &mut self.engine {
                    match effect {
                        OptionEffect::ResizeHash => engine.set_hash(self.options.hash_mb),
                        OptionEffect::NewGame => engine.clear(),
                        OptionEffect::LoadTablebase | OptionEffect::None => {}
                    }
                    engine.set_options(&self.options.engine_options());
                }
            }
            Err(err) => self.send(reply::error(err)),
        }
    }

    /// The start position of the options' game, with the first player of
    /// the current game of the series to move.
    fn new_game(&self) -> AnyGame {
        AnyGame::with_first_player(
            &self.options.spec(),
            Player::new(self.first_player).unwrap_or(Player::new(0).expect("p1 exists")),
        )
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let built = match fen {
            None => Ok(self.new_game()),
            Some(text) => AnyGame::from_text(&self.options.spec(), text),
        };
        let mut game = match built {
            Ok(game) => game,
            Err(err) => {
                self.send(reply::error(err));
                return;
            }
        };
        for (index, mv) in moves.iter().enumerate() {
            if let Err(err) = game.play_text(mv) {
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
            Query::Moves(Some(cell)) => match game.moves_from(&cell) {
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

    fn perft(&self, depth: u32, divide: bool) {
        const MAX_PERFT_DEPTH: u32 = 32;
        if depth > MAX_PERFT_DEPTH {
            self.send(reply::error(format!(
                "perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"
            )));
            return;
        }
        let start = std::time::Instant::now();
        let total = if divide {
            let rows = self.game.divide(depth);
            for (mv, count) in &rows {
                self.send(format!("{mv} {count}"));
            }
            rows.iter().map(|(_, count)| count).sum()
        } else {
            self.game.perft(depth, 1)
        };
        let elapsed = start.elapsed();
        let nps = (u128::from(total) * 1_000_000 / elapsed.as_micros().max(1)) as u64;
        self.send(format!(
            "info string perft depth {depth} nodes {total} time {} nps {nps}",
            elapsed.as_millis()
        ));
        self.send(format!("nodes {total}"));
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
        self.reap_finished_search();
        let limits = self.limits(params);
        let Some(mut engine) = self.engine.take() else {
            self.send(reply::error("the search context is lost"));
            return;
        };
        engine.set_tablebase(self.tablebase.clone());
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game.clone();
        let out = Arc::clone(&self.out);
        let thread_stop = Arc::clone(&stop);
        let done = Arc::new(AtomicBool::new(false));
        let thread_done = Arc::clone(&done);
        // The thread hands the context back through its result; if the
        // thread cannot start, the context is dropped with the closure and
        // a fresh one takes its place.
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let best = if game.is_over() {
                    None
                } else {
                    let mut on_info = |info: &SearchInfo<AnyMove>| {
                        out(&reply::search_info(info, &game.line_text(&info.pv)));
                    };
                    let result = engine.search(&game, &limits, &thread_stop, &mut on_info);
                    match result.best {
                        Some(mv) => Some(game.move_text(&mv)),
                        // Chinese checkers: the player to move must pass.
                        None => game.must_pass().then(|| "pass".to_string()),
                    }
                };
                thread_done.store(true, Ordering::Release);
                out(&reply::bestmove(best.as_deref()));
                engine
            });
        match spawned {
            Ok(handle) => {
                self.search = Some(RunningSearch { stop, done, handle });
            }
            Err(err) => {
                self.engine = Some(self.fresh_engine());
                self.send(reply::error(format!(
                    "cannot start the search thread: {err}"
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
