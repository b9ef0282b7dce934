//! Run-time choice of the game: [`GameSpec`] (what to start), [`AnyGame`]
//! behind the same [`Game`] interface, and [`AnyEngine`], its search
//! context behind [`Search`](crate::Search).

use std::sync::atomic::AtomicBool;

use crate::board::{Board, MoveAnatomy, MoveKind, Piece, PlayedTurn, Player, PlayerStatus, Point};
use crate::chinese;
use crate::game::{Game, GameKind, Outcome, PlayError, PositionError};
use crate::spanish;

/// Which game to start, with its rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameSpec {
    /// Draughts on the 8×8 board under these rules (the variant).
    Draughts(spanish::Rules),
    /// Chinese checkers under these rules (the variant and the number of
    /// players included).
    Chinese(chinese::Rules),
}

impl Default for GameSpec {
    /// Spanish draughts.
    fn default() -> GameSpec {
        GameSpec::Draughts(spanish::Rules::default())
    }
}

impl GameSpec {
    /// The game `kind` for `players` players. `rules` gives the Chinese
    /// checkers rule settings (its own player count and variant are
    /// replaced by `players` and `kind`); draughts takes two players only
    /// and is played under the default [`spanish::Rules`].
    ///
    /// # Errors
    ///
    /// [`SpecError::Players`] when `kind` is not played by `players` players
    /// (Spanish draughts takes 2; Chinese checkers 1–6; the Japanese variant
    /// 1–6, falling back to the international rules from 4 on).
    pub fn from_kind(
        kind: GameKind,
        players: u8,
        rules: &chinese::Rules,
    ) -> Result<GameSpec, SpecError> {
        if !kind.players().contains(&players) && kind != GameKind::Japanese {
            return Err(SpecError::Players { kind, players });
        }
        let variant = match kind {
            GameKind::Spanish => return Ok(GameSpec::default()),
            GameKind::Chinese => chinese::Variant::International,
            // With 4-6 players the Japanese variant falls back to the
            // international rules and says so (`rules_warning`).
            GameKind::Japanese if (1..=6).contains(&players) => chinese::Variant::Japanese,
            GameKind::Japanese => return Err(SpecError::Players { kind, players }),
        };
        Ok(GameSpec::Chinese(chinese::Rules {
            players,
            variant,
            ..*rules
        }))
    }

    /// The number of players.
    pub fn players(&self) -> u8 {
        match self {
            GameSpec::Draughts(_) => 2,
            GameSpec::Chinese(rules) => rules.players,
        }
    }

    /// The name of the rules played, for people: the draughts variant's
    /// (`Brazilian draughts`), else the game's [`GameKind::title`].
    ///
    /// ```
    /// use damas::spanish::{Rules, Variant};
    /// use damas::GameSpec;
    /// let brazilian = GameSpec::Draughts(Rules::new(Variant::Brazilian).unwrap());
    /// assert_eq!(brazilian.title(), "Brazilian draughts");
    /// assert_eq!(GameSpec::default().title(), "Spanish draughts");
    /// ```
    pub fn title(&self) -> &'static str {
        match self {
            GameSpec::Draughts(rules) => match rules.variant() {
                spanish::Variant::Spanish => "Spanish draughts",
                spanish::Variant::Portuguese => "Portuguese draughts",
                spanish::Variant::Brazilian => "Brazilian draughts",
                spanish::Variant::Russian => "Russian draughts",
            },
            GameSpec::Chinese(_) => self.kind().title(),
        }
    }

    /// Whether a capture must take the most pieces on offer (Spanish,
    /// Portuguese and Brazilian draughts); false where any capture may be
    /// chosen (Russian draughts) and in games without captures.
    ///
    /// ```
    /// use damas::spanish::{Rules, Variant};
    /// use damas::GameSpec;
    /// let russian = GameSpec::Draughts(Rules::new(Variant::Russian).unwrap());
    /// assert!(!russian.must_take_most());
    /// assert!(GameSpec::default().must_take_most());
    /// ```
    pub fn must_take_most(&self) -> bool {
        match self {
            GameSpec::Draughts(rules) => match rules.capture_choice() {
                spanish::CaptureChoice::MostPiecesThenKings
                | spanish::CaptureChoice::MostPieces => true,
                spanish::CaptureChoice::Free => false,
            },
            GameSpec::Chinese(_) => false,
        }
    }

    /// The game these rules play ([`GameKind::Japanese`] for the Japanese
    /// variant with 2–3 players).
    pub fn kind(&self) -> GameKind {
        match self {
            GameSpec::Draughts(_) => GameKind::Spanish,
            GameSpec::Chinese(rules) => match rules.effective_variant() {
                chinese::Variant::International => GameKind::Chinese,
                chinese::Variant::Japanese => GameKind::Japanese,
            },
        }
    }

    /// A note when the rules asked for are not the rules played (the
    /// Japanese variant with 4 or more players plays by the international
    /// rules): the text of [`GameSpec::rules_note`].
    pub fn rules_warning(&self) -> Option<String> {
        self.rules_note().map(|note| note.to_string())
    }

    /// Why the rules played are not the rules asked for, if they are not.
    ///
    /// ```
    /// use damas::{chinese::Rules, GameKind, GameSpec, RulesNote};
    /// let spec = GameSpec::from_kind(GameKind::Japanese, 4, &Rules::default()).unwrap();
    /// assert_eq!(spec.rules_note(), Some(RulesNote::JapaneseFallback { players: 4 }));
    /// assert_eq!(spec.rules_warning(), spec.rules_note().map(|note| note.to_string()));
    /// ```
    pub fn rules_note(&self) -> Option<RulesNote> {
        match self {
            GameSpec::Chinese(rules) if rules.variant_fallback() => {
                Some(RulesNote::JapaneseFallback {
                    players: rules.players,
                })
            }
            _ => None,
        }
    }
}

/// Why the rules played are not the rules asked for
/// ([`GameSpec::rules_note`]); its `Display` is the note for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum RulesNote {
    /// The Japanese variant was asked for with 4 or more players: the
    /// international rules apply.
    #[error(
        "the Japanese variant is for 2-3 players; with {players} players the international rules apply"
    )]
    JapaneseFallback {
        /// The number of players.
        players: u8,
    },
}

impl RulesNote {
    /// The note as a stable machine name: `japanese_fallback`.
    pub fn code(&self) -> &'static str {
        match self {
            RulesNote::JapaneseFallback { .. } => "japanese_fallback",
        }
    }
}

/// Why [`GameSpec::from_kind`] describes no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The game is not played by that many players.
    #[error("{} is played by {} players, not {players}", .kind.title(), players_text(*.kind))]
    Players {
        /// The game asked for.
        kind: GameKind,
        /// The number of players asked for.
        players: u8,
    },
}

impl SpecError {
    /// The error as a stable machine name: `players`.
    pub fn code(&self) -> &'static str {
        match self {
            SpecError::Players { .. } => "players",
        }
    }
}

/// `2` or `1-6`: the player counts of `kind`.
pub(crate) fn players_text(kind: GameKind) -> String {
    let range = kind.players();
    if range.start() == range.end() {
        range.start().to_string()
    } else {
        format!("{}-{}", range.start(), range.end())
    }
}

/// A game of either kind, chosen at run time.
///
/// ```
/// use damas::chinese::Rules;
/// use damas::{AnyGame, Game, GameSpec};
///
/// for spec in [GameSpec::default(), GameSpec::Chinese(Rules::for_players(3))] {
///     let mut game = AnyGame::new(&spec);
///     let first = game.legal_moves()[0];
///     game.play(first).unwrap();
///     assert!(!game.is_over());
///     assert!(game.undo());
/// }
/// ```
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Spanish draughts.
    Spanish(Box<spanish::Draughts>),
    /// Chinese checkers or the Japanese variant.
    Chinese(Box<chinese::Checkers>),
}

/// A move of an [`AnyGame`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AnyMove {
    /// A Spanish draughts move.
    Spanish(spanish::Move),
    /// A Chinese checkers move.
    Chinese(chinese::Move),
}

impl std::fmt::Display for AnyMove {
    /// The move's own text (`11-15`, `15x24x19`, `e4-e5`), which needs no
    /// position; [`Game::move_text`] gives the canonical text in one.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnyMove::Spanish(mv) => mv.fmt(f),
            AnyMove::Chinese(mv) => mv.fmt(f),
        }
    }
}

impl AnyMove {
    /// The points the move leaves and ends on, as
    /// [`Game::anatomy`] names them, read from the move alone: no position
    /// is needed and nothing is allocated, so a front end can index moves
    /// (by `from` × `to`) as fast as they are generated.
    ///
    /// ```
    /// use damas::{AnyGame, Game, GameSpec};
    /// let game = AnyGame::new(&GameSpec::default());
    /// for mv in game.legal_moves() {
    ///     let anatomy = game.anatomy(&mv);
    ///     assert_eq!(mv.ends(), (anatomy.from, anatomy.to));
    /// }
    /// ```
    pub fn ends(&self) -> (Point, Point) {
        match self {
            AnyMove::Spanish(mv) => (Point::of(mv.from().index()), Point::of(mv.to().index())),
            AnyMove::Chinese(mv) => (Point::of(mv.from().index()), Point::of(mv.to().index())),
        }
    }
}

impl AnyGame {
    /// The game and rules this game is played under (its player count and
    /// rule options as they were made; a Chinese checkers game that
    /// started from a text has the text's rules).
    pub fn spec(&self) -> GameSpec {
        match self {
            AnyGame::Spanish(g) => GameSpec::Draughts(g.position().rules()),
            AnyGame::Chinese(g) => GameSpec::Chinese(*g.rules()),
        }
    }

    /// The start position of `spec`, `p1` to move.
    pub fn new(spec: &GameSpec) -> AnyGame {
        AnyGame::with_first_player(spec, Player::of(0))
    }

    /// The start position of `spec` with `first` to move (Chinese checkers;
    /// Spanish draughts always starts with White). A player beyond the
    /// number of players wraps round.
    pub fn with_first_player(spec: &GameSpec, first: Player) -> AnyGame {
        match spec {
            GameSpec::Draughts(rules) => AnyGame::Spanish(Box::new(spanish::Draughts::new(
                spanish::Position::start().with_rules(*rules),
            ))),
            GameSpec::Chinese(rules) => {
                let players = usize::from(rules.players.clamp(1, 6));
                let rules = chinese::Rules {
                    players: players as u8,
                    ..*rules
                };
                AnyGame::Chinese(Box::new(chinese::Checkers::with_first_player(
                    rules,
                    first.index() % players,
                )))
            }
        }
    }

    /// A game from a position text: a PDN FEN for Spanish draughts; a
    /// Chinese checkers position text, whose missing rule fields come from
    /// `spec` and whose variant must be the one `spec` asks for.
    ///
    /// # Errors
    ///
    /// [`PositionError::Invalid`] when `text` is not a position of the game
    /// (the game's own reason inside); [`PositionError::WrongVariant`] when a
    /// Chinese checkers text is for the other variant than `spec`'s.
    pub fn from_text(spec: &GameSpec, text: &str) -> Result<AnyGame, PositionError> {
        match spec {
            GameSpec::Draughts(rules) => {
                // A FEN in the variant's notation (squares by name in
                // Brazilian draughts), read by a game of those rules.
                let rules = spanish::Draughts::new(spanish::Position::start().with_rules(*rules));
                let game = Game::read_position(&rules, text)?;
                Ok(AnyGame::Spanish(Box::new(game)))
            }
            GameSpec::Chinese(rules) => {
                let game = chinese::Checkers::from_text_with_defaults(text, rules)?;
                // The variants asked for and written, whatever the player
                // count makes of them (the Japanese rules with 4 or more
                // players play as the international ones).
                let variant_kind = |japanese: bool| {
                    if japanese {
                        GameKind::Japanese
                    } else {
                        GameKind::Chinese
                    }
                };
                let wanted = variant_kind(rules.variant == chinese::Variant::Japanese);
                let found = variant_kind(game.rules().variant == chinese::Variant::Japanese);
                if wanted != found {
                    return Err(PositionError::WrongVariant { wanted, found });
                }
                Ok(AnyGame::Chinese(Box::new(game)))
            }
        }
    }
}

/// A move of another game seen from this one: its two ends.
fn ends(from: usize, to: usize) -> MoveAnatomy {
    let (from, to) = (Point::of(from), Point::of(to));
    MoveAnatomy {
        from,
        to,
        path: vec![from, to],
        captured: Vec::new(),
        promotes: false,
        kind: MoveKind::Step,
    }
}

/// Runs `$body` with `$g` bound to the inner game.
macro_rules! each {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            AnyGame::Spanish($g) => $body,
            AnyGame::Chinese($g) => $body,
        }
    };
}

impl Game for AnyGame {
    type Move = AnyMove;
    type Engine = AnyEngine;

    fn kind(&self) -> GameKind {
        each!(self, g => g.kind())
    }

    fn player_count(&self) -> usize {
        each!(self, g => g.player_count())
    }

    fn to_move(&self) -> Option<Player> {
        each!(self, g => Game::to_move(g.as_ref()))
    }

    fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyGame::Spanish(g) => Game::legal_moves(g.as_ref())
                .into_iter()
                .map(AnyMove::Spanish)
                .collect(),
            AnyGame::Chinese(g) => Game::legal_moves(g.as_ref())
                .into_iter()
                .map(AnyMove::Chinese)
                .collect(),
        }
    }

    fn play(&mut self, mv: AnyMove) -> Result<(), PlayError> {
        match (self, mv) {
            (AnyGame::Spanish(g), AnyMove::Spanish(mv)) => Game::play(g.as_mut(), mv),
            (AnyGame::Chinese(g), AnyMove::Chinese(mv)) => Game::play(g.as_mut(), mv),
            _ => Err(PlayError::WrongGame),
        }
    }

    fn pass(&mut self) -> Result<(), PlayError> {
        each!(self, g => Game::pass(g.as_mut()))
    }

    fn resign(&mut self, player: Player) -> Result<(), PlayError> {
        each!(self, g => Game::resign(g.as_mut(), player))
    }

    fn adjudicate_draw(&mut self) {
        each!(self, g => Game::adjudicate_draw(g.as_mut()))
    }

    fn undo(&mut self) -> bool {
        each!(self, g => Game::undo(g.as_mut()))
    }

    fn parse_move(&self, text: &str) -> Result<AnyMove, PlayError> {
        match self {
            AnyGame::Spanish(g) => Game::parse_move(g.as_ref(), text).map(AnyMove::Spanish),
            AnyGame::Chinese(g) => Game::parse_move(g.as_ref(), text).map(AnyMove::Chinese),
        }
    }

    fn moves_from(&self, point: Point) -> Vec<AnyMove> {
        match self {
            AnyGame::Spanish(g) => g
                .moves_from(point)
                .into_iter()
                .map(AnyMove::Spanish)
                .collect(),
            AnyGame::Chinese(g) => g
                .moves_from(point)
                .into_iter()
                .map(AnyMove::Chinese)
                .collect(),
        }
    }

    fn board(&self) -> Board {
        each!(self, g => g.board())
    }

    fn point(&self, name: &str) -> Result<Point, PlayError> {
        each!(self, g => g.point(name))
    }

    fn point_name(&self, point: Point) -> String {
        each!(self, g => g.point_name(point))
    }

    fn piece_at(&self, point: Point) -> Option<Piece> {
        each!(self, g => Game::piece_at(g.as_ref(), point))
    }

    fn anatomy(&self, mv: &AnyMove) -> MoveAnatomy {
        match (self, mv) {
            (AnyGame::Spanish(g), AnyMove::Spanish(mv)) => g.anatomy(mv),
            (AnyGame::Chinese(g), AnyMove::Chinese(mv)) => g.anatomy(mv),
            // The other game's move: only its ends, by index.
            (_, AnyMove::Spanish(mv)) => ends(mv.from().index(), mv.to().index()),
            (_, AnyMove::Chinese(mv)) => ends(mv.from().index(), mv.to().index()),
        }
    }

    fn player_status(&self, player: Player) -> Option<PlayerStatus> {
        each!(self, g => g.player_status(player))
    }

    fn first_player(&self) -> Player {
        each!(self, g => Game::first_player(g.as_ref()))
    }

    fn turn_count(&self) -> usize {
        each!(self, g => g.turn_count())
    }

    fn turns(&self) -> Vec<PlayedTurn> {
        each!(self, g => g.turns())
    }

    fn player_name(&self, player: Player) -> &'static str {
        each!(self, g => g.player_name(player))
    }

    fn diagram_symbol(&self, piece: Piece) -> Option<char> {
        each!(self, g => g.diagram_symbol(piece))
    }

    fn perft_keeping_duplicates(&self, depth: u32, threads: usize, hash_mb: usize) -> Option<u64> {
        each!(self, g => g.perft_keeping_duplicates(depth, threads, hash_mb))
    }

    fn play_text(&mut self, text: &str) -> Result<String, PlayError> {
        each!(self, g => Game::play_text(g.as_mut(), text))
    }

    fn move_text(&self, mv: &AnyMove) -> String {
        match (self, mv) {
            (AnyGame::Spanish(g), AnyMove::Spanish(mv)) => Game::move_text(g.as_ref(), mv),
            (AnyGame::Chinese(g), AnyMove::Chinese(mv)) => Game::move_text(g.as_ref(), mv),
            // The other game's move: its own long form, since this game
            // cannot write it.
            (_, mv) => mv.to_string(),
        }
    }

    fn line_text(&self, line: &[AnyMove]) -> Vec<String> {
        match self {
            AnyGame::Spanish(g) => {
                let moves: Vec<spanish::Move> = line
                    .iter()
                    .map_while(|mv| match mv {
                        AnyMove::Spanish(mv) => Some(*mv),
                        AnyMove::Chinese(_) => None,
                    })
                    .collect();
                g.line_text(&moves)
            }
            AnyGame::Chinese(g) => {
                let moves: Vec<chinese::Move> = line
                    .iter()
                    .map_while(|mv| match mv {
                        AnyMove::Chinese(mv) => Some(*mv),
                        AnyMove::Spanish(_) => None,
                    })
                    .collect();
                g.line_text(&moves)
            }
        }
    }

    /// The variant must be this game's (see [`AnyGame::from_text`]).
    fn read_position(&self, text: &str) -> Result<AnyGame, PositionError> {
        AnyGame::from_text(&self.spec(), text)
    }

    fn position_text(&self) -> String {
        each!(self, g => Game::position_text(g.as_ref()))
    }

    fn diagram(&self) -> String {
        each!(self, g => Game::diagram(g.as_ref()))
    }

    fn hash(&self) -> u64 {
        each!(self, g => Game::hash(g.as_ref()))
    }

    fn places(&self) -> Vec<Option<u8>> {
        each!(self, g => Game::places(g.as_ref()))
    }

    fn outcome(&self) -> Option<Outcome> {
        each!(self, g => Game::outcome(g.as_ref()))
    }

    fn perft_until(&self, depth: u32, threads: usize, stop: &AtomicBool) -> Option<u64> {
        each!(self, g => Game::perft_until(g.as_ref(), depth, threads, stop))
    }

    fn perft_hashed_until(
        &self,
        depth: u32,
        threads: usize,
        hash_mb: usize,
        stop: &AtomicBool,
    ) -> Option<u64> {
        each!(self, g => Game::perft_hashed_until(g.as_ref(), depth, threads, hash_mb, stop))
    }

    fn divide_until(&self, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>> {
        each!(self, g => Game::divide_until(g.as_ref(), depth, stop))
    }
}

mod engine;

pub use engine::AnyEngine;
