//! The front ends' view of a game through the interface alone: the board's
//! points, the pieces on them, a move's anatomy, each player's status, the
//! turns played and the registry of games.

use damas::chinese::Rules;
use damas::{
    AnyGame, BoardShape, Game, GameKind, GameSpec, MoveKind, PieceKind, PlayError, Player,
    PlayerStatus, Point, SpecError, TurnAction,
};

fn names(game: &AnyGame, points: &[Point]) -> Vec<String> {
    points.iter().map(|&p| game.point_name(p)).collect()
}

fn spanish(fen: &str) -> AnyGame {
    AnyGame::from_text(&GameSpec::default(), fen).expect("a valid FEN")
}

fn player(index: usize) -> Player {
    Player::new(index).expect("a seat")
}

#[test]
fn the_draughts_board_has_32_squares_with_promotion_rows_and_camps() {
    let game = AnyGame::new(&GameSpec::default());
    let board = game.board();
    assert_eq!(
        board.shape,
        BoardShape::Squares {
            width: 8,
            height: 8
        }
    );
    assert_eq!(board.points.len(), 32);
    // Square 1 is h1 (file 7, rank 0), square 32 is a8.
    assert_eq!(
        (
            board.points[0].name.as_str(),
            board.points[0].x,
            board.points[0].y
        ),
        ("1", 7, 0)
    );
    assert_eq!(
        (
            board.points[31].name.as_str(),
            board.points[31].x,
            board.points[31].y
        ),
        ("32", 0, 7)
    );
    // White (p1) promotes on 29-32, Black on 1-4.
    let promoting = |p: usize| -> Vec<&str> {
        board
            .points
            .iter()
            .filter(|info| info.promotion == Player::new(p))
            .map(|info| info.name.as_str())
            .collect()
    };
    assert_eq!(promoting(0), ["29", "30", "31", "32"]);
    assert_eq!(promoting(1), ["1", "2", "3", "4"]);
    assert_eq!(board.points[11].camp, Player::new(0));
    assert_eq!(board.points[20].camp, Player::new(1));
    assert_eq!(board.points[16].camp, None);
    assert_eq!(board.point("12"), game.point("12").ok());
}

#[test]
fn the_star_has_121_points_with_camps_and_goals_of_the_seated_players() {
    let game = AnyGame::new(&GameSpec::Chinese(Rules::for_players(2)));
    let board = game.board();
    assert_eq!(board.shape, BoardShape::Star);
    assert_eq!(board.points.len(), 121);
    let camp = |p: usize| {
        board
            .points
            .iter()
            .filter(|i| i.camp == Player::new(p))
            .count()
    };
    let goal = |p: usize| {
        board
            .points
            .iter()
            .filter(|i| i.goal == Player::new(p))
            .count()
    };
    assert_eq!((camp(0), goal(0), camp(1), goal(1)), (10, 10, 10, 10));
    assert_eq!(camp(2), 0, "only seated players have camps");
    // p1's goal is p2's camp.
    for info in &board.points {
        assert_eq!(
            info.goal == Player::new(0),
            info.camp == Player::new(1),
            "{}",
            info.name
        );
    }
    let japanese = AnyGame::new(&GameSpec::Chinese(Rules {
        variant: damas::chinese::Variant::Japanese,
        ..Rules::for_players(2)
    }));
    let board = japanese.board();
    let camp = board
        .points
        .iter()
        .filter(|i| i.camp == Player::new(0))
        .count();
    assert_eq!(camp, 15, "the Japanese camp has 15 points");
}

#[test]
fn pieces_on_points_have_an_owner_and_a_kind() {
    let game = spanish("W:WK1,5:B32");
    let at = |name: &str| game.piece_at(game.point(name).expect("a square"));
    assert_eq!(
        at("1").map(|p| (p.owner, p.kind)),
        Some((player(0), PieceKind::King))
    );
    assert_eq!(
        at("5").map(|p| (p.owner, p.kind)),
        Some((player(0), PieceKind::Man))
    );
    assert_eq!(
        at("32").map(|p| (p.owner, p.kind)),
        Some((player(1), PieceKind::Man))
    );
    assert_eq!(at("20"), None);

    let star = AnyGame::new(&GameSpec::Chinese(Rules {
        variant: damas::chinese::Variant::Japanese,
        ..Rules::for_players(2)
    }));
    let kings: Vec<(String, Player)> = star
        .board()
        .points
        .iter()
        .enumerate()
        .filter_map(|(i, _)| {
            let point = Point::new(i)?;
            let piece = star.piece_at(point)?;
            (piece.kind == PieceKind::King).then(|| (star.point_name(point), piece.owner))
        })
        .collect();
    assert_eq!(kings.len(), 2, "one king each: {kings:?}");
}

#[test]
fn a_man_capture_chain_lists_its_landings_and_victims_in_order() {
    let game = spanish("W:W11:B15,23,32");
    let mv = game.legal_moves()[0];
    let anatomy = game.anatomy(&mv);
    assert_eq!(game.move_text(&mv), "11x27");
    assert_eq!(names(&game, &anatomy.path), ["11", "20", "27"]);
    assert_eq!(names(&game, &anatomy.captured), ["15", "23"]);
    assert_eq!(anatomy.kind, MoveKind::Capture);
    assert!(!anatomy.promotes);
}

#[test]
fn a_flying_king_chain_finds_the_landings_that_continue() {
    let game = spanish("W:WK1:B14,26,27");
    let mut chains: Vec<(Vec<String>, Vec<String>)> = game
        .legal_moves()
        .iter()
        .map(|mv| {
            let a = game.anatomy(mv);
            (names(&game, &a.path), names(&game, &a.captured))
        })
        .collect();
    chains.sort();
    assert_eq!(
        chains,
        [
            (
                vec!["1".into(), "23".into(), "30".into(), "17".into()],
                vec!["14".into(), "27".into(), "26".into()]
            ),
            (
                vec!["1".into(), "23".into(), "30".into(), "21".into()],
                vec!["14".into(), "27".into(), "26".into()]
            ),
        ]
    );
}

#[test]
fn a_capture_onto_the_last_row_promotes_and_a_step_is_a_step() {
    let game = spanish("W:W23:B26,27");
    let anatomy = game.anatomy(&game.legal_moves()[0]);
    assert_eq!(names(&game, &anatomy.path), ["23", "30"]);
    assert!(anatomy.promotes);
    let start = AnyGame::new(&GameSpec::default());
    let mv = start.parse_move("11-15").expect("legal");
    let anatomy = start.anatomy(&mv);
    assert_eq!((anatomy.kind, anatomy.captured.len()), (MoveKind::Step, 0));
    assert_eq!(names(&start, &anatomy.path), ["11", "15"]);
}

#[test]
fn a_chinese_jump_chain_has_its_full_path() {
    let mut game = AnyGame::new(&GameSpec::Chinese(Rules::for_players(2)));
    let step = game.parse_move("e4-e5").expect("legal");
    assert_eq!(game.anatomy(&step).kind, MoveKind::Step);
    game.play(step).expect("legal");
    let jumps: Vec<_> = game
        .legal_moves()
        .iter()
        .map(|mv| game.anatomy(mv))
        .filter(|a| a.kind == MoveKind::Jump)
        .collect();
    assert!(!jumps.is_empty());
    for a in &jumps {
        assert_eq!(a.path.first(), Some(&a.from));
        assert_eq!(a.path.last(), Some(&a.to));
        assert!(a.path.len() >= 2 && a.captured.is_empty() && !a.promotes);
    }
}

#[test]
fn moves_from_a_point_and_the_movable_points() {
    let game = spanish("W:W9,14:B18");
    assert_eq!(
        names(&game, &game.movable_points()),
        ["14"],
        "a capture is mandatory"
    );
    let nine = game.point("9").expect("a square");
    assert!(game.moves_from(nine).is_empty());
    assert!(matches!(game.point("33"), Err(PlayError::BadSquare(_))));
    assert!(matches!(game.point("e4"), Err(PlayError::BadSquare(_))));
    let star = AnyGame::new(&GameSpec::Chinese(Rules::for_players(2)));
    assert!(matches!(star.point("12"), Err(PlayError::BadSquare(_))));
    assert_eq!(star.point_name(star.point(" E4 ").expect("a cell")), "e4");
}

#[test]
fn statuses_turns_and_first_player_through_the_interface() {
    let mut game = AnyGame::new(&GameSpec::Chinese(Rules::for_players(3)));
    assert_eq!(game.first_player(), player(0));
    game.play_text("e4-e5").expect("legal");
    game.resign(player(1)).expect("playing");
    assert_eq!(game.turn_count(), 2);
    let turns = game.turns();
    assert_eq!(
        (turns[0].player, turns[0].text.as_str()),
        (player(0), "e4-e5")
    );
    assert!(matches!(turns[0].action, TurnAction::Move(_)));
    assert_eq!(
        (turns[1].player, &turns[1].action),
        (player(1), &TurnAction::Resign)
    );
    assert_eq!(
        game.player_statuses(),
        [
            PlayerStatus::Playing,
            PlayerStatus::Resigned { place: 3 },
            PlayerStatus::Playing
        ]
    );
    assert_eq!(game.player_status(player(5)), None);

    let mut draughts = AnyGame::new(&GameSpec::default());
    draughts.play_text("11-15").expect("legal");
    draughts.resign(player(1)).expect("playing");
    assert_eq!(draughts.turn_count(), 2);
    assert_eq!(draughts.turns()[1].action, TurnAction::Resign);
    assert_eq!(
        draughts.player_statuses(),
        [
            PlayerStatus::Out { place: 1 },
            PlayerStatus::Resigned { place: 2 }
        ]
    );
    assert_eq!(
        (
            draughts.player_name(player(0)),
            draughts.player_name(player(1))
        ),
        ("White", "Black")
    );
    assert_eq!(game.player_name(player(0)), "Red");
}

#[test]
fn the_registry_names_every_game_once() {
    for kind in GameKind::ALL {
        assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
        assert_eq!(
            kind.to_string().to_uppercase().parse::<GameKind>(),
            Ok(kind)
        );
        let players = *kind.players().start();
        let spec =
            GameSpec::from_kind(kind, players.max(kind.default_players()), &Rules::default())
                .expect("a game");
        assert_eq!(AnyGame::new(&spec).kind(), kind);
    }
    assert!("draughts".parse::<GameKind>().is_err());
    assert_eq!(
        GameSpec::from_kind(GameKind::Spanish, 3, &Rules::default()),
        Err(SpecError::Players {
            kind: GameKind::Spanish,
            players: 3
        })
    );
    assert!(GameSpec::from_kind(GameKind::Chinese, 7, &Rules::default()).is_err());
    assert!(GameSpec::from_kind(GameKind::Chinese, 0, &Rules::default()).is_err());
    let spec = GameSpec::from_kind(GameKind::Japanese, 3, &Rules::ccerl()).expect("a game");
    assert_eq!((spec.kind(), spec.players()), (GameKind::Japanese, 3));
}

#[test]
fn every_capture_of_long_play_outs_has_a_path_through_each_victim() {
    let mut captures = 0;
    for seed in 0..40usize {
        let mut game = AnyGame::new(&GameSpec::default());
        for ply in 0..160usize {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            for mv in &moves {
                let a = game.anatomy(mv);
                if a.kind == MoveKind::Capture {
                    captures += 1;
                    assert_eq!(
                        a.path.len(),
                        a.captured.len() + 1,
                        "{}",
                        game.position_text()
                    );
                    assert_eq!((a.path[0], a.path[a.path.len() - 1]), (a.from, a.to));
                }
            }
            let pick = moves[(seed * 7919 + ply * 104_729) % moves.len()];
            game.play(pick).expect("legal");
        }
    }
    assert!(captures > 500, "only {captures} captures seen");
}

/// The part of each diagram line that shows board points: after the row
/// number of the lines that start with one.
fn board_rows(diagram: &str) -> String {
    let mut rows = String::new();
    for line in diagram.lines() {
        let rest = line.trim_start();
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 {
            rows.push_str(&rest[digits..]);
            rows.push('\n');
        }
    }
    rows
}

#[test]
fn the_diagram_draws_each_piece_with_its_symbol_in_the_board_rows() {
    let mut games = vec![
        spanish("W:WK9,18,22:BK30,5,13"),
        AnyGame::new(&GameSpec::default()),
    ];
    for players in 1..=6 {
        games.push(AnyGame::new(&GameSpec::Chinese(Rules::for_players(
            players,
        ))));
    }
    games.push(AnyGame::new(
        &GameSpec::from_kind(GameKind::Japanese, 3, &Rules::default()).expect("a game"),
    ));
    for game in &games {
        let rows = board_rows(&game.diagram());
        let board = game.board();
        for owner in Player::all(game.player_count()) {
            for kind in [PieceKind::Man, PieceKind::King] {
                let piece = damas::Piece { owner, kind };
                let symbol = game.diagram_symbol(piece).expect("a seated player");
                let on_board = (0..board.points.len())
                    .filter_map(Point::new)
                    .filter(|&p| game.piece_at(p) == Some(piece))
                    .count();
                assert_eq!(
                    rows.matches(symbol).count(),
                    on_board,
                    "{piece:?} as {symbol} in\n{}",
                    game.diagram()
                );
            }
        }
        let absent = Player::new(game.player_count()).map(|owner| damas::Piece {
            owner,
            kind: PieceKind::Man,
        });
        assert_eq!(absent.and_then(|piece| game.diagram_symbol(piece)), None);
    }
}

#[test]
fn duplicate_capture_orders_are_counted_only_where_a_game_has_them() {
    // The king on 9 takes 5, 15, 28 and 13 round a ring: one move, two
    // orders.
    let ring = spanish("W:WK9:B5,13,15,28");
    assert_eq!(ring.perft(1, 1), 1);
    assert_eq!(ring.perft_keeping_duplicates(1, 1, 1), Some(2));
    let start = AnyGame::new(&GameSpec::default());
    assert_eq!(
        start.perft_keeping_duplicates(5, 2, 1),
        Some(start.perft(5, 1))
    );
    let star = AnyGame::new(&GameSpec::Chinese(Rules::for_players(2)));
    assert_eq!(star.perft_keeping_duplicates(2, 1, 1), None);
}

#[test]
fn a_text_of_the_other_variant_names_both_variants() {
    let japanese_four =
        GameSpec::from_kind(GameKind::Japanese, 4, &Rules::default()).expect("a game");
    let international = AnyGame::new(
        &GameSpec::from_kind(GameKind::Chinese, 4, &Rules::default()).expect("a game"),
    )
    .position_text();
    assert_eq!(
        AnyGame::from_text(&japanese_four, &international).map(|g| g.kind()),
        Err(damas::PositionError::WrongVariant {
            wanted: GameKind::Japanese,
            found: GameKind::Chinese
        })
    );
}

#[test]
fn only_spanish_draughts_fixes_the_opener() {
    for kind in GameKind::ALL {
        let spec = GameSpec::from_kind(kind, 2, &Rules::default()).expect("a game");
        let second = player(1);
        let opener = AnyGame::with_first_player(&spec, second).first_player();
        assert_eq!(kind.fixed_opener(), opener != second, "{kind}");
    }
}
