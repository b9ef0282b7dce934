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

use damas::search::SearchLimits;

use crate::command::{self, Command, GoParams, Query};
use crate::game::{GameState, SearchConfig, SearchContext};
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
    handle: JoinHandle<()>,
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
    game: GameState,
    context: Arc<SearchContext>,
    search: Option<RunningSearch>,
    out: Output,
}

impl Session {
    /// A session in the default state (Spanish draughts, start position)
    /// that sends its replies to `out`.
    pub fn new(out: Output) -> Session {
        let options = Options::default();
        let game = GameState::new(&options, 0);
        let context = Arc::new(SearchContext::new(&options));
        Session {
            options,
            first_player: 0,
            game_used: false,
            game,
            context,
            search: None,
            out,
        }
    }

    /// The current game.
    pub fn game(&self) -> &GameState {
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
                    self.first_player = (self.first_player + 1) % self.game.players();
                }
                self.game_used = false;
                self.context.clear();
                self.game = GameState::new(&self.options, self.first_player);
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
                for line in self.game.display().lines() {
                    self.send(line);
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
            Ok(effect) => {
                if effect == OptionEffect::NewGame {
                    let game = GameState::new(&options, 0);
                    if let Some(warning) = game.rules_warning() {
                        self.send(reply::info_string(warning));
                    }
                    self.first_player = 0;
                    self.game_used = false;
                    self.game = game;
                }
                self.options = options;
                if effect == OptionEffect::ResizeHash || effect == OptionEffect::NewGame {
                    self.context.reset(&self.options);
                }
            }
            Err(err) => self.send(reply::error(err)),
        }
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let built = match fen {
            None => Ok(GameState::new(&self.options, self.first_player)),
            Some(text) => GameState::from_text(&self.options, text),
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
            Query::P1Turn => (game.to_move() == Some(0)).to_string(),
            Query::Result => game.result_text(),
            Query::Turn => game
                .to_move()
                .map_or_else(|| "none".to_string(), |p| format!("p{}", p + 1)),
            Query::Ranking => game.ranking_text(),
            Query::Moves(None) => game.legal_moves_text().join(" "),
            Query::Moves(Some(cell)) => match game.moves_from_text(&cell) {
                Ok(moves) => moves.join(" "),
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
            self.game.perft(depth)
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
        let player = self.game.to_move().unwrap_or(0).min(5);
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
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game.clone();
        let context = Arc::clone(&self.context);
        let out = Arc::clone(&self.out);
        let thread_stop = Arc::clone(&stop);
        let done = Arc::new(AtomicBool::new(false));
        let thread_done = Arc::clone(&done);
        let config = SearchConfig::from_options(&self.options);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let mut on_info =
                    |info: &damas::search::SearchInfo<String>| out(&reply::search_info(info));
                let best = game.search(&limits, &context, &config, &thread_stop, &mut on_info);
                thread_done.store(true, Ordering::Release);
                out(&reply::bestmove(best.as_deref()));
            });
        match spawned {
            Ok(handle) => {
                self.search = Some(RunningSearch { stop, done, handle });
            }
            Err(err) => self.send(reply::error(format!(
                "cannot start the search thread: {err}"
            ))),
        }
    }

    fn stop_search(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop.store(true, Ordering::Relaxed);
            if search.handle.join().is_err() {
                self.send(reply::error("the search thread failed"));
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
