//! Writing finished games in the format of their game (PDN for Spanish
//! draughts, one game per line for Chinese checkers; docs/NOTATION.md):
//! the runner fills a [`damas::record::GameRecord`] and the library writes
//! it.

use damas::options::Options;
use damas::record::GameRecord;

use super::referee::{Ending, RefereedGame};

/// Text of one ending, for records and reports.
pub fn ending_text(ending: &Ending) -> String {
    match ending {
        Ending::Rules(reason) => reason.clone(),
        Ending::Forfeit { seat, why } => format!("p{} forfeits: {why}", seat + 1),
        Ending::Adjudicated => "adjudicated draw (ply cap)".into(),
    }
}

/// The record of game `index` (0-based) in the format of its game.
pub fn format(record: &RefereedGame, index: usize, names: &[String], options: &Options) -> String {
    let endings: Vec<String> = record.endings.iter().map(ending_text).collect();
    GameRecord {
        event: "damas match".into(),
        date: None,
        game: index + 1,
        spec: options.spec().unwrap_or_default(),
        seats: record.seats.iter().map(|&e| names[e].clone()).collect(),
        start: record.opening.start.clone(),
        moves: record.moves.clone(),
        places: record.places.clone(),
        ending: endings.join("; "),
    }
    .text()
}

/// A Chinese checkers record line read back: the fields by key.
#[cfg(test)]
pub fn parse_line(text: &str) -> Option<Vec<(String, String)>> {
    text.split('\t')
        .map(|field| {
            field
                .split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::openings::Opening;
    use damas::{AnyGame, Game};

    fn record(moves: &[&str], places: Vec<u32>, start: Option<&str>) -> RefereedGame {
        RefereedGame {
            seats: vec![1, 0],
            opening: Opening {
                start: start.map(String::from),
                moves: Vec::new(),
            },
            moves: moves.iter().map(|m| (*m).to_string()).collect(),
            places,
            endings: vec![Ending::Rules("no moves".into())],
        }
    }

    /// The options of a match of `game`.
    fn options(game: &str) -> Options {
        let mut options = Options::default();
        options.set("Game", game).expect("a game");
        options
    }

    fn pdn(record: &RefereedGame, index: usize, names: &[String]) -> String {
        format(record, index, names, &options("spanish"))
    }

    #[test]
    fn pdn_has_tags_numbers_and_result() {
        let names = vec!["a".to_string(), "b".to_string()];
        let text = pdn(
            &record(&["11-15", "22-18", "15x22"], vec![2, 1], None),
            0,
            &names,
        );
        assert!(text.contains("[White \"b\"]"), "{text}");
        assert!(text.contains("[Black \"a\"]"), "{text}");
        assert!(text.contains("[GameType \"24\"]"));
        assert!(
            text.starts_with("[Event \"damas match\"]\n[Round \"1\"]\n"),
            "{text}"
        );
        assert!(text.contains("[Termination \"no moves\"]"), "{text}");
        assert!(text.contains("1. 11-15 22-18 2. 15x22 0-1"), "{text}");
        let resigned = pdn(&record(&["11-15", "resign"], vec![1, 2], None), 0, &names);
        assert!(resigned.contains("\n1. 11-15 1-0\n"), "{resigned}");
        let black_first = pdn(
            &record(&["22-18", "11-15"], vec![1, 1], Some("B:W1-12:B21-32")),
            0,
            &names,
        );
        assert!(
            black_first.contains("1... 22-18 2. 11-15 1/2-1/2"),
            "{black_first}"
        );
    }

    #[test]
    fn pdn_records_read_back_with_the_library() {
        let names = vec!["e1 \"quoted\" \\ name".to_string(), "b".to_string()];
        let mut long = record(&[], vec![1, 2], None);
        let mut game = AnyGame::new(&options("spanish").spec().expect("a game"));
        // Enough plies for line breaks, every move in canonical text.
        for _ in 0..40 {
            let Some(text) = game.legal_moves_text().into_iter().next() else {
                break;
            };
            long.moves.push(game.play_text(&text).expect("legal"));
        }
        let from_fen = record(&["22x13"], vec![2, 1], Some("B:W18,K3:BK30,22"));
        let text = pdn(&long, 0, &names) + &pdn(&from_fen, 1, &names);
        let games = damas::pdn::read_games(&text).expect("reads");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves(), &long.moves[..]);
        assert_eq!(games[0].tag("White"), Some("b"));
        assert_eq!(games[0].tag("Black"), Some(names[0].as_str()));
        assert_eq!(games[0].result(), Some("1-0"));
        assert_eq!(games[0].tag("Result"), Some("1-0"));
        assert_eq!(
            damas::Game::position_text(&games[0].replay().expect("legal")),
            game.position_text()
        );
        assert_eq!(games[1].tag("FEN"), Some("B:W18,K3:BK30,22"));
        assert_eq!(games[1].moves(), ["22x13"]);
        assert_eq!(games[1].tag("Round"), Some("2"));
        assert!(games[1].replay().is_ok());
    }

    #[test]
    fn chinese_line_round_trips_its_fields() {
        let names = vec!["a".to_string(), "b,\tc".to_string()];
        let text = format(
            &record(&["e1-e3"], vec![1, 2], None),
            4,
            &names,
            &options("chinese"),
        );
        let text = text.strip_suffix('\n').expect("one line");
        let fields = parse_line(text).expect("parses");
        assert_eq!(fields[0], ("game".into(), "5".into()));
        assert!(fields.contains(&("moves".into(), "e1-e3".into())));
        assert!(fields.contains(&("places".into(), "1,2".into())));
        assert!(fields.contains(&("engines".into(), "b  c,a".into())));
        assert!(fields.contains(&("type".into(), "chinese".into())));
        assert!(fields.contains(&("ending".into(), "no moves".into())));
    }
}
