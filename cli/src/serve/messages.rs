//! The server's sentences for people (errors and notices) as typed
//! [`Message`]s, each with a stable [`Code`] and its parameters, so that
//! the page says them in its language: an error answers `{"error":
//! "<English sentence>", "code": "...", "params": {...}}`, a state carries
//! `notice_code` and `notice_params` beside its `notice`. A message is
//! built where the error happens, from the library's typed errors or the
//! server's own refusals; its code and parameters come from its fields and
//! the English sentence is only ever written, never read. A player named
//! in a sentence (`p2`) is the parameter `player` (its seat index), which
//! the page writes as the seat's name. A message of no code of its own is
//! code `other`: the page shows the English sentence (`params.detail`).

use std::fmt;

use damas::options::OptionError;
use damas::{
    GameKind, IllegalReason, PlayError, Player, PlayerParseError, PositionError, RulesNote,
    SpecError,
};
use serde_json::{json, Map, Value};

/// Declares [`Code`] with its wire names and [`Code::ALL`] from one list,
/// so that no code can be left out of `ALL`.
macro_rules! codes {
    ($($(#[doc = $doc:literal])* $variant:ident => $name:literal,)*) => {
        /// The machine code of a [`Message`], as the JSON `code` names it
        /// and the page's language files translate it (`error.<code>`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Code {
            /// Every code (for the tests: the server names codes one by
            /// one).
            #[cfg(test)]
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The code's name in the JSON.
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }
        }
    };
}

codes! {
    /// No game has that id.
    NoGame => "no_game",
    /// No page has that path.
    NoPage => "no_page",
    /// No seat has that number.
    NoSeat => "no_seat",
    /// The game is over.
    GameOver => "game_over",
    /// No turn to take back.
    NothingToUndo => "nothing_to_undo",
    /// `resign` sent as a move.
    ResignRequest => "resign_request",
    /// A move text over the limit.
    LongMove => "long_move",
    /// A point name over the limit.
    BadPoint => "bad_point",
    /// The engine could not be asked.
    EngineUnavailable => "engine_unavailable",
    /// A body that is not the request's JSON.
    BadBody => "bad_body",
    /// A position text that does not read.
    BadPosition => "bad_position",
    /// A position text over the limit.
    LongPosition => "long_position",
    /// The server holds as many games as it may.
    ServerFull => "server_full",
    /// The engine plays the seat to move.
    EngineSeat => "engine_seat",
    /// The engine plays the seat that would resign.
    EngineSeatResign => "engine_seat_resign",
    /// The player is not at this board.
    NoPlayer => "no_player",
    /// The player no longer plays.
    NotPlaying => "not_playing",
    /// A player resigned (a notice).
    Resigned => "resigned",
    /// A person's time ran out and the engine played (a notice).
    Timeout => "timeout",
    /// A person's move while the engine plays their timed-out turn.
    TimeUp => "time_up",
    /// The game reached the board's turn limit (a notice).
    TurnCap => "turn_cap",
    /// The CCERL rules asked for with other than two players.
    CcerlPlayers => "ccerl_players",
    /// The client holds as many games as one client may.
    ClientFull => "client_full",
    /// The server serves as many connections as it may.
    ServerBusy => "server_busy",
    /// A body over the limit.
    BodyTooLarge => "body_too_large",
    /// A body that could not be read.
    BodyUnreadable => "body_unreadable",
    /// A body that did not arrive in time.
    BodyTimeout => "body_timeout",
    /// The Japanese variant with 4 or more players (a warning).
    JapaneseFallback => "japanese_fallback",
    /// A seat that is neither a person nor the engine.
    BadSeatKind => "bad_seat_kind",
    /// An engine level out of range.
    BadLevel => "bad_level",
    /// An engine time out of range.
    BadThinkMs => "bad_think_ms",
    /// A turn clock over the limit.
    BadTurnSeconds => "bad_turn_seconds",
    /// No game has that name.
    BadGame => "bad_game",
    /// The seats do not match the players.
    SeatCount => "seat_count",
    /// The game is not played by that many players.
    BadPlayers => "bad_players",
    /// No rule option has that name, or it refuses the value.
    BadRule => "bad_rule",
    /// A move that does not capture while a capture is mandatory.
    CaptureMandatory => "capture_mandatory",
    /// Written as a capture, but the move does not capture.
    NotACapture => "not_a_capture",
    /// No legal capture takes exactly the pieces listed.
    WrongCaptures => "wrong_captures",
    /// A move that is not legal here.
    IllegalMove => "illegal_move",
    /// A short capture text that fits several captures.
    AmbiguousMove => "ambiguous_move",
    /// Not a move (or point) in the game's notation.
    NotAMove => "not_a_move",
    /// A request for a group's seat without that seat's token.
    SeatNotYours => "seat_not_yours",
    /// A group request only its creator may make.
    NotTheCreator => "not_the_creator",
    /// The group has as many players as its game takes.
    GroupFull => "group_full",
    /// A state-changing request from a page of another origin.
    CrossOrigin => "cross_origin",
    /// A change a group makes only between games.
    BetweenGamesOnly => "between_games_only",
    /// A person's name that is empty, too long or not plain text.
    BadName => "bad_name",
    /// No group has that id.
    NoGroup => "no_group",
    /// A request a group's game takes only through its group.
    GroupGame => "group_game",
    /// A group whose people and engines do not make a game's players.
    GroupPlayers => "group_players",
    /// The server or the client holds as many groups as it may.
    TooManyGroups => "too_many_groups",
    /// The server or the group holds as many event streams as it may.
    TooManyStreams => "too_many_streams",
    /// A member's device is gone: the engine plays their seat.
    PlayerAway => "player_away",
    /// A member whose device was gone is back: the seat is theirs again.
    PlayerBack => "player_back",
    /// A seat given away only while its member is away.
    MemberPresent => "member_present",
    /// The change could not be stored (a notice too).
    NotStored => "not_stored",
    /// A message of no code of its own: the page shows the sentence.
    Other => "other",
}

/// One of the server's sentences for people, with what it is about as
/// typed fields. Its `Display` is the English sentence; [`Message::code`]
/// and [`Message::params`] say it for the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// No game has that id; `expired`: the id reads, so the game may have
    /// expired.
    NoGame { expired: bool },
    /// No page has that path.
    NoPage,
    /// The seat number does not read as a seat.
    NoSuchSeat,
    /// No seat has that index (from 0).
    NoSeat(usize),
    /// The game is over.
    GameOver,
    /// No turn to take back.
    NothingToUndo,
    /// `resign` sent as a move.
    ResignRequest,
    /// A move text longer than this many characters.
    LongMove(usize),
    /// A point name too long to be one.
    BadPoint,
    /// The engine could not be asked (a notice).
    EngineUnavailable,
    /// A body that is not the request's JSON: the parser's words.
    BadBody(String),
    /// A position text that does not read.
    BadPosition(PositionError),
    /// A position text longer than this many characters.
    LongPosition(usize),
    /// The server holds this many games, its limit.
    ServerFull(usize),
    /// This client holds this many games, its limit.
    ClientFull(usize),
    /// The server serves as many connections as it may.
    ServerBusy,
    /// The engine plays this player's seat, to move.
    EngineSeat(Player),
    /// The engine plays the seat of this player, who would resign.
    EngineSeatResign(Player),
    /// This player is not at the board.
    NoPlayer(Player),
    /// This player resigned (a notice).
    Resigned(Player),
    /// This player's time ran out: the engine played (a notice).
    Timeout(Player),
    /// This player's time is up: the engine is playing the turn.
    TimeUp(Player),
    /// The game reached the board's limit of this many turns: a draw (a
    /// notice).
    TurnCap(usize),
    /// A body over this many KiB.
    BodyTooLarge(usize),
    /// A body that could not be read.
    BodyUnreadable,
    /// A body that did not arrive within this many milliseconds.
    BodyTimeout(u128),
    /// The rules played are not the rules asked for (a warning).
    Rules(RulesNote),
    /// A seat kind that is neither `human` nor `engine` (clipped).
    BadSeatKind(String),
    /// An engine level out of `1..=max`.
    BadLevel { level: u8, max: u8 },
    /// An engine time out of `min..=max` milliseconds.
    BadThinkMs { think_ms: u32, min: u32, max: u32 },
    /// A turn clock over `max` seconds.
    BadTurnSeconds { seconds: u32, max: u32 },
    /// No game has this name (clipped).
    BadGame(String),
    /// This many seats given for this many players.
    SeatCount { seats: usize, players: u8 },
    /// A position of this many players for this many seats.
    PositionSeats { players: usize, seats: usize },
    /// The game is not played by that many players.
    Spec(SpecError),
    /// No rule option has this name (clipped).
    NotARuleOption(String),
    /// A rule option refused.
    Option(OptionError),
    /// A move, pass or resignation the game refused.
    Play(PlayError),
    /// A player name that is not one.
    Player(PlayerParseError),
    /// A request for the seat of this index (from 0) of a group's game
    /// without its token.
    SeatNotYours(usize),
    /// A group request only its creator may make.
    NotTheCreator,
    /// The group has this many players, as many as its game takes.
    GroupFull(usize),
    /// A state-changing request from a page of another origin.
    CrossOrigin,
    /// A change a group makes only between games.
    BetweenGamesOnly,
    /// A name that is not 1 to this many characters of plain text.
    BadName(usize),
    /// No group has that id.
    NoGroup,
    /// A request a group's game takes only through its group.
    GroupGame,
    /// A group of this many players for a game of `min..=max`.
    GroupPlayers { players: usize, min: u8, max: u8 },
    /// The server (or, `client`, this client) holds this many groups, its
    /// limit.
    TooManyGroups { held: usize, client: bool },
    /// This many event streams are open, the limit (`one`: for this group
    /// or game).
    TooManyStreams { open: usize, one: bool },
    /// The device of this seat's member is gone: the engine plays it.
    PlayerAway(Player),
    /// This seat's member is back.
    PlayerBack(Player),
    /// Member `n` (from 1) is not away: their seat is not free.
    MemberPresent(usize),
    /// The data file refused a write: the change is not acknowledged.
    NotStored,
    /// The system's random source could not be read.
    NoRandomness,
    /// A sentence of no code of its own (the router's, an extractor's).
    Other(String),
}

impl Message {
    /// The message's code.
    pub fn code(&self) -> Code {
        match self {
            Message::NoGame { .. } => Code::NoGame,
            Message::NoPage => Code::NoPage,
            Message::NoSuchSeat | Message::NoSeat(_) => Code::NoSeat,
            Message::GameOver => Code::GameOver,
            Message::NothingToUndo => Code::NothingToUndo,
            Message::ResignRequest => Code::ResignRequest,
            Message::LongMove(_) => Code::LongMove,
            Message::BadPoint => Code::BadPoint,
            Message::EngineUnavailable => Code::EngineUnavailable,
            Message::BadBody(_) => Code::BadBody,
            Message::BadPosition(_) => Code::BadPosition,
            Message::LongPosition(_) => Code::LongPosition,
            Message::ServerFull(_) => Code::ServerFull,
            Message::ClientFull(_) => Code::ClientFull,
            Message::ServerBusy => Code::ServerBusy,
            Message::EngineSeat(_) => Code::EngineSeat,
            Message::EngineSeatResign(_) => Code::EngineSeatResign,
            Message::NoPlayer(_) => Code::NoPlayer,
            Message::Resigned(_) => Code::Resigned,
            Message::Timeout(_) => Code::Timeout,
            Message::TimeUp(_) => Code::TimeUp,
            Message::TurnCap(_) => Code::TurnCap,
            Message::BodyTooLarge(_) => Code::BodyTooLarge,
            Message::BodyUnreadable => Code::BodyUnreadable,
            Message::BodyTimeout(_) => Code::BodyTimeout,
            Message::Rules(RulesNote::JapaneseFallback { .. }) => Code::JapaneseFallback,
            Message::BadSeatKind(_) => Code::BadSeatKind,
            Message::BadLevel { .. } => Code::BadLevel,
            Message::BadThinkMs { .. } => Code::BadThinkMs,
            Message::BadTurnSeconds { .. } => Code::BadTurnSeconds,
            Message::BadGame(_) => Code::BadGame,
            Message::SeatCount { .. } | Message::PositionSeats { .. } => Code::SeatCount,
            Message::Spec(SpecError::Players { .. }) => Code::BadPlayers,
            Message::NotARuleOption(_) => Code::BadRule,
            Message::Option(error) => match error {
                OptionError::Unknown(_) | OptionError::BadValue { .. } => Code::BadRule,
                OptionError::CcerlPlayers(_) => Code::CcerlPlayers,
                OptionError::Combination { .. } => Code::BadPlayers,
            },
            Message::Play(error) => match error {
                PlayError::GameOver => Code::GameOver,
                PlayError::NotPlaying(_) => Code::NotPlaying,
                PlayError::BadSquare(_) | PlayError::Notation(_) => Code::NotAMove,
                PlayError::Illegal(illegal) => match illegal.reason {
                    IllegalReason::NotLegal => Code::IllegalMove,
                    IllegalReason::CaptureMandatory => Code::CaptureMandatory,
                    IllegalReason::NotACapture => Code::NotACapture,
                    IllegalReason::WrongCaptures => Code::WrongCaptures,
                    IllegalReason::Ambiguous => Code::AmbiguousMove,
                },
                PlayError::CannotPass(_) | PlayError::WrongGame => Code::Other,
            },
            Message::SeatNotYours(_) => Code::SeatNotYours,
            Message::NotTheCreator => Code::NotTheCreator,
            Message::GroupFull(_) => Code::GroupFull,
            Message::CrossOrigin => Code::CrossOrigin,
            Message::BetweenGamesOnly => Code::BetweenGamesOnly,
            Message::BadName(_) => Code::BadName,
            Message::NoGroup => Code::NoGroup,
            Message::GroupGame => Code::GroupGame,
            Message::GroupPlayers { .. } => Code::GroupPlayers,
            Message::TooManyGroups { .. } => Code::TooManyGroups,
            Message::TooManyStreams { .. } => Code::TooManyStreams,
            Message::PlayerAway(_) => Code::PlayerAway,
            Message::PlayerBack(_) => Code::PlayerBack,
            Message::MemberPresent(_) => Code::MemberPresent,
            Message::NotStored => Code::NotStored,
            Message::Player(_) | Message::NoRandomness | Message::Other(_) => Code::Other,
        }
    }

    /// The message's parameters: a player as its seat index, a seat as
    /// its number (text), a move as its text, a detail as the words of
    /// whoever refused; a message of code `other`, its sentence as
    /// `detail`.
    pub fn params(&self) -> Map<String, Value> {
        let mut params = Map::new();
        let mut put = |name: &str, value: Value| {
            params.insert(name.into(), value);
        };
        match self {
            Message::NoSeat(index) => put("seat", json!((index + 1).to_string())),
            Message::BadBody(detail) => put("detail", json!(detail)),
            Message::BadPosition(error) => put("detail", json!(error.detail())),
            Message::EngineSeat(player)
            | Message::EngineSeatResign(player)
            | Message::NoPlayer(player)
            | Message::Resigned(player)
            | Message::Timeout(player)
            | Message::TimeUp(player)
            | Message::PlayerAway(player)
            | Message::PlayerBack(player)
            | Message::Play(PlayError::NotPlaying(player)) => put("player", json!(player.index())),
            Message::TurnCap(turns) => put("turns", json!(turns.to_string())),
            Message::SeatNotYours(index) => put("player", json!(index)),
            Message::MemberPresent(member) => put("member", json!(member.to_string())),
            Message::GroupFull(players) => put("players", json!(players.to_string())),
            Message::BadName(most) => put("max", json!(most.to_string())),
            Message::GroupPlayers { players, min, max } => {
                put("players", json!(players.to_string()));
                put("min", json!(min.to_string()));
                put("max", json!(max.to_string()));
            }
            Message::Rules(RulesNote::JapaneseFallback { players }) => {
                put("players", json!(players.to_string()));
            }
            Message::Play(PlayError::Illegal(illegal))
                if illegal.reason != IllegalReason::Ambiguous =>
            {
                put("move", json!(illegal.text));
            }
            _ => {}
        }
        if self.code() == Code::Other {
            params.insert("detail".into(), json!(self.to_string()));
        }
        params
    }

    /// The error answer's JSON: `{"error": ..., "code": ..., "params":
    /// ...}`.
    pub fn error_body(&self) -> Value {
        json!({
            "error": self.to_string(),
            "code": self.code().name(),
            "params": self.params(),
        })
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::NoGame { expired: false } => f.write_str("no such game"),
            Message::NoGame { expired: true } => f.write_str("no such game (it may have expired)"),
            Message::NoPage => f.write_str("no such page"),
            Message::NoSuchSeat => f.write_str("no such seat"),
            Message::NoSeat(index) => write!(f, "no seat p{}", index + 1),
            Message::GameOver => f.write_str("the game is over"),
            Message::NothingToUndo => f.write_str("nothing to take back"),
            Message::ResignRequest => f.write_str("resign with the resign request"),
            Message::LongMove(most) => write!(f, "move text longer than {most} characters"),
            Message::BadPoint => f.write_str("not a square or cell name"),
            Message::EngineUnavailable => f.write_str("the engine is not available"),
            Message::BadBody(detail) => write!(f, "bad request body: {detail}"),
            Message::BadPosition(error) => write!(f, "{error}"),
            Message::LongPosition(most) => {
                write!(f, "position text longer than {most} characters")
            }
            Message::ServerFull(held) => {
                write!(
                    f,
                    "the server holds {held} games, its limit; try again later"
                )
            }
            Message::ClientFull(held) => write!(
                f,
                "this address holds {held} games, the limit for one client; delete one first"
            ),
            Message::ServerBusy => {
                f.write_str("the server has as many connections as it may; try again later")
            }
            Message::EngineSeat(player) => write!(f, "{player} is played by the engine"),
            Message::EngineSeatResign(player) => write!(
                f,
                "{player} is played by the engine; take the seat back first"
            ),
            Message::NoPlayer(player) => write!(f, "{player} is not at this board"),
            Message::Resigned(player) => write!(f, "{player} resigned"),
            Message::Timeout(player) => {
                write!(f, "{player}'s time ran out: the engine played")
            }
            Message::TimeUp(player) => {
                write!(f, "{player}'s time is up: the engine is playing this turn")
            }
            Message::TurnCap(turns) => write!(
                f,
                "the game reached {turns} turns, the board's limit: a draw"
            ),
            Message::BodyTooLarge(kib) => write!(f, "the body is over {kib} KiB"),
            Message::BodyUnreadable => f.write_str("the request body could not be read"),
            Message::BodyTimeout(ms) => {
                write!(f, "the request body did not arrive within {ms} ms")
            }
            Message::Rules(note) => write!(f, "{note}"),
            Message::BadSeatKind(kind) => {
                write!(f, "seat kind '{kind}' is not human or engine")
            }
            Message::BadLevel { level, max } => write!(f, "level {level} is not in 1-{max}"),
            Message::BadThinkMs { think_ms, min, max } => {
                write!(f, "think_ms {think_ms} is not in {min}-{max}")
            }
            Message::BadTurnSeconds { seconds, max } => {
                write!(f, "turn_seconds {seconds} is more than {max}")
            }
            Message::BadGame(name) => {
                let names: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.name()).collect();
                let choices = match names.split_last() {
                    Some((last, [])) => last.to_string(),
                    Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                    None => String::new(),
                };
                write!(f, "game '{name}' is not {choices}")
            }
            Message::SeatCount { seats, players } => {
                write!(f, "{seats} seats given for {players} players")
            }
            Message::PositionSeats { players, seats } => write!(
                f,
                "the position has {players} players but {seats} seats were given"
            ),
            Message::Spec(error) => write!(f, "{error}"),
            Message::NotARuleOption(name) => write!(f, "'{name}' is not a rule option"),
            Message::Option(error) => write!(f, "{error}"),
            Message::Play(error) => write!(f, "{error}"),
            Message::Player(error) => write!(f, "{error}"),
            Message::SeatNotYours(index) => write!(
                f,
                "p{} is not your seat: this device holds no token for it",
                index + 1
            ),
            Message::NotTheCreator => f.write_str("only the group's creator may do that"),
            Message::GroupFull(players) => write!(
                f,
                "the group is full: its game takes {players} players at most"
            ),
            Message::CrossOrigin => f.write_str("a request from another site's page is refused"),
            Message::BetweenGamesOnly => {
                f.write_str("that can be done only between games, not during one")
            }
            Message::BadName(most) => write!(
                f,
                "a name is 1 to {most} characters, with no control characters"
            ),
            Message::NoGroup => f.write_str("no such group (it may have expired)"),
            Message::GroupGame => f.write_str(
                "this game belongs to a group: its creator changes it through the group",
            ),
            Message::GroupPlayers { players, min, max } => write!(
                f,
                "a group's game takes {min}-{max} players (people and engines), not {players}"
            ),
            Message::TooManyGroups { held, client: true } => write!(
                f,
                "this address holds {held} groups, the limit for one client"
            ),
            Message::TooManyGroups {
                held,
                client: false,
            } => write!(
                f,
                "the server holds {held} groups, its limit; try again later"
            ),
            Message::TooManyStreams { open, one: true } => write!(
                f,
                "{open} live update streams are open for this group or game, the limit"
            ),
            Message::TooManyStreams { open, one: false } => write!(
                f,
                "the server has {open} live update streams open, its limit; try again later"
            ),
            Message::PlayerAway(player) => write!(
                f,
                "{player}'s device is gone: the engine plays for them until they come back"
            ),
            Message::PlayerBack(player) => write!(f, "{player} is back"),
            Message::MemberPresent(member) => write!(
                f,
                "member {member} is not away: their seat is not free to give"
            ),
            Message::NoRandomness => {
                f.write_str("no random source for a seat token; try again later")
            }
            Message::NotStored => {
                f.write_str("the server could not store this change; try again later")
            }
            Message::Other(text) => f.write_str(text),
        }
    }
}

impl From<PlayError> for Message {
    fn from(error: PlayError) -> Message {
        Message::Play(error)
    }
}

impl From<PositionError> for Message {
    fn from(error: PositionError) -> Message {
        Message::BadPosition(error)
    }
}

impl From<OptionError> for Message {
    fn from(error: OptionError) -> Message {
        Message::Option(error)
    }
}

impl From<SpecError> for Message {
    fn from(error: SpecError) -> Message {
        Message::Spec(error)
    }
}

impl From<PlayerParseError> for Message {
    fn from(error: PlayerParseError) -> Message {
        Message::Player(error)
    }
}

impl From<RulesNote> for Message {
    fn from(note: RulesNote) -> Message {
        Message::Rules(note)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damas::options::Options;
    use damas::{AnyGame, Game, GameSpec};

    fn player(index: usize) -> Player {
        Player::new(index).expect("a player")
    }

    /// The refusal of `text` in a game of `spec` from `position`.
    fn refusal(spec: &GameSpec, position: Option<&str>, text: &str) -> Message {
        let mut game = match position {
            Some(position) => AnyGame::from_text(spec, position).expect("a position"),
            None => AnyGame::new(spec),
        };
        game.play_text(text).expect_err("refused").into()
    }

    /// One message of each kind, in the order of
    /// tests/data/serve_messages.json.
    fn messages() -> Vec<Message> {
        let spanish = GameSpec::default();
        let star = GameSpec::from_kind(GameKind::Chinese, 2, &Default::default()).unwrap();
        let position = |text: &str| {
            AnyGame::from_text(&spanish, text)
                .map(|_| ())
                .expect_err("refused")
        };
        let japanese = GameSpec::from_kind(GameKind::Japanese, 2, &Default::default()).unwrap();
        let wrong_variant = AnyGame::from_text(&japanese, "I2 1 e9/f9,h9").expect_err("refused");
        let mut settings = Options::default();
        let bad_value = settings.set("MoveLimit", "-3").expect_err("refused");
        let spec = |kind, players| SpecError::Players { kind, players };
        let fallback = GameSpec::from_kind(GameKind::Japanese, 4, &Default::default())
            .unwrap()
            .rules_note()
            .expect("a note");
        vec![
            Message::NoGame { expired: false },
            Message::NoGame { expired: true },
            Message::NoPage,
            Message::NoSuchSeat,
            Message::NoSeat(2),
            Message::GameOver,
            Message::NothingToUndo,
            Message::ResignRequest,
            Message::LongMove(200),
            Message::BadPoint,
            Message::EngineUnavailable,
            Message::BadBody("missing field `game` at line 1 column 2".into()),
            position("W:W33:B1").into(),
            wrong_variant.into(),
            Message::LongPosition(2000),
            Message::ServerFull(5),
            Message::EngineSeat(player(1)),
            Message::EngineSeatResign(player(2)),
            Message::NoPlayer(player(2)),
            PlayError::NotPlaying(player(1)).into(),
            Message::Resigned(player(3)),
            Message::Timeout(player(0)),
            Message::TimeUp(player(2)),
            Message::TurnCap(3000),
            OptionError::CcerlPlayers(3).into(),
            Message::ClientFull(50),
            Message::ServerBusy,
            Message::BodyTooLarge(16),
            Message::BodyUnreadable,
            Message::BodyTimeout(100),
            fallback.into(),
            Message::BadSeatKind("cat".into()),
            Message::BadLevel { level: 9, max: 4 },
            Message::BadThinkMs {
                think_ms: 1,
                min: 50,
                max: 300,
            },
            Message::BadTurnSeconds {
                seconds: 9999,
                max: 600,
            },
            Message::BadGame("chess".into()),
            Message::SeatCount {
                seats: 1,
                players: 2,
            },
            Message::PositionSeats {
                players: 3,
                seats: 2,
            },
            spec(GameKind::Spanish, 3).into(),
            spec(GameKind::Japanese, 4).into(),
            Message::NotARuleOption("Foo".into()),
            bad_value.into(),
            refusal(&spanish, Some("W:W9,14:B13,18,26"), "9-13"),
            refusal(&spanish, None, "11x15"),
            PlayError::Illegal(damas::IllegalMove::new(
                IllegalReason::WrongCaptures,
                "14x30x18x27",
                "illegal move '14x30x18x27': no legal capture takes exactly those pieces",
            ))
            .into(),
            refusal(&spanish, None, "11-16"),
            refusal(&star, None, "e1-e9"),
            refusal(&spanish, Some("W:W14:B18,19,26,27"), "14x30"),
            refusal(&spanish, None, ""),
            refusal(&spanish, None, "1115"),
            refusal(&spanish, None, "99-100"),
            Message::Play(AnyGame::new(&spanish).point("zz").expect_err("no square")),
            refusal(&star, None, "e1"),
            refusal(&star, None, "z9-e2"),
            PlayError::CannotPass(7).into(),
            "p9".parse::<Player>().expect_err("no player").into(),
            Message::Other("method not allowed".into()),
            Message::SeatNotYours(1),
            Message::NotTheCreator,
            Message::GroupFull(2),
            Message::CrossOrigin,
            Message::BetweenGamesOnly,
            Message::BadName(24),
            Message::NoGroup,
            Message::GroupGame,
            Message::GroupPlayers {
                players: 1,
                min: 2,
                max: 6,
            },
            Message::TooManyGroups {
                held: 50,
                client: true,
            },
            Message::TooManyGroups {
                held: 500,
                client: false,
            },
            Message::NoRandomness,
            Message::TooManyStreams {
                open: 16,
                one: true,
            },
            Message::TooManyStreams {
                open: 128,
                one: false,
            },
            Message::PlayerAway(player(1)),
            Message::PlayerBack(player(1)),
            Message::MemberPresent(2),
            Message::NotStored,
        ]
    }

    /// Every kind of message says its sentence, code and parameters as the
    /// server has always answered them (tests/data/serve_messages.json).
    #[test]
    fn every_message_answers_as_recorded() {
        let rows: Vec<Value> =
            serde_json::from_str(include_str!("../../../tests/data/serve_messages.json"))
                .expect("JSON");
        let messages = messages();
        assert_eq!(messages.len(), rows.len());
        for (message, row) in messages.iter().zip(&rows) {
            assert_eq!(&message.error_body(), row, "{message:?}");
        }
        // Every code is among them.
        for code in Code::ALL {
            assert!(
                messages.iter().any(|message| message.code() == *code),
                "no message of code {}",
                code.name()
            );
        }
    }
}
