//! The engine host: the game being played, the options, the search context,
//! the endgame tables and the worker thread with its stop and done flags.
//!
//! The host speaks no protocol and names no game. It takes typed requests
//! ([`Request`], [`Host::handle`]) and reports everything through one
//! callback as typed [`Event`]s, from whichever thread produced them; the
//! adapters ([`crate::ugi`], [`crate::ccp`]) turn lines into requests and
//! events into lines.
//!
//! [`Host::handle`] never waits for a search: `Go` and `Perft` start a
//! worker thread, `Stop` raises its flag and joins it. The host holds no
//! hidden state between games: a position from the start is the same
//! position for the same options whatever came before (rotating who opens a
//! series is the runner's or the GUI's job).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use damas::options::{OptionEffect, Options};
use damas::search::SearchInfo;
use damas::{
    reach_position, same_position, AnyEngine, AnyGame, EndgameTables, Game, GameSpec, Player,
    Search,
};

use crate::command::{GoParams, Query};
use crate::reply;

/// The refusal of a request that changes the state while a search runs.
pub const BUSY: &str = "a search or perft is running; send 'stop' first";

/// Deepest `perft` or `divide` the host runs.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// What the host reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The host is ready (the answer to [`Request::IsReady`]: at once while
    /// a search runs, else once the transposition table is resident).
    Ready,
    /// Something the client should know that is no error (the rules played
    /// are not the rules asked for).
    Note(String),
    /// A request was refused or failed; nothing changed.
    Error(String),
    /// The answer to a [`Request::Query`].
    Response(String),
    /// The board and its facts, line by line (the answer to
    /// [`Request::Display`]).
    Display(Vec<String>),
    /// A search's progress; the principal variation in the game's move
    /// text.
    Info(SearchInfo<String>),
    /// The search's choice in the game's move text (`pass` when the player
    /// to move must pass), or `None` when there is nothing to play or the
    /// `go` was refused (after its [`Event::Error`]). Every `go` ends in
    /// exactly one: the last event of a search, or the answer to a refused
    /// `go` at once.
    BestMove(Option<String>),
    /// One first move of a `divide` and the paths below it.
    PerftRow {
        /// The move in the game's move text.
        mv: String,
        /// Move paths of the remaining depth after it.
        nodes: u64,
    },
    /// A `perft` or `divide` finished (its last event).
    PerftDone {
        /// The depth counted.
        depth: u32,
        /// The number of move paths.
        nodes: u64,
        /// The time taken.
        time: Duration,
        /// Paths per second.
        nps: u64,
    },
    /// A `perft` or `divide` was stopped before the end (its last event).
    PerftStopped {
        /// The depth asked for.
        depth: u32,
        /// The time spent.
        time: Duration,
    },
}

/// Where events go. Called from the caller's thread and from the worker
/// thread.
pub type EventSink = Arc<dyn Fn(Event) + Send + Sync>;

/// Where a position starts.
#[derive(Clone, Debug)]
pub enum Start {
    /// The start position of the game the options describe.
    Initial,
    /// A position text of that game (a PDN FEN for draughts).
    Text(String),
    /// A game the adapter built.
    Game(Box<AnyGame>),
    /// A position the adapter built, for a client that sends positions
    /// without the moves that led there (CCP): the current game continued
    /// to it when it is within [`CONTINUE_TURNS`] turns of the current
    /// game, so that the history, which the repetition rule reads, and the
    /// turn count go on; otherwise the built game, as [`Start::Game`]. With
    /// moves, the position after them is looked for first, then the built
    /// position, the moves then played on from there.
    Continue(Box<AnyGame>),
}

/// The most turns [`Start::Continue`] plays to reach its position from the
/// current game: the engine's own reply, then the rival's move.
pub const CONTINUE_TURNS: usize = 2;

/// A move of a position request: the text to play and the text the client
/// wrote, which error messages quote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientMove {
    /// The move in the game's notation.
    pub text: String,
    /// The move as the client wrote it.
    pub written: String,
}

impl ClientMove {
    /// A move written in the game's notation.
    pub fn plain(text: &str) -> ClientMove {
        ClientMove {
            text: text.to_string(),
            written: text.to_string(),
        }
    }
}

/// What the host is asked to do.
#[derive(Clone, Debug)]
pub enum Request {
    /// Make the transposition table of the game resident (when no search
    /// runs), then report [`Event::Ready`].
    IsReady,
    /// Set one option (by its name in [`damas::options::OPTIONS`]).
    SetOption {
        /// The option's name (any case).
        name: String,
        /// The value's text.
        value: String,
    },
    /// A new game: the start position and a fresh search table.
    NewGame,
    /// Set the position: from `start`, then `moves`.
    Position {
        /// Where the position starts.
        start: Start,
        /// The moves played from there.
        moves: Vec<ClientMove>,
    },
    /// Search the position on the worker thread.
    Go(GoParams),
    /// Stop the search or perft and wait for its last event.
    Stop,
    /// Count move paths on the worker thread; `divide` reports each first
    /// move's count too.
    Perft {
        /// The depth to count.
        depth: u32,
        /// Whether to report each first move.
        divide: bool,
    },
    /// Answer a question about the position.
    Query(Query),
    /// Show the board.
    Display,
}

/// A search or perft running on the worker thread.
struct RunningSearch {
    stop: Arc<AtomicBool>,
    /// Raised by the worker just before its last event, so that a client
    /// answering it at once finds the host idle even if the thread has not
    /// quite exited.
    done: Arc<AtomicBool>,
    /// Gives the search context back when the search ends.
    handle: JoinHandle<AnyEngine>,
}

/// The engine host.
pub struct Host {
    settings: Options,
    game: AnyGame,
    /// The search context (transposition tables, per-thread state); lent
    /// to the worker thread while a search runs.
    engine: Option<AnyEngine>,
    search: Option<RunningSearch>,
    /// The endgame tables of `TablebasePath`.
    tables: Option<EndgameTables>,
    /// Set when the client's last `position` was refused: `go` then
    /// answers the null move rather than a move of the position before.
    position_refused: bool,
    events: EventSink,
}

impl Host {
    /// A host in the default state (the default game at its start position)
    /// that reports to `events`.
    pub fn new(events: EventSink) -> Host {
        let settings = Options::default();
        let game = AnyGame::new(&settings.spec().unwrap_or_default());
        // The engine makes its table at the first `isready` (or search):
        // nothing large is allocated for a client that only reads options.
        let engine = AnyEngine::new(settings.hash_mb);
        Host {
            settings,
            game,
            engine: Some(engine),
            search: None,
            tables: None,
            position_refused: false,
            events,
        }
    }

    /// Reports from now on to `events`; a search already running keeps
    /// reporting where it did.
    pub fn set_events(&mut self, events: EventSink) {
        self.events = events;
    }

    /// The current game.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The current options.
    pub fn settings(&self) -> &Options {
        &self.settings
    }

    /// True while a search or perft runs.
    pub fn is_searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|search| !search.done.load(Ordering::Acquire))
    }

    fn emit(&self, event: Event) {
        (self.events)(event);
    }

    /// Reports a refusal or failure as [`Event::Error`].
    pub fn report_error(&self, what: impl std::fmt::Display) {
        self.emit(Event::Error(what.to_string()));
    }

    /// Answers a `go` that cannot search: the error, then the null move
    /// (`bestmove (none)`), so that a client waiting for `bestmove` never
    /// waits forever.
    pub fn refuse_go(&self, why: impl std::fmt::Display) {
        self.report_error(why);
        self.emit(Event::BestMove(None));
    }

    /// Reports why a position was refused and remembers it: the next `go`
    /// is refused until a position, a new game or a new game's option is
    /// accepted.
    pub fn refuse_position(&mut self, why: impl std::fmt::Display) {
        self.position_refused = true;
        self.report_error(why);
    }

    /// When a search or perft runs, reports the error that says so and
    /// returns true (for requests that would change the state).
    pub fn refuse_if_busy(&self) -> bool {
        let busy = self.is_searching();
        if busy {
            self.report_error(BUSY);
        }
        busy
    }

    /// The game the options describe, or `None` after reporting the error
    /// when the combination is impossible (options are checked one by one
    /// when set, and together when a game starts).
    pub fn spec(&self) -> Option<GameSpec> {
        match self.settings.spec() {
            Ok(spec) => Some(spec),
            Err(err) => {
                self.report_error(err);
                None
            }
        }
    }

    /// Carries out one request.
    pub fn handle(&mut self, request: Request) {
        self.reap_finished();
        let changes_state = matches!(
            request,
            Request::SetOption { .. }
                | Request::NewGame
                | Request::Position { .. }
                | Request::Go(_)
                | Request::Perft { .. }
        );
        if changes_state && self.is_searching() {
            return match request {
                Request::Go(_) => self.refuse_go(BUSY),
                Request::Position { .. } => self.refuse_position(BUSY),
                _ => self.report_error(BUSY),
            };
        }
        match request {
            Request::IsReady => {
                self.prepare_table();
                self.emit(Event::Ready);
            }
            Request::SetOption { name, value } => self.set_option(&name, &value),
            Request::NewGame => {
                if let Some(spec) = self.spec() {
                    if let Some(engine) = &mut self.engine {
                        engine.clear_for(spec.kind());
                    }
                    self.start_game(AnyGame::new(&spec));
                }
            }
            Request::Position { start, moves } => self.set_position(start, &moves),
            Request::Go(params) => self.go(&params),
            Request::Stop => self.stop(),
            Request::Perft { depth, divide } => self.start_perft(depth, divide),
            Request::Query(query) => self.answer_query(query),
            Request::Display => {
                let mut lines: Vec<String> = reply::display(&self.game)
                    .lines()
                    .map(str::to_string)
                    .collect();
                if let Some(line) = self
                    .tables
                    .as_ref()
                    .and_then(|tables| tables.probe_text(&self.game))
                {
                    lines.push(line);
                }
                self.emit(Event::Display(lines));
            }
        }
        self.report_table_damage();
    }

    /// Tells of each tablebase slice found damaged since the last report,
    /// once (its positions are searched instead).
    fn report_table_damage(&self) {
        for note in self.tables.iter().flat_map(EndgameTables::damage_notes) {
            self.emit(Event::Note(note));
        }
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let mut settings = self.settings.clone();
        let effect = match settings.set(name, value) {
            Ok(effect) => effect,
            Err(err) => return self.report_error(err),
        };
        if effect == OptionEffect::LoadTablebase {
            return self.load_tables(settings);
        }
        let before = self.settings.spec().ok();
        self.settings = settings;
        // A new game only when the game itself changes: a Chinese rule set
        // while playing Spanish draughts changes nothing. An impossible
        // combination waits, since the next option may complete it.
        let new_game = match self.settings.spec() {
            Ok(spec) if effect == OptionEffect::NewGame && Some(&spec) != before.as_ref() => {
                Some(spec)
            }
            _ => None,
        };
        if let Some(spec) = &new_game {
            if let Some(warning) = spec.rules_warning() {
                self.emit(Event::Note(warning));
            }
            self.start_game(AnyGame::new(spec));
        }
        if let Some(engine) = &mut self.engine {
            match effect {
                // Resizes only when the size changes (old table freed first).
                OptionEffect::ResizeHash => engine.set_hash(self.settings.hash_mb),
                // The table of another game is made at the next `isready`.
                OptionEffect::NewGame => {
                    if let Some(spec) = &new_game {
                        engine.forget(spec.kind());
                    }
                }
                OptionEffect::LoadTablebase | OptionEffect::None => {}
            }
            engine.set_options(&self.settings.engine_options());
        }
    }

    /// Opens the tables of `settings.tablebase_path` (none when empty) and
    /// keeps `settings`, or keeps the old tables and settings after
    /// reporting the error.
    fn load_tables(&mut self, settings: Options) {
        let path = &settings.tablebase_path;
        let tables = if path.is_empty() {
            None
        } else {
            match EndgameTables::open(std::path::Path::new(path)) {
                Ok(tables) => Some(tables),
                Err(err) => return self.report_error(err),
            }
        };
        if let Some(engine) = &mut self.engine {
            engine.set_endgame_tables(tables.as_ref());
        }
        self.tables = tables;
        self.settings = settings;
    }

    /// Makes the transposition table of the game the options describe
    /// resident, on every core, unless a search has it or it already is:
    /// the client's `isready` after a `Hash` or `Game` change pays for
    /// faulting its pages in, not the next search.
    fn prepare_table(&mut self) {
        if let (Some(engine), Ok(spec)) = (&mut self.engine, self.settings.spec()) {
            engine.prepare_for(spec.kind());
        }
    }

    /// Makes `game` the current game, a position the client set.
    fn start_game(&mut self, game: AnyGame) {
        self.game = game;
        self.position_refused = false;
    }

    fn set_position(&mut self, start: Start, moves: &[ClientMove]) {
        let game = match start {
            Start::Game(game) => *game,
            Start::Continue(game) => return self.continue_to(*game, moves),
            start => {
                let spec = match self.settings.spec() {
                    Ok(spec) => spec,
                    Err(err) => return self.refuse_position(err),
                };
                match start {
                    Start::Text(text) => match AnyGame::from_text(&spec, &text) {
                        Ok(game) => game,
                        Err(err) => return self.refuse_position(err),
                    },
                    _ => AnyGame::new(&spec),
                }
            }
        };
        self.play_moves(game, moves);
    }

    /// Plays `moves` from `game` and makes it the current game, or leaves
    /// the current one when a move is refused.
    fn play_moves(&mut self, game: AnyGame, moves: &[ClientMove]) {
        if let Some(game) = self.played(game, moves) {
            self.start_game(game);
        }
    }

    /// `game` after `moves`, or `None` after refusing the position when a
    /// move is refused.
    fn played(&mut self, mut game: AnyGame, moves: &[ClientMove]) -> Option<AnyGame> {
        for (index, mv) in moves.iter().enumerate() {
            if let Err(err) = game.play_text(&mv.text) {
                self.refuse_position(format!(
                    "move {} '{}': {err}",
                    index + 1,
                    mv.written.chars().take(40).collect::<String>()
                ));
                return None;
            }
        }
        Some(game)
    }

    /// The position `base` then `moves`, as the current game continued
    /// when it reaches it (see [`Start::Continue`]), or as `base` and
    /// `moves` alone.
    fn continue_to(&mut self, base: AnyGame, moves: &[ClientMove]) {
        // The moves are checked on the bare position, so a refusal does not
        // depend on the game before.
        let Some(fresh) = self.played(base.clone(), moves) else {
            return;
        };
        let current = &self.game;
        let game = reach_position(current, &fresh, CONTINUE_TURNS)
            .or_else(|| {
                if moves.is_empty() {
                    return None; // `base` is `fresh`, just looked for.
                }
                let mut game = reach_position(current, &base, CONTINUE_TURNS)?;
                let all_played = moves.iter().all(|mv| game.play_text(&mv.text).is_ok());
                // A move that ends the continued game (a third occurrence)
                // leaves the bare position instead.
                (all_played && same_position(&game, &fresh)).then_some(game)
            })
            .unwrap_or(fresh);
        self.start_game(game);
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
                Err(err) => return self.report_error(err),
            },
        };
        self.emit(Event::Response(answer));
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.stop();
    }
}

#[path = "host_worker.rs"]
mod worker;

#[cfg(test)]
#[path = "host_tests.rs"]
mod tests;
