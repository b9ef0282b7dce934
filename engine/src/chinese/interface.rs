//! Chinese checkers (every variant and player count) behind the
//! game-neutral [`crate::Game`] interface.

use std::sync::atomic::AtomicBool;

use crate::board::{
    Board, BoardShape, MoveAnatomy, MoveKind, Piece, PieceKind, PlayedTurn, Player, PlayerStatus,
    Point, PointInfo, TurnAction,
};
use crate::game::{self, GameKind, IllegalMove, IllegalReason, Outcome, PlayError};

use super::perft::{divide_until, perft_hashed_until, perft_parallel_until};
use super::{format_path, parse_path, Checkers, CheckersError, EndReason};
use super::{Cell, Engine, Move, PlayerState, TextError, Turn, Variant};

/// A path of cells taken apart: a single step to a neighbour, or jumps.
fn anatomy_of(path: &[Cell]) -> MoveAnatomy {
    let (from, to) = match (path.first(), path.last()) {
        (Some(&from), Some(&to)) => (from, to),
        _ => (Cell::from_u8(0), Cell::from_u8(0)),
    };
    let step = path.len() == 2 && from.hex_distance(to) == 1;
    let point = |cell: Cell| Point::of(cell.index());
    MoveAnatomy {
        from: point(from),
        to: point(to),
        path: path.iter().copied().map(point).collect(),
        captured: Vec::new(),
        promotes: false,
        kind: if step { MoveKind::Step } else { MoveKind::Jump },
    }
}

fn play_error(err: CheckersError) -> PlayError {
    match err {
        CheckersError::GameOver => PlayError::GameOver,
        CheckersError::NotPlaying(p) => PlayError::NotPlaying(Player::of(p)),
        CheckersError::CannotPass(n) => PlayError::CannotPass(n),
        CheckersError::Illegal(ref text) => PlayError::Illegal(IllegalMove::new(
            IllegalReason::NotLegal,
            text.clone(),
            err.to_string(),
        )),
        other => PlayError::Notation(other.to_string()),
    }
}

impl From<TextError> for crate::PositionError {
    fn from(err: TextError) -> crate::PositionError {
        crate::PositionError::Invalid(err.to_string())
    }
}

impl Checkers {
    /// Reads a move written as a full path or as its two ends and checks
    /// it: the move and the path to record (the one written, or for two
    /// ends the path the rules find).
    fn legal_path(&self, text: &str) -> Result<(Move, Vec<Cell>), PlayError> {
        let t = text.trim();
        let cells = parse_path(t).map_err(play_error)?;
        let (&from, &to) = cells
            .first()
            .zip(cells.last())
            .ok_or_else(|| play_error(CheckersError::Syntax(t.to_string())))?;
        let mv = Move::new(from, to);
        let path = if cells.len() == 2 {
            self.pos.path(&mv)
        } else {
            self.pos.is_legal_path(&cells).then_some(cells)
        };
        path.map(|path| (mv, path))
            .ok_or_else(|| play_error(CheckersError::Illegal(t.to_string())))
    }
}

impl game::Game for Checkers {
    type Move = Move;
    type Engine = Engine;

    /// The rules played: the Japanese variant with 4 or more players plays
    /// by the international rules and says so.
    fn kind(&self) -> GameKind {
        match self.rules().effective_variant() {
            Variant::International => GameKind::Chinese,
            Variant::Japanese => GameKind::Japanese,
        }
    }

    fn player_count(&self) -> usize {
        self.states.len()
    }

    fn to_move(&self) -> Option<Player> {
        self.end.is_none().then(|| Player::of(self.pos.to_move()))
    }

    /// None when the game is over or the player to move must pass.
    fn legal_moves(&self) -> Vec<Move> {
        if self.end.is_some() {
            Vec::new()
        } else {
            self.pos.legal_moves().to_vec()
        }
    }

    fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        if self.end.is_some() {
            return Err(PlayError::GameOver);
        }
        let path = self
            .pos
            .path(&mv)
            .ok_or_else(|| play_error(CheckersError::Illegal(mv.to_string())))?;
        self.save();
        self.apply(mv, path);
        Ok(())
    }

    /// Allowed only when the player to move has no legal move (the game
    /// passes automatically for the players after a turn, so this is
    /// needed only for a game read from a text or position where the
    /// player to move is stuck).
    fn pass(&mut self) -> Result<(), PlayError> {
        if self.end.is_some() {
            return Err(PlayError::GameOver);
        }
        let n = self.pos.legal_moves().len();
        if n > 0 {
            return Err(play_error(CheckersError::CannotPass(n)));
        }
        self.save();
        let p = self.pos.to_move();
        self.history.push(Turn::Pass { player: p });
        self.ply += 1;
        self.next_turn(p);
        Ok(())
    }

    /// With 2 players the rival wins; with 3 or more `player` takes the
    /// last free place, the pieces stay and the turns are skipped.
    fn resign(&mut self, player: Player) -> Result<(), PlayError> {
        if self.end.is_some() {
            return Err(PlayError::GameOver);
        }
        let p = player.index();
        if self.states.get(p) != Some(&PlayerState::Playing) {
            return Err(play_error(CheckersError::NotPlaying(p)));
        }
        self.save();
        let resigned = self.count(|s| matches!(s, PlayerState::Resigned { .. }));
        let place = (self.states.len() - resigned) as u8;
        self.states[p] = PlayerState::Resigned { place };
        self.history.push(Turn::Resign { player: p });
        self.ply += 1;
        if self.settle_last(EndReason::AllPlaced) {
            return Ok(());
        }
        if self.pos.to_move() == p {
            self.next_turn(p);
        }
        Ok(())
    }

    /// The players still playing share the next free place
    /// ([`EndReason::Adjudicated`]); [`undo`](game::Game::undo) takes the
    /// adjudication back (and only it), as in Spanish draughts.
    ///
    /// ```
    /// use damas::chinese::{EndReason, Checkers, PlayerState, Rules};
    /// use damas::{Game, Player};
    /// let mut g = Checkers::new(Rules::for_players(3));
    /// g.resign(Player::new(2).unwrap()).unwrap();
    /// g.adjudicate_draw();
    /// assert_eq!(g.end_reason(), Some(EndReason::Adjudicated));
    /// assert_eq!(g.player_states()[0], PlayerState::Placed { place: 1 });
    /// assert_eq!(g.player_states()[2], PlayerState::Resigned { place: 3 });
    /// assert!(g.outcome().unwrap().is_draw());
    /// ```
    fn adjudicate_draw(&mut self) {
        if self.end.is_none() {
            self.save();
            self.draw_remaining(EndReason::Adjudicated);
        }
    }

    /// Takes back the last move, pass or resignation with the automatic
    /// passes that followed it, restoring the position, the players'
    /// states, the counters, the progress records, the record and the end.
    /// A new game, or one read from a text, starts with no turn to take
    /// back.
    ///
    /// ```
    /// use damas::chinese::{Checkers, Rules};
    /// use damas::Game;
    /// let mut g = Checkers::new(Rules::default());
    /// g.play_text("e4-e5").unwrap();
    /// assert!(g.undo());
    /// assert_eq!(g, Checkers::new(Rules::default()));
    /// assert!(!g.undo());
    /// ```
    fn undo(&mut self) -> bool {
        self.restore()
    }

    fn parse_move(&self, text: &str) -> Result<Move, PlayError> {
        if self.end.is_some() {
            return Err(PlayError::GameOver);
        }
        self.legal_path(text).map(|(mv, _)| mv)
    }

    /// A move is a full path (`e1-e3-g5`) or just its two ends (`e1-g5`);
    /// the path as written (a chain may reach the same point by several
    /// paths) is kept in the record and is the text returned.
    fn play_text(&mut self, text: &str) -> Result<String, PlayError> {
        if self.end.is_some() {
            return Err(PlayError::GameOver);
        }
        let t = text.trim();
        let word = t.to_ascii_lowercase();
        match word.as_str() {
            "pass" => {
                self.pass()?;
                return Ok(word);
            }
            "resign" => {
                self.resign(Player::of(self.pos.to_move()))?;
                return Ok(word);
            }
            _ => {}
        }
        let (mv, path) = self.legal_path(t)?;
        let played = format_path(&path);
        self.save();
        self.apply(mv, path);
        Ok(played)
    }

    fn moves_from(&self, point: Point) -> Vec<Move> {
        game::Game::legal_moves(self)
            .into_iter()
            .filter(|mv| mv.from().index() == point.index())
            .collect()
    }

    /// The 121 cells in index order with their file and rank as axial
    /// coordinates; each seated player's starting camp (the ten-point
    /// triangle, or the 15-point camp of the Japanese variant) and goal.
    fn board(&self) -> Board {
        let seats = self.rules().seats();
        let japanese = self.rules().effective_variant() == Variant::Japanese;
        let owner = |cells: &dyn Fn(usize) -> super::Mask, cell: Cell| {
            (0..seats.len())
                .find(|&p| cells(p).contains(cell))
                .map(Player::of)
        };
        let camp = |p: usize| {
            if japanese {
                seats[p].camp()
            } else {
                seats[p].cells()
            }
        };
        let goal = |p: usize| self.pos.goal(p);
        let points = Cell::all()
            .map(|cell| PointInfo {
                name: cell.to_string(),
                x: i32::from(cell.x()),
                y: i32::from(cell.y()),
                camp: owner(&camp, cell),
                goal: owner(&goal, cell),
                promotion: None,
            })
            .collect();
        Board {
            shape: BoardShape::Star,
            points,
        }
    }

    fn point(&self, name: &str) -> Result<Point, PlayError> {
        name.trim()
            .parse::<Cell>()
            .map(|cell| Point::of(cell.index()))
            .map_err(|err| PlayError::BadSquare(err.to_string()))
    }

    fn point_name(&self, point: Point) -> String {
        Cell::from_index(point.index())
            .map(|cell| cell.to_string())
            .unwrap_or_default()
    }

    fn piece_at(&self, point: Point) -> Option<Piece> {
        let (owner, king) = self.pos.piece_at(Cell::from_index(point.index())?)?;
        Some(Piece {
            owner: Player::of(owner),
            kind: if king {
                PieceKind::King
            } else {
                PieceKind::Man
            },
        })
    }

    fn anatomy(&self, mv: &Move) -> MoveAnatomy {
        let path = self
            .pos
            .path(mv)
            .unwrap_or_else(|| vec![mv.from(), mv.to()]);
        anatomy_of(&path)
    }

    fn player_status(&self, player: Player) -> Option<PlayerStatus> {
        Some(match *self.states.get(player.index())? {
            PlayerState::Playing => PlayerStatus::Playing,
            PlayerState::Finished { place } => PlayerStatus::Finished { place },
            PlayerState::Resigned { place } => PlayerStatus::Resigned { place },
            PlayerState::Placed { place } => PlayerStatus::Out { place },
        })
    }

    fn first_player(&self) -> Player {
        Player::of(self.first)
    }

    fn turn_count(&self) -> usize {
        self.history.len()
    }

    fn turns(&self) -> Vec<PlayedTurn> {
        self.history
            .iter()
            .map(|turn| match turn {
                Turn::Move { player, path, .. } => PlayedTurn {
                    player: Player::of(*player),
                    text: format_path(path),
                    action: TurnAction::Move(anatomy_of(path)),
                },
                Turn::Pass { player } => PlayedTurn {
                    player: Player::of(*player),
                    text: "pass".into(),
                    action: TurnAction::Pass,
                },
                Turn::Resign { player } => PlayedTurn {
                    player: Player::of(*player),
                    text: "resign".into(),
                    action: TurnAction::Resign,
                },
            })
            .collect()
    }

    /// The colour of each seat of the star, as the web board and the
    /// terminal draw them.
    /// `1`..`6` for the pieces of `p1`..`p6`, `A`..`F` for their kings, as
    /// [`Position::diagram`](super::Position::diagram) draws them.
    fn diagram_symbol(&self, piece: Piece) -> Option<char> {
        let seat = piece.owner.index();
        if seat >= self.player_count() {
            return None;
        }
        super::diagram::symbol(seat, piece.kind == PieceKind::King)
    }

    fn player_name(&self, player: Player) -> &'static str {
        const NAMES: [&str; 6] = ["Red", "Blue", "Green", "Yellow", "Purple", "Teal"];
        NAMES.get(player.index()).copied().unwrap_or("")
    }

    /// The full path of a legal move of the player to move (`e1-e3-g5`),
    /// or just `from-to` if it is not legal here.
    fn move_text(&self, mv: &Move) -> String {
        match self.pos.path(mv) {
            Some(p) => format_path(&p),
            None => mv.to_string(),
        }
    }

    /// Each move is played by the owner of its piece: the multi-player
    /// searches' lines skip the players they do not model.
    fn line_text(&self, line: &[Move]) -> Vec<String> {
        super::search::line_text(self.position(), line)
    }

    fn read_position(&self, text: &str) -> Result<Checkers, crate::PositionError> {
        Ok(Checkers::from_text_with_defaults(text, self.rules())?)
    }

    fn position_text(&self) -> String {
        self.to_text()
    }

    /// [`Position::diagram`](super::Position::diagram) followed by a line
    /// naming the player to move (or the places when the game is over).
    fn diagram(&self) -> String {
        let mut s = self.pos.diagram();
        if self.end.is_none() {
            s += &format!("to move: {}\n", self.pos.to_move() + 1);
        } else {
            let r: Vec<String> = self
                .ranking()
                .iter()
                .map(|(p, st)| format!("{}:{}", p + 1, st.place().unwrap_or(0)))
                .collect();
            s += &format!("over; places {}\n", r.join(" "));
        }
        s
    }

    /// Zobrist hash of the position (pieces and side to move).
    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn places(&self) -> Vec<Option<u8>> {
        self.states.iter().map(|state| state.place()).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        let reason = self.end?;
        let places = self
            .states
            .iter()
            .map(|state| state.place())
            .collect::<Option<Vec<u8>>>()?;
        Some(Outcome { places, reason })
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
        let rows = divide_until(self.position(), depth, stop)?;
        Some(
            rows.into_iter()
                .map(|(mv, n)| {
                    let text = mv
                        .map_or_else(|| "pass".to_string(), |mv| game::Game::move_text(self, &mv));
                    (text, n)
                })
                .collect(),
        )
    }
}
