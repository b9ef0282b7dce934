//! Spanish draughts behind the game-neutral [`crate::Game`] interface.

use std::sync::atomic::AtomicBool;

use crate::board::{
    Board, BoardShape, MoveAnatomy, MoveKind, Piece, PlayedTurn, Player, PlayerStatus, Point,
    PointInfo, TurnAction,
};
use crate::game::{self, EndReason, GameKind, IllegalMove, IllegalReason, Outcome, PlayError};

use super::capture_path::capture_path;
use super::game::DraughtsError;
use super::perft::{divide_until, perft_hashed_until, perft_parallel_until};
use super::{fen_error_text, Engine, FenError, Move, MoveParseError, Notation};
use super::{Bitboard, Color, Draughts, DrawReason, GameStatus, Position};
use super::{Square, WinReason};

/// `p1` is White, `p2` Black.
fn player_of(color: Color) -> Player {
    Player::of(match color {
        Color::White => 0,
        Color::Black => 1,
    })
}

fn color_of(player: Player) -> Option<Color> {
    match player.index() {
        0 => Some(Color::White),
        1 => Some(Color::Black),
        _ => None,
    }
}

fn square_of(point: Point) -> Option<Square> {
    Square::from_index(point.index())
}

fn is_resignation(ruling: GameStatus) -> bool {
    matches!(
        ruling,
        GameStatus::Win {
            reason: WinReason::Resignation,
            ..
        }
    )
}

fn play_error(err: DraughtsError) -> PlayError {
    match err {
        DraughtsError::GameOver(_) => PlayError::GameOver,
        DraughtsError::Illegal(mv) => PlayError::Illegal(IllegalMove::new(
            IllegalReason::NotLegal,
            mv.to_string(),
            err.to_string(),
        )),
        DraughtsError::Parse(err) => parse_error(err),
    }
}

/// A move text refused: an illegal or ambiguous move with its reason and
/// text, anything else as notation; the message is the parser's.
fn parse_error(err: MoveParseError) -> PlayError {
    let message = err.to_string();
    match err {
        MoveParseError::Illegal { text, reason } => {
            PlayError::Illegal(IllegalMove::new(reason, text, message))
        }
        MoveParseError::Ambiguous { text, .. } => {
            PlayError::Illegal(IllegalMove::new(IllegalReason::Ambiguous, text, message))
        }
        _ => PlayError::Notation(message),
    }
}

impl From<FenError> for crate::PositionError {
    fn from(err: FenError) -> crate::PositionError {
        crate::PositionError::Invalid(err.to_string())
    }
}

/// How the game ended, once it is over, in the game-neutral shape; the
/// draws that count plies name the count of the variant played.
fn outcome_of(status: GameStatus, position: &Position) -> Option<Outcome> {
    let rules = position.rules();
    let (places, reason) = match status {
        GameStatus::Ongoing => return None,
        GameStatus::Win { winner, reason } => {
            let places = match winner {
                Color::White => vec![1, 2],
                Color::Black => vec![2, 1],
            };
            let reason = match reason {
                WinReason::NoPieces => EndReason::NoPieces,
                WinReason::NoMoves => EndReason::NoMoves,
                WinReason::Resignation => EndReason::Resignation,
            };
            (places, reason)
        }
        GameStatus::Draw { reason } => {
            let reason = match reason {
                DrawReason::Repetition => EndReason::Repetition,
                DrawReason::NoProgress => EndReason::NoProgress {
                    plies: rules.no_progress_plies(),
                },
                DrawReason::UnchangedBalance => EndReason::UnchangedBalance {
                    plies: rules
                        .unchanged_balance_plies(position.occupied().count())
                        .unwrap_or_default(),
                },
                DrawReason::ThreeKings => EndReason::ThreeKings {
                    plies: rules.three_kings_plies().unwrap_or_default(),
                },
                DrawReason::Adjudicated => EndReason::Adjudicated,
            };
            (vec![1, 1], reason)
        }
    };
    Some(Outcome { places, reason })
}

impl Draughts {
    /// How the players of this game's variant write squares and moves.
    pub fn notation(&self) -> Notation {
        Notation::of(self.position().rules().variant())
    }
}

impl game::Game for Draughts {
    type Move = Move;
    type Engine = Engine;

    fn kind(&self) -> GameKind {
        GameKind::Spanish
    }

    fn player_count(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<Player> {
        (!self.status().is_over()).then(|| player_of(self.position().to_move()))
    }

    fn legal_moves(&self) -> Vec<Move> {
        if self.status().is_over() {
            return Vec::new();
        }
        self.position().legal_moves().to_vec()
    }

    fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        let status = self.status();
        if status.is_over() {
            return Err(play_error(DraughtsError::GameOver(status)));
        }
        if !self.position().legal_moves().contains(&mv) {
            return Err(play_error(DraughtsError::Illegal(mv)));
        }
        self.push(mv);
        Ok(())
    }

    fn pass(&mut self) -> Result<(), PlayError> {
        if self.status().is_over() {
            return Err(PlayError::GameOver);
        }
        Err(PlayError::CannotPass(self.position().legal_moves().len()))
    }

    fn resign(&mut self, player: Player) -> Result<(), PlayError> {
        let color = color_of(player).ok_or(PlayError::NotPlaying(player))?;
        let status = self.status();
        if status.is_over() {
            return Err(play_error(DraughtsError::GameOver(status)));
        }
        self.ruling = Some(GameStatus::Win {
            winner: color.opposite(),
            reason: WinReason::Resignation,
        });
        Ok(())
    }

    fn adjudicate_draw(&mut self) {
        if !self.status().is_over() {
            self.ruling = Some(GameStatus::Draw {
                reason: DrawReason::Adjudicated,
            });
        }
    }

    /// Takes back a resignation or ruling if there is one, else the last
    /// move.
    fn undo(&mut self) -> bool {
        if self.ruling.take().is_some() {
            return true;
        }
        if self.moves.pop().is_none() {
            return false;
        }
        self.positions.pop();
        self.hashes.pop();
        self.counts.pop();
        true
    }

    fn parse_move(&self, text: &str) -> Result<Move, PlayError> {
        if self.status().is_over() {
            return Err(PlayError::GameOver);
        }
        self.position()
            .parse_move_in(text, self.notation())
            .map_err(parse_error)
    }

    fn moves_from(&self, point: Point) -> Vec<Move> {
        game::Game::legal_moves(self)
            .into_iter()
            .filter(|mv| mv.from().index() == point.index())
            .collect()
    }

    /// The 32 dark squares in number order, named in the variant's
    /// notation, `x` the file from White's left and `y` the rank from
    /// White's side as the variant's players set the board up (a1 dark in
    /// Brazilian and Russian draughts); each side's promotion row is
    /// marked, and the camps are the twelve squares each side starts on.
    fn board(&self) -> Board {
        let notation = self.notation();
        let points = Square::all()
            .map(|sq| {
                let on = |bits: Bitboard| bits.contains(sq);
                let side = |white: bool| player_of(if white { Color::White } else { Color::Black });
                let (x, y) = notation.coords(sq);
                PointInfo {
                    name: notation.square_name(sq),
                    x: i32::from(x),
                    y: i32::from(y),
                    camp: (sq.number() <= 12 || sq.number() >= 21).then(|| side(sq.number() <= 12)),
                    goal: None,
                    promotion: [Color::White, Color::Black]
                        .into_iter()
                        .find(|&c| on(c.promotion_row()))
                        .map(player_of),
                }
            })
            .collect();
        Board {
            shape: BoardShape::Squares {
                width: 8,
                height: 8,
            },
            points,
        }
    }

    fn point(&self, name: &str) -> Result<Point, PlayError> {
        let notation = self.notation();
        notation
            .read_square(name)
            .map(|sq| Point::of(sq.index()))
            .ok_or_else(|| {
                let shown: String = name.chars().take(20).collect();
                let squares = match notation {
                    Notation::Numeric => "1-32",
                    Notation::Algebraic { .. } => "a dark square a1-h8",
                };
                PlayError::BadSquare(format!("'{shown}' is not a square ({squares})"))
            })
    }

    fn point_name(&self, point: Point) -> String {
        square_of(point)
            .map(|sq| self.notation().square_name(sq))
            .unwrap_or_default()
    }

    fn piece_at(&self, point: Point) -> Option<Piece> {
        let piece = self.position().piece_at(square_of(point)?)?;
        Some(Piece {
            owner: player_of(piece.color),
            kind: piece.kind,
        })
    }

    fn anatomy(&self, mv: &Move) -> MoveAnatomy {
        let position = self.position();
        let point = |sq: Square| Point::of(sq.index());
        let path = if mv.is_capture() {
            capture_path(position, mv)
        } else {
            None
        };
        let path = path.unwrap_or_else(|| (vec![mv.from(), mv.to()], Vec::new()));
        MoveAnatomy {
            from: point(mv.from()),
            to: point(mv.to()),
            path: path.0.into_iter().map(point).collect(),
            captured: if path.1.is_empty() {
                mv.captured().into_iter().map(point).collect()
            } else {
                path.1.into_iter().map(point).collect()
            },
            promotes: position.is_promotion(mv),
            kind: if mv.is_capture() {
                MoveKind::Capture
            } else {
                MoveKind::Step
            },
        }
    }

    /// A side still in the game is playing; once it is over both are
    /// [`PlayerStatus::Out`] with their places, or the loser
    /// [`PlayerStatus::Resigned`] after a resignation.
    fn player_status(&self, player: Player) -> Option<PlayerStatus> {
        let color = color_of(player)?;
        Some(match self.status() {
            GameStatus::Ongoing => PlayerStatus::Playing,
            GameStatus::Win {
                winner,
                reason: WinReason::Resignation,
            } if winner != color => PlayerStatus::Resigned { place: 2 },
            GameStatus::Win { winner, .. } => PlayerStatus::Out {
                place: if winner == color { 1 } else { 2 },
            },
            GameStatus::Draw { .. } => PlayerStatus::Out { place: 1 },
        })
    }

    fn first_player(&self) -> Player {
        player_of(self.start_position().to_move())
    }

    fn turn_count(&self) -> usize {
        self.moves().len() + usize::from(self.ruling.is_some_and(is_resignation))
    }

    /// Every move from the start position, then the resignation if the
    /// game ended by one.
    fn turns(&self) -> Vec<PlayedTurn> {
        let mut replay = Draughts::new(*self.start_position());
        let mut out = Vec::with_capacity(self.moves().len() + 1);
        for &mv in self.moves() {
            let player = player_of(replay.position().to_move());
            out.push(PlayedTurn {
                player,
                text: game::Game::move_text(&replay, &mv),
                action: TurnAction::Move(game::Game::anatomy(&replay, &mv)),
            });
            replay.push(mv);
        }
        if let Some(GameStatus::Win {
            winner,
            reason: WinReason::Resignation,
        }) = self.ruling
        {
            out.push(PlayedTurn {
                player: player_of(winner.opposite()),
                text: "resign".into(),
                action: TurnAction::Resign,
            });
        }
        out
    }

    /// `w`/`b` men and `W`/`B` kings, as [`Position::diagram`] draws them.
    fn diagram_symbol(&self, piece: Piece) -> Option<char> {
        Some(super::diagram::symbol(super::ColoredPiece {
            color: color_of(piece.owner)?,
            kind: piece.kind,
        }))
    }

    /// [`perft_keeping_duplicates`](super::perft_keeping_duplicates) of the
    /// position.
    fn perft_keeping_duplicates(&self, depth: u32, threads: usize, hash_mb: usize) -> Option<u64> {
        Some(super::perft_keeping_duplicates(
            self.position(),
            depth,
            threads,
            hash_mb,
        ))
    }

    fn player_name(&self, player: Player) -> &'static str {
        match color_of(player) {
            Some(Color::White) => "White",
            Some(Color::Black) => "Black",
            None => "",
        }
    }

    fn move_text(&self, mv: &Move) -> String {
        self.position().move_text_in(mv, self.notation())
    }

    /// A game of the same rules from a FEN in their notation.
    fn read_position(&self, text: &str) -> Result<Draughts, crate::PositionError> {
        let notation = self.notation();
        let start = Position::from_fen_in(text.trim(), notation)
            .map_err(|err| crate::PositionError::Invalid(fen_error_text(&err, notation)))?;
        Ok(Draughts::new(start.with_rules(self.position().rules())))
    }

    fn position_text(&self) -> String {
        self.position().fen_in(self.notation())
    }

    fn diagram(&self) -> String {
        self.position().diagram_in(self.notation())
    }

    fn hash(&self) -> u64 {
        self.position().hash()
    }

    fn places(&self) -> Vec<Option<u8>> {
        match outcome_of(self.status(), self.position()) {
            Some(outcome) => outcome.places.into_iter().map(Some).collect(),
            None => vec![None, None],
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        outcome_of(self.status(), self.position())
    }

    fn perft_until(&self, depth: u32, threads: usize, stop: &AtomicBool) -> Option<u64> {
        perft_parallel_until(self.position(), depth, threads, stop)
    }

    fn perft_hashed_until(
        &self,
        depth: u32,
        threads: usize,
        hash_mb: usize,
        stop: &AtomicBool,
    ) -> Option<u64> {
        perft_hashed_until(self.position(), depth, threads, hash_mb, stop)
    }

    fn divide_until(&self, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>> {
        let position = self.position();
        let rows = divide_until(position, depth, stop)?;
        Some(
            rows.into_iter()
                .map(|(mv, n)| (position.move_text(&mv), n))
                .collect(),
        )
    }
}
