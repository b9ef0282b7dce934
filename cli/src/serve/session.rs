//! One game on the board: the library's game, who sits in each seat, the
//! site settings, the turn clock and the engine search in flight. Every
//! operation checks what it is asked and answers a typed [`ApiError`];
//! nothing here waits or searches.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use damas::options::Options;
use damas::search::{EngineOptions, SearchLimits, Style};
use damas::{AnyGame, AnyMove, Game, GameKind, GameSpec, Player};

use super::error::ApiError;
use super::messages::Message;
use super::pool::Analysis;
use super::pulse::Pulse;
use super::tokens::Binding;

/// The first seat.
const P1: Player = match Player::new(0) {
    Some(player) => player,
    None => unreachable!(),
};

/// Longest game kept, in turns (`--max-turns` may lower it, nothing lifts
/// it): past it the referee ends the game, so a game's memory stays
/// bounded whatever the rule limits (none with `MoveLimit` 0).
pub const MAX_TURNS: u32 = 3000;
/// Longest position text accepted.
pub const MAX_POSITION_TEXT: usize = 2000;
/// Longest turn clock, in seconds.
pub const MAX_TURN_SECONDS: u32 = 600;
/// Engine levels: 1 random, 2 greedy, 3 shallow plain search, 4 the engine.
pub const MAX_LEVEL: u8 = 4;
/// Shortest engine time per move, in milliseconds.
pub const MIN_THINK_MS: u32 = 50;

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// A person at the page.
    Human,
    /// The engine.
    Engine,
}

/// A seat: a person, or the engine with a level and a time per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat {
    pub kind: SeatKind,
    pub level: u8,
    pub think_ms: u32,
}

impl Seat {
    pub const HUMAN: Seat = Seat {
        kind: SeatKind::Human,
        level: MAX_LEVEL,
        think_ms: 1000,
    };
    pub const ENGINE: Seat = Seat {
        kind: SeatKind::Engine,
        level: MAX_LEVEL,
        think_ms: 1000,
    };

    /// Whether the two seats play alike: both people, or the same engine
    /// (a person's level and time are never used).
    pub fn plays_like(&self, other: &Seat) -> bool {
        self.kind == other.kind
            && (self.kind == SeatKind::Human
                || (self.level == other.level && self.think_ms == other.think_ms))
    }

    /// The search settings of this seat, the time capped at `max_think_ms`.
    pub fn search(&self, max_think_ms: u32) -> (SearchLimits, EngineOptions) {
        let style = match self.level {
            1 => Style::Random,
            2 => Style::Greedy,
            3 => Style::Plain,
            _ => Style::Best,
        };
        let limits = SearchLimits {
            movetime: Some(Duration::from_millis(u64::from(
                self.think_ms
                    .clamp(MIN_THINK_MS, max_think_ms.max(MIN_THINK_MS)),
            ))),
            depth: (self.level == 3).then_some(4),
            ..SearchLimits::default()
        };
        let options = EngineOptions {
            threads: 1,
            style,
            // The engine seats open from the book, varied game to game.
            own_book: true,
            ..EngineOptions::default()
        };
        (limits, options)
    }
}

/// A seat that changed hands mid-game: `before` played it until turn
/// `turn` (for the record).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handover {
    pub seat: usize,
    pub turn: usize,
    pub before: Seat,
}

/// The settings chosen when the game was made: the game, its players and
/// rules (the library's option table, [`damas::options`]) and the board's
/// own switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `Game`, `Players` and the rule options, set by name.
    pub options: Options,
    /// The game and rules the options describe (checked when the session
    /// was made).
    pub spec: GameSpec,
    /// Whether the first turn moves to the next seat with each game.
    pub rotate_first: bool,
    /// 0: no clock.
    pub turn_seconds: u32,
}

impl Settings {
    /// Settings whose options describe a game, or why they do not.
    pub fn new(
        options: Options,
        rotate_first: bool,
        turn_seconds: u32,
    ) -> Result<Settings, ApiError> {
        let spec = options.spec().map_err(ApiError::bad_request)?;
        Ok(Settings {
            options,
            spec,
            rotate_first,
            turn_seconds,
        })
    }

    /// The game asked for.
    pub fn kind(&self) -> GameKind {
        self.options.game
    }

    /// The library's game and rules.
    pub fn spec(&self) -> GameSpec {
        self.spec
    }
}

/// An engine search in flight for a session.
#[derive(Debug)]
struct Running {
    token: u64,
    stop: Arc<AtomicBool>,
    player: Player,
}

/// What [`WebGame::begin_search`] hands the pool.
pub struct SearchOrder {
    pub token: u64,
    /// The game itself, shared: the session does not change it while the
    /// engine thinks, and the worker lets go of it before it answers.
    pub game: Arc<AnyGame>,
    pub limits: SearchLimits,
    pub options: EngineOptions,
    pub stop: Arc<AtomicBool>,
    pub analysis: Arc<Mutex<Analysis>>,
}

/// One game on the board.
pub struct WebGame {
    pub id: u64,
    pub settings: Settings,
    pub seats: Vec<Seat>,
    /// Shared with the search in flight, so that an engine move copies
    /// nothing ([`WebGame::game_mut`] copies only if a stopped search
    /// still holds it).
    pub game: Arc<AnyGame>,
    /// The position text the game started from; `None` for the start
    /// position with `p1` first.
    pub start: Option<String>,
    /// Games played at this board before this one (the first turn rotates
    /// with it).
    pub game_number: u32,
    /// Bumped on every change, so that the page knows when to redraw and a
    /// late engine answer for an older state is dropped.
    pub version: u64,
    pub last_access: Instant,
    pub turn_started: Instant,
    /// Why the engine played the last turn for a person, or similar news.
    pub notice: Option<Message>,
    pub analysis: Arc<Mutex<Analysis>>,
    /// Past this many turns the referee ends the game.
    max_turns: usize,
    /// When this game began (the record's date).
    pub started: SystemTime,
    /// The seats that changed hands during this game, in order.
    pub handovers: Vec<Handover>,
    running: Option<Running>,
    /// Searches handed to the pool whose answer has not come back
    /// (stopped ones included): the game's memory is not free before.
    in_flight: usize,
    /// The game was removed or expired: it starts no search again.
    closed: bool,
    /// A group's game: its seats bound to the group's members, whose
    /// tokens the requests acting for a seat must hold; `None` for a game
    /// on one device.
    pub binding: Option<Binding>,
    /// Bumped with the version, for the event streams (a group's game
    /// shares its group's).
    pub pulse: Arc<Pulse>,
    /// The version last stored (0: never).
    pub stored_version: u64,
    /// Turns of the history in storage: a prefix of it that no undo or
    /// new game has changed since.
    pub stored_turns: usize,
}

impl WebGame {
    /// A new session; `position` is a FEN or Chinese checkers position text.
    pub fn new(
        id: u64,
        settings: Settings,
        seats: Vec<Seat>,
        position: Option<&str>,
        max_turns: u32,
        now: Instant,
    ) -> Result<WebGame, ApiError> {
        let spec = settings.spec();
        let (game, start) = match position {
            Some(text) => {
                if text.len() > MAX_POSITION_TEXT {
                    return Err(ApiError::bad_request(Message::LongPosition(
                        MAX_POSITION_TEXT,
                    )));
                }
                let game = AnyGame::from_text(&spec, text).map_err(ApiError::bad_request)?;
                let start = game.position_text();
                (game, Some(start))
            }
            None => (AnyGame::new(&spec), None),
        };
        if game.player_count() != seats.len() {
            return Err(ApiError::bad_request(Message::PositionSeats {
                players: game.player_count(),
                seats: seats.len(),
            }));
        }
        Ok(WebGame {
            id,
            settings,
            seats,
            game: Arc::new(game),
            start,
            game_number: 0,
            version: 1,
            last_access: now,
            turn_started: now,
            notice: None,
            analysis: Arc::default(),
            max_turns: max_turns.min(MAX_TURNS) as usize,
            started: SystemTime::now(),
            handovers: Vec::new(),
            running: None,
            in_flight: 0,
            closed: false,
            binding: None,
            pulse: Pulse::new(),
            stored_version: 0,
            stored_turns: 0,
        })
    }

    /// The game, to change it.
    fn game_mut(&mut self) -> &mut AnyGame {
        Arc::make_mut(&mut self.game)
    }

    fn changed(&mut self, now: Instant) {
        self.bump();
        self.turn_started = now;
    }

    /// A new version: the event streams wake, and the storage takes the
    /// change.
    pub fn bump(&mut self) {
        self.version += 1;
        self.pulse.bump();
    }

    /// Whether an engine search is under way.
    pub fn thinking(&self) -> bool {
        self.running.is_some()
    }

    /// Stops the search in flight, whose answer will then be dropped.
    pub fn cancel_search(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The game is removed: its search stops and no other starts. Whether
    /// an answer is still to come back from the pool.
    pub fn close(&mut self) -> bool {
        self.closed = true;
        self.cancel_search();
        // The event streams wake, to find the game gone.
        self.pulse.bump();
        self.in_flight > 0
    }

    /// Whether the game was removed.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// An answer came back from the pool (played or dropped); whether
    /// another is still to come.
    pub fn answered(&mut self) -> bool {
        self.in_flight = self.in_flight.saturating_sub(1);
        self.in_flight > 0
    }

    fn seat_to_move(&self) -> Result<(Player, Seat), ApiError> {
        let player = self
            .game
            .to_move()
            .ok_or_else(|| ApiError::conflict(Message::GameOver))?;
        let seat = self.seats[player.index()];
        Ok((player, seat))
    }

    /// A person's move for the player to move.
    pub fn play(&mut self, text: &str, now: Instant) -> Result<String, ApiError> {
        let (player, seat) = self.seat_to_move()?;
        if seat.kind == SeatKind::Engine {
            return Err(ApiError::conflict(Message::EngineSeat(player)));
        }
        if self.running.is_some() {
            return Err(ApiError::conflict(Message::TimeUp(player)));
        }
        if text.eq_ignore_ascii_case("resign") {
            return Err(ApiError::bad_request(Message::ResignRequest));
        }
        let played = self
            .game_mut()
            .play_text(text)
            .map_err(ApiError::bad_request)?;
        self.notice = None;
        self.after_turn(now);
        Ok(played)
    }

    fn after_turn(&mut self, now: Instant) {
        if self.turns() >= self.max_turns && !self.game.is_over() {
            self.game_mut().adjudicate_draw();
            self.notice = Some(Message::TurnCap(self.max_turns));
        }
        self.changed(now);
    }

    /// Turns taken so far.
    pub fn turns(&self) -> usize {
        self.game.turn_count()
    }

    /// `player` (a person's seat) resigns.
    pub fn resign(&mut self, player: Player, now: Instant) -> Result<(), ApiError> {
        if player.index() >= self.seats.len() {
            return Err(ApiError::bad_request(Message::NoPlayer(player)));
        }
        if self.seats[player.index()].kind == SeatKind::Engine {
            return Err(ApiError::conflict(Message::EngineSeatResign(player)));
        }
        if self.running.as_ref().is_some_and(|r| r.player == player) {
            self.cancel_search();
        }
        self.game_mut().resign(player).map_err(ApiError::conflict)?;
        self.notice = Some(Message::Resigned(player));
        self.changed(now);
        Ok(())
    }

    /// Takes back the last turn and then the engine's turns before it, so
    /// that a person is to move again; with no person at the board, the
    /// last turn only.
    pub fn undo(&mut self, now: Instant) -> Result<(), ApiError> {
        self.cancel_search();
        if !self.game_mut().undo() {
            return Err(ApiError::conflict(Message::NothingToUndo));
        }
        let person = self.seats.iter().any(|s| s.kind == SeatKind::Human);
        while let Some(player) = self.game.to_move().filter(|_| person) {
            if self.seats[player.index()].kind == SeatKind::Human {
                break;
            }
            if !self.game_mut().undo() {
                break;
            }
        }
        let turns = self.turns();
        self.stored_turns = self.stored_turns.min(turns);
        for handover in &mut self.handovers {
            handover.turn = handover.turn.min(turns);
        }
        self.handovers.retain(|h| h.turn > 0);
        self.notice = None;
        self.changed(now);
        Ok(())
    }

    /// Hands seat `index` to the engine or a person, mid-game.
    pub fn set_seat(&mut self, index: usize, seat: Seat, now: Instant) -> Result<(), ApiError> {
        if index >= self.seats.len() {
            return Err(ApiError::not_found(Message::NoSeat(index)));
        }
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.player.index() == index)
        {
            self.cancel_search();
        }
        let before = std::mem::replace(&mut self.seats[index], seat);
        let turn = self.turns();
        // A seat changed again before anyone played it keeps the first
        // entry (or none, when it is back as it was): at most one entry a
        // seat and turn, so the history stays bounded by the turns.
        let same_turn = self
            .handovers
            .iter()
            .position(|h| h.seat == index && h.turn == turn);
        match same_turn {
            Some(at) if self.handovers[at].before.plays_like(&seat) => {
                self.handovers.remove(at);
            }
            Some(_) => {}
            None if !before.plays_like(&seat) && turn > 0 => self.handovers.push(Handover {
                seat: index,
                turn,
                before,
            }),
            None => {}
        }
        self.changed(now);
        Ok(())
    }

    /// Sets the turn clock (0: none); the running turn starts afresh.
    pub fn set_turn_seconds(&mut self, seconds: u32, now: Instant) {
        self.settings.turn_seconds = seconds;
        self.changed(now);
    }

    /// The next game at this board: the start position, the first turn
    /// rotated to the next seat when the setting is on. The rotation is the
    /// board's (docs/RULES.md: it belongs to whoever runs the series, not to
    /// the rules of one game): game n is opened by seat n, modulo the seats.
    /// A game whose first player is fixed (Spanish draughts: White opens)
    /// moves the seats round instead, so that the next seat opens.
    pub fn new_game(&mut self, now: Instant) {
        self.game_number = self.game_number.saturating_add(1);
        self.restart(1, now);
    }

    /// Makes a fresh session, its seats as given, game `number` of its
    /// series: the first turn rotated as [`WebGame::new_game`] would have
    /// after `number` games.
    pub fn open_as(&mut self, number: u32, now: Instant) {
        self.game_number = number;
        self.restart(number as usize, now);
    }

    /// Starts game `self.game_number` from the start position; with a
    /// fixed opener the seats move `shift` places on.
    fn restart(&mut self, shift: usize, now: Instant) {
        self.cancel_search();
        let spec = self.settings.spec();
        self.game = Arc::new(AnyGame::new(&spec));
        self.stored_turns = 0;
        let seats = self.seats.len();
        if self.settings.rotate_first && seats > 1 {
            let next = Player::new(self.game_number as usize % seats);
            match next {
                Some(first) if !spec.kind().fixed_opener() => {
                    self.game = Arc::new(AnyGame::with_first_player(&spec, first));
                }
                // The opener is fixed: every seat moves on instead (two
                // seats swap colours), its member with it.
                _ => {
                    self.seats.rotate_left(shift % seats);
                    if let Some(binding) = &mut self.binding {
                        if binding.owners.len() == seats {
                            binding.owners.rotate_left(shift % seats);
                        }
                    }
                }
            }
        }
        self.start = (self.game.first_player() != P1).then(|| self.game.position_text());
        self.started = SystemTime::now();
        self.handovers.clear();
        self.notice = None;
        self.changed(now);
    }

    /// The seat (index) an undo now would give the turn back to: the
    /// person's seat that played last (`None` with nothing to undo, or no
    /// person at the board).
    pub fn undo_seat(&self) -> Option<usize> {
        let person = |player: Player| self.seats[player.index()].kind == SeatKind::Human;
        self.game
            .turns()
            .iter()
            .rev()
            .map(|turn| turn.player)
            .find(|&player| person(player))
            .map(Player::index)
    }

    /// Milliseconds left on the clock of the person to move.
    pub fn turn_left(&self, now: Instant) -> Option<u64> {
        let player = self.game.to_move()?;
        if self.settings.turn_seconds == 0 || self.seats[player.index()].kind == SeatKind::Engine {
            return None;
        }
        let limit = Duration::from_secs(u64::from(self.settings.turn_seconds));
        Some(
            limit
                .saturating_sub(now.saturating_duration_since(self.turn_started))
                .as_millis() as u64,
        )
    }

    /// The search to start now, if the engine is to play: an engine seat is
    /// to move, or a person's time ran out (then `timeout_seat` plays).
    pub fn begin_search(
        &mut self,
        now: Instant,
        timeout_seat: Seat,
        max_think_ms: u32,
    ) -> Option<SearchOrder> {
        if self.closed || self.running.is_some() || self.game.is_over() {
            return None;
        }
        let player = self.game.to_move()?;
        let seat = self.seats[player.index()];
        let seat = match seat.kind {
            SeatKind::Engine => seat,
            SeatKind::Human if self.turn_left(now) == Some(0) => {
                self.notice = Some(Message::Timeout(player));
                timeout_seat
            }
            SeatKind::Human => return None,
        };
        let (limits, options) = seat.search(max_think_ms);
        let stop = Arc::new(AtomicBool::new(false));
        self.bump();
        self.analysis = Arc::default();
        self.running = Some(Running {
            token: self.version,
            stop: Arc::clone(&stop),
            player,
        });
        self.in_flight += 1;
        Some(SearchOrder {
            token: self.version,
            game: Arc::clone(&self.game),
            limits,
            options,
            stop,
            analysis: Arc::clone(&self.analysis),
        })
    }

    /// Plays the engine's answer to the search `token`, unless the game
    /// changed since (then the answer is dropped).
    pub fn finish_search(&mut self, token: u64, best: Option<AnyMove>, now: Instant) {
        if self.running.as_ref().map(|r| r.token) != Some(token) {
            return;
        }
        self.running = None;
        // Without an answer (a failed search) the first legal move is
        // played, so that the game always moves on.
        let game = self.game_mut();
        let played = best.is_some_and(|mv| game.play(mv).is_ok())
            || game
                .legal_moves()
                .first()
                .is_some_and(|&mv| game.play(mv).is_ok());
        if !played && game.must_pass() {
            let _ = game.pass();
        }
        self.after_turn(now);
    }

    /// The search `token` could not be queued (the workers are gone): the
    /// seat waits, and the page says why.
    pub fn search_failed(&mut self, token: u64) {
        self.in_flight = self.in_flight.saturating_sub(1);
        if self.running.as_ref().map(|r| r.token) == Some(token) {
            self.running = None;
            self.notice = Some(Message::EngineUnavailable);
            self.bump();
        }
    }
}
