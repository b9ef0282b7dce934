//! Game records in the formats of `docs/NOTATION.md` ("Game records"): PDN
//! with `[GameType "24"]` for Spanish draughts and the one-line
//! tab-separated record for Chinese checkers. Front ends (the match runner,
//! the web board) gather the fields; the text is written here once.

use crate::game::GameKind;
use crate::GameSpec;

/// The PDN result token of a two-player game from the places of White and
/// Black (`1-0`, `0-1`, `1/2-1/2`), or `*` while undecided (any other
/// number of places).
///
/// ```
/// use damas::record::pdn_result;
/// assert_eq!(pdn_result(&[1, 2]), "1-0");
/// assert_eq!(pdn_result(&[1, 1]), "1/2-1/2");
/// assert_eq!(pdn_result(&[]), "*");
/// ```
pub fn pdn_result(places: &[u32]) -> &'static str {
    match places {
        [a, b] if a < b => "1-0",
        [a, b] if a > b => "0-1",
        [_, _] => "1/2-1/2",
        _ => "*",
    }
}

/// A PDN tag value with `\` and `"` escaped.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One Spanish draughts game as PDN: the tags in the order given (values
/// escaped), a blank line, then the numbered move text (`1. 11-14 22-19 2.
/// ...`, starting `1...` when Black moved first) ending with `result`,
/// wrapped at 79 columns, and a blank line. A `resign` in `moves` is left
/// out: the result tells it.
///
/// ```
/// use damas::record::pdn_game;
/// let moves = ["11-15".to_string(), "22-18".to_string()];
/// let text = pdn_game(&[("GameType", "24")], false, &moves, "*");
/// assert_eq!(text, "[GameType \"24\"]\n\n1. 11-15 22-18 *\n\n");
/// ```
pub fn pdn_game(
    tags: &[(&str, &str)],
    black_starts: bool,
    moves: &[String],
    result: &str,
) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push('\n');
    let mut line = String::new();
    let offset = usize::from(black_starts);
    // PDN has no word for a resignation: the result and the Termination
    // tag tell it.
    let moves = moves.iter().filter(|mv| mv.as_str() != "resign");
    for (i, mv) in moves.enumerate() {
        let ply = i + offset;
        if ply % 2 == 0 {
            line.push_str(&format!("{}. ", ply / 2 + 1));
        } else if i == 0 {
            line.push_str(&format!("{}... ", ply / 2 + 1));
        }
        line.push_str(mv);
        line.push(' ');
    }
    line.push_str(result);
    out.push_str(&wrap(&line, 79));
    out.push_str("\n\n");
    out
}

fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut current = 0;
    for word in text.split(' ') {
        if current > 0 && current + 1 + word.len() > width {
            out.push('\n');
            current = 0;
        } else if current > 0 {
            out.push(' ');
            current += 1;
        }
        out.push_str(word);
        current += word.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdn_numbers_moves_from_either_side_and_escapes_tags() {
        let moves: Vec<String> = ["22-18", "11-15", "18x11"].map(String::from).to_vec();
        let text = pdn_game(&[("White", "a \"b\"")], true, &moves, "0-1");
        assert_eq!(
            text,
            "[White \"a \\\"b\\\"\"]\n\n1... 22-18 2. 11-15 18x11 0-1\n\n"
        );
    }

    #[test]
    fn pdn_reads_back_through_the_pdn_reader() {
        use crate::game::Game;
        // A long game (line breaks), tags that need escaping, a resign
        // left out of the move text.
        let mut game = crate::spanish::Draughts::default();
        let mut moves = Vec::new();
        for _ in 0..40 {
            let Some(text) = game.legal_moves_text().into_iter().next() else {
                break;
            };
            moves.push(game.play_text(&text).expect("legal"));
        }
        let mut written = moves.clone();
        written.push("resign".into());
        let text = pdn_game(
            &[
                ("White", "a \"b\" \\ c"),
                ("Result", "1-0"),
                ("GameType", "24"),
            ],
            false,
            &written,
            "1-0",
        ) + &pdn_game(
            &[("FEN", "B:W18,K3:BK30,22"), ("GameType", "24")],
            true,
            &["22x13".to_string()],
            "*",
        );
        let games = crate::pdn::read_games(&text).expect("reads");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves(), &moves[..]);
        assert_eq!(games[0].tag("White"), Some("a \"b\" \\ c"));
        assert_eq!(games[0].result(), Some("1-0"));
        assert_eq!(
            games[0].replay().expect("legal").position_text(),
            game.position_text()
        );
        assert_eq!(games[1].moves(), ["22x13"]);
        assert_eq!(
            games[1].replay().expect("legal").position_text(),
            "W:WK3:B13,K30"
        );
    }

    #[test]
    fn long_move_text_wraps_at_79_columns() {
        let moves: Vec<String> = (0..40).map(|_| "11-15".to_string()).collect();
        let text = pdn_game(&[], false, &moves, "*");
        assert!(text.lines().all(|l| l.len() <= 79), "{text}");
        assert!(text.lines().count() > 3);
    }
}

/// One finished (or unfinished) game of any kind, as the front ends gather
/// it; [`GameRecord::text`] writes it in the format of its game, so that no
/// front end chooses the format itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Who wrote the record (`damas match`, `damas serve`): the PDN
    /// `Event` tag.
    pub event: String,
    /// When the game was played, as PDN writes it (`2026.12.03`): the PDN
    /// `Date` tag; `None` writes none.
    pub date: Option<String>,
    /// Game number, from 1.
    pub game: usize,
    /// The game played, with its rules (a draughts variant writes its own
    /// PDN `GameType`).
    pub spec: GameSpec,
    /// Who sat in each seat, `p1` first (free text).
    pub seats: Vec<String>,
    /// The position text the game started from; `None` for the start
    /// position with `p1` to move.
    pub start: Option<String>,
    /// Every turn in the game's notation, `pass` and `resign` as played.
    pub moves: Vec<String>,
    /// The place of each seat, `p1` first (empty while undecided).
    pub places: Vec<u32>,
    /// Why the game ended (empty while it goes on).
    pub ending: String,
}

impl GameRecord {
    /// The record as its game writes it: PDN for draughts, with the
    /// variant's `GameType` (`[GameType "24"]` for Spanish draughts,
    /// [`crate::pdn::game_type`]), the one-line record (with its line end)
    /// for Chinese checkers.
    ///
    /// ```
    /// use damas::chinese::Rules;
    /// use damas::record::GameRecord;
    /// use damas::GameSpec;
    /// let mut record = GameRecord {
    ///     event: "damas match".into(),
    ///     date: Some("2026.12.03".into()),
    ///     game: 1,
    ///     spec: GameSpec::default(),
    ///     seats: vec!["a".into(), "b".into()],
    ///     start: None,
    ///     moves: vec!["11-15".into()],
    ///     places: vec![1, 2],
    ///     ending: "p2 resigned".into(),
    /// };
    /// assert!(record.text().contains("[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]"));
    /// assert!(record.text().starts_with("[Event \"damas match\"]\n[Date \"2026.12.03\"]\n"));
    /// record.spec = GameSpec::Chinese(Rules::default());
    /// assert!(record.text().starts_with("game=1\ttype=chinese\tplayers=2\t"));
    /// ```
    pub fn text(&self) -> String {
        match self.spec.kind() {
            GameKind::Spanish => self.pdn(),
            GameKind::Chinese | GameKind::Japanese => self.line() + "\n",
        }
    }

    /// The file name ending of [`GameRecord::text`]'s format (`pdn`,
    /// `txt`).
    pub fn extension(&self) -> &'static str {
        match self.spec.kind() {
            GameKind::Spanish => "pdn",
            GameKind::Chinese | GameKind::Japanese => "txt",
        }
    }

    /// The Chinese checkers record on one line of tab-separated
    /// `key=value` fields (no line end; [`GameRecord::text`] adds it); seat
    /// names lose the commas, tabs and line ends that would break the
    /// fields.
    ///
    /// ```
    /// use damas::chinese::Rules;
    /// use damas::record::GameRecord;
    /// use damas::GameSpec;
    /// let record = GameRecord {
    ///     event: "damas serve".into(),
    ///     date: None,
    ///     game: 1,
    ///     spec: GameSpec::Chinese(Rules::default()),
    ///     seats: vec!["person".into(), "engine".into()],
    ///     start: None,
    ///     moves: vec!["e4-e5".into()],
    ///     places: vec![2, 1],
    ///     ending: "p1 resigned".into(),
    /// };
    /// assert_eq!(
    ///     record.line(),
    ///     "game=1\ttype=chinese\tplayers=2\tengines=person,engine\tstart=startpos\tmoves=e4-e5\tplaces=2,1\tending=p1 resigned"
    /// );
    /// ```
    pub fn line(&self) -> String {
        let clean = |text: &str| text.replace([',', '\t', '\n', '\r'], " ");
        let seats: Vec<String> = self.seats.iter().map(|s| clean(s)).collect();
        let places: Vec<String> = self.places.iter().map(u32::to_string).collect();
        let start = self.start.as_deref().unwrap_or("startpos");
        [
            format!("game={}", self.game),
            format!("type={}", self.spec.kind().name()),
            format!("players={}", self.seats.len()),
            format!("engines={}", seats.join(",")),
            format!("start={}", start.replace(['\t', '\n', '\r'], " ")),
            format!("moves={}", self.moves.join(" ")),
            format!("places={}", places.join(",")),
            format!("ending={}", self.ending.replace(['\t', '\n', '\r'], " ")),
        ]
        .join("\t")
    }

    fn pdn(&self) -> String {
        let result = pdn_result(&self.places);
        let round = self.game.to_string();
        let game_type = match self.spec {
            GameSpec::Draughts(rules) => crate::pdn::game_type(rules.variant()),
            GameSpec::Chinese(_) => 0,
        }
        .to_string();
        let seat = |i: usize| self.seats.get(i).map_or("?", String::as_str);
        let mut tags: Vec<(&str, &str)> = vec![("Event", &self.event)];
        if let Some(date) = &self.date {
            tags.push(("Date", date));
        }
        tags.extend([
            ("Round", round.as_str()),
            ("White", seat(0)),
            ("Black", seat(1)),
            ("Result", result),
            ("GameType", game_type.as_str()),
        ]);
        let black_starts = match &self.start {
            Some(fen) => {
                tags.push(("FEN", fen));
                fen.trim_start().starts_with('B')
            }
            None => false,
        };
        if !self.ending.is_empty() {
            tags.push(("Termination", &self.ending));
        }
        pdn_game(&tags, black_starts, &self.moves, result)
    }
}
