//! The one-line position text of a [`Checkers`]: written by its `Display`
//! (whose documentation gives the format) and read by its `FromStr`.

use super::error::TextError;
use super::game::Checkers;
use super::geometry::{Cell, Mask};
use super::position::Position;
use super::record::PlayerState;
use super::rules::{Rules, Variant};
use crate::EndReason;
use std::fmt;
use std::fmt::Write;
use std::str::FromStr;

/// Largest counter or limit a position text may carry.
pub const MAX_TEXT_NUMBER: u32 = 1_000_000_000;

fn flag(b: bool) -> u8 {
    u8::from(b)
}

fn opt(o: Option<u32>) -> String {
    o.map_or("-".to_string(), |v| v.to_string())
}

fn end_name(e: Option<EndReason>) -> &'static str {
    match e {
        None => "-",
        Some(EndReason::AllPlaced) => "decided",
        Some(EndReason::FirstFinisher) => "first",
        Some(EndReason::MoveLimit) => "limit",
        Some(EndReason::NoProgressLimit) => "noprog",
        Some(EndReason::Blocked) => "blocked",
        Some(EndReason::Adjudicated) => "adjudicated",
        Some(EndReason::NoMoves) => "nomoves",
        Some(EndReason::Repetition) => "repetition",
        // Draughts endings: a Chinese checkers game never records them
        // (a resignation places the player and the game ends as decided).
        Some(
            EndReason::NoPieces
            | EndReason::NoProgress { .. }
            | EndReason::ThreeKings { .. }
            | EndReason::UnchangedBalance { .. }
            | EndReason::Resignation,
        ) => "decided",
    }
}

impl Checkers {
    pub(crate) fn to_text(&self) -> String {
        let r = &self.rules;
        let pos = &self.pos;
        let letter = match r.variant {
            Variant::International => 'I',
            Variant::Japanese => 'J',
        };
        let mut s = format!("{letter}{} {} ", self.states.len(), pos.to_move() + 1);
        let groups: Vec<String> = (0..self.states.len())
            .map(|p| {
                let m = pos.pieces(p);
                if m.is_empty() {
                    return "-".to_string();
                }
                m.iter()
                    .map(|c| {
                        if pos.kings().contains(c) {
                            format!("{c}*")
                        } else {
                            c.to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        s += &groups.join("/");
        let states: Vec<String> = self
            .states
            .iter()
            .map(|st| match st {
                PlayerState::Playing => "p".to_string(),
                PlayerState::Finished { place } => format!("f{place}"),
                PlayerState::Resigned { place } => format!("r{place}"),
                PlayerState::Placed { place } => format!("d{place}"),
            })
            .collect();
        let best: Vec<String> = self.best.iter().map(|(g, d)| format!("{g}:{d}")).collect();
        let _ = write!(
            s,
            " s={} first={} ply={} rounds={} progress={} best={} over={} anti={} end={} limit={} noprog={} lock={} nomove={} rep={} equal={}",
            states.join(","),
            self.first + 1,
            self.ply,
            self.rounds,
            opt(self.last_progress),
            best.join(","),
            end_name(self.end),
            flag(r.anti_blocking),
            flag(r.play_to_end),
            opt(r.move_limit),
            opt(r.no_progress_limit),
            flag(r.goal_lock),
            flag(r.no_move_loss),
            flag(r.repetition_draw),
            flag(r.equal_turns),
        );
        s
    }

    /// Reads a position text (the format of `Display`); the rule fields it
    /// leaves out take the values of [`Rules::default`] (see
    /// [`Checkers::from_text_with_defaults`]). The game has no turn to undo.
    ///
    /// ```
    /// use damas::chinese::{Checkers, Rules};
    /// let g = Checkers::new(Rules::for_players(3));
    /// let back: Checkers = g.to_string().parse().unwrap();
    /// assert_eq!(back.to_string(), g.to_string());
    /// assert!("I2 3 e1/m17".parse::<Checkers>().is_err());
    /// ```
    pub(crate) fn from_text(text: &str) -> Result<Checkers, TextError> {
        Checkers::from_text_with_defaults(text, &Rules::default())
    }

    /// Reads a position text like `FromStr`, but the rule fields
    /// the text leaves out (`anti`, `end`, `rot`, `limit`, `noprog`, `lock`)
    /// come from `defaults` (whose `players` and `variant` are ignored: the
    /// text always gives them), so that a text may carry just the pieces.
    ///
    /// ```
    /// use damas::chinese::{Checkers, Rules};
    /// let defaults = Rules { move_limit: Some(50), goal_lock: true, ..Rules::default() };
    /// let g = Checkers::from_text_with_defaults("I2 1 e1/m17 limit=-", &defaults).unwrap();
    /// assert_eq!(g.rules().move_limit, None);
    /// assert!(g.rules().goal_lock);
    /// ```
    ///
    /// # Errors
    ///
    /// A [`TextError`] naming the first part of `text` that is wrong: a missing
    /// or unreadable header, a cell that is not on the star, an unknown or
    /// badly valued rule field, or a position the rules refuse.
    pub fn from_text_with_defaults(text: &str, defaults: &Rules) -> Result<Checkers, TextError> {
        let mut toks = text.split_whitespace();
        let head = toks
            .next()
            .ok_or(TextError::Missing("variant and players"))?;
        let herr = || TextError::Header(head.to_string());
        let mut hc = head.chars();
        let variant = match hc.next() {
            Some('I' | 'i') => Variant::International,
            Some('J' | 'j') => Variant::Japanese,
            _ => return Err(herr()),
        };
        let players: u8 = hc.as_str().parse().map_err(|_| herr())?;
        if !(1..=6).contains(&players) {
            return Err(herr());
        }
        let n = players as usize;
        let stm_tok = toks.next().ok_or(TextError::Missing("player to move"))?;
        let stm: usize = stm_tok
            .parse()
            .ok()
            .filter(|&v| (1..=n).contains(&v))
            .ok_or_else(|| TextError::ToMove(stm_tok.to_string()))?;
        let pieces_tok = toks.next().ok_or(TextError::Missing("pieces"))?;
        let groups: Vec<&str> = pieces_tok.split('/').collect();
        if groups.len() != n {
            return Err(TextError::Pieces(pieces_tok.to_string()));
        }
        let mut pieces = vec![Mask::EMPTY; n];
        let mut kings = Mask::EMPTY;
        for (p, g) in groups.iter().enumerate() {
            if *g == "-" {
                continue;
            }
            for name in g.split(',') {
                let (name, king) = match name.strip_suffix('*') {
                    Some(s) => (s, true),
                    None => (name, false),
                };
                let c: Cell = name.parse()?;
                if pieces[p].contains(c) {
                    return Err(TextError::Pieces(pieces_tok.to_string()));
                }
                pieces[p] = pieces[p].with(c);
                if king {
                    kings = kings.with(c);
                }
            }
        }
        let mut rules = Rules {
            players,
            variant,
            ..*defaults
        };
        let mut fields: Vec<(&str, &str)> = Vec::new();
        for t in toks {
            let (k, v) = t
                .split_once('=')
                .ok_or_else(|| TextError::Field(t.to_string()))?;
            fields.push((k, v));
        }
        let ferr = |k: &str, v: &str| TextError::Field(format!("{k}={v}"));
        // Counters and limits are bounded so that no text can bring a counter
        // near overflow: a game never gets within orders of magnitude of it.
        let num = |k: &str, v: &str| {
            v.parse::<u32>()
                .ok()
                .filter(|&n| n <= MAX_TEXT_NUMBER)
                .ok_or_else(|| ferr(k, v))
        };
        let optnum = |k: &str, v: &str| {
            if v == "-" {
                Ok(None)
            } else {
                num(k, v).map(Some)
            }
        };
        let boolean = |k: &str, v: &str| match v {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(ferr(k, v)),
        };
        for &(k, v) in &fields {
            match k {
                "anti" => rules.anti_blocking = boolean(k, v)?,
                "end" => rules.play_to_end = boolean(k, v)?,
                "lock" => rules.goal_lock = boolean(k, v)?,
                "nomove" => rules.no_move_loss = boolean(k, v)?,
                "rep" => rules.repetition_draw = boolean(k, v)?,
                "equal" => rules.equal_turns = boolean(k, v)?,
                "limit" => rules.move_limit = optnum(k, v)?,
                "noprog" => rules.no_progress_limit = optnum(k, v)?,
                _ => {}
            }
        }
        let pos = Position::from_pieces(
            players,
            rules.effective_variant(),
            rules.goal_lock,
            &pieces,
            kings,
            stm - 1,
        )?;
        // Finished players are settled once every field is read.
        let mut game = Checkers::from_parts(rules, pos, stm - 1);
        for &(k, v) in &fields {
            match k {
                "anti" | "end" | "lock" | "nomove" | "rep" | "equal" | "limit" | "noprog" => {}
                // The first player's rotation, which is the runner's
                // business: texts written by earlier versions carry it, so
                // it is read and ignored.
                "rot" => {}
                "first" => {
                    let f = num(k, v)? as usize;
                    if !(1..=n).contains(&f) {
                        return Err(ferr(k, v));
                    }
                    game.first = f - 1;
                }
                "ply" => game.ply = num(k, v)?,
                "rounds" => game.rounds = num(k, v)?,
                "progress" => game.last_progress = optnum(k, v)?,
                "s" => {
                    let parts: Vec<&str> = v.split(',').collect();
                    if parts.len() != n {
                        return Err(ferr(k, v));
                    }
                    for (p, st) in parts.iter().enumerate() {
                        let place = || -> Result<u8, TextError> {
                            st[1..]
                                .parse::<u8>()
                                .ok()
                                .filter(|&x| (1..=players).contains(&x))
                                .ok_or_else(|| ferr(k, v))
                        };
                        game.states[p] = match st.chars().next() {
                            Some('p') if st.len() == 1 => PlayerState::Playing,
                            Some('f') => PlayerState::Finished { place: place()? },
                            Some('r') => PlayerState::Resigned { place: place()? },
                            Some('d') => PlayerState::Placed { place: place()? },
                            _ => return Err(ferr(k, v)),
                        };
                    }
                }
                "best" => {
                    let parts: Vec<&str> = v.split(',').collect();
                    if parts.len() != n {
                        return Err(ferr(k, v));
                    }
                    for (p, b) in parts.iter().enumerate() {
                        let (g, d) = b.split_once(':').ok_or_else(|| ferr(k, v))?;
                        game.best[p] = (num(k, g)?, num(k, d)?);
                    }
                }
                "over" => {
                    game.end = match v {
                        "-" => None,
                        "decided" => Some(EndReason::AllPlaced),
                        "first" => Some(EndReason::FirstFinisher),
                        "limit" => Some(EndReason::MoveLimit),
                        "noprog" => Some(EndReason::NoProgressLimit),
                        "blocked" => Some(EndReason::Blocked),
                        "adjudicated" => Some(EndReason::Adjudicated),
                        "nomoves" => Some(EndReason::NoMoves),
                        "repetition" => Some(EndReason::Repetition),
                        _ => return Err(ferr(k, v)),
                    }
                }
                _ => return Err(ferr(k, v)),
            }
        }
        let playing = |p: usize| game.states[p] == PlayerState::Playing;
        if game.end.is_none() && !playing(stm - 1) {
            return Err(TextError::Inconsistent(format!(
                "player {stm} is to move but is no longer playing"
            )));
        }
        if game.end.is_some() && (0..n).any(playing) {
            return Err(TextError::Inconsistent(
                "the game is over but a player is still playing".into(),
            ));
        }
        // A goal already full is a finished player, whatever `s=` says.
        game.settle_loaded();
        Ok(game)
    }
}

/// The one-line position text; `FromStr` reads it back to an
/// equal game (the history aside).
///
/// ```text
/// I2 1 e1,e2,f2,...,h4/j14,...,m17 s=p,p first=1 ply=0 rounds=0 progress=- best=0:110,0:110 over=- anti=1 end=1 limit=200 noprog=30 lock=0 nomove=0 rep=0 equal=0
/// ```
///
/// 1. Variant letter (`I` international, `J` Japanese as asked; `J4`..`J6`
///    play by the international rules) and the number of players.
/// 2. Player to move, 1-based.
/// 3. Pieces: one group per player in seat order separated by `/`, cell
///    names separated by `,` in cell order, `*` after the king; `-` for none.
/// 4. `key=value` fields, all optional when parsing (defaults: a fresh game
///    with [`Rules::default`] options, players playing, counters zero, the
///    player to move as the first player):
///    `s` player states (`p` playing, `f2` finished 2nd, `r3` resigned 3rd,
///    `d1` placed 1st at the end), `first` first player, `ply` turns taken,
///    `rounds` completed rounds, `progress` round of the last progress or
///    `-`, `best` per player best `in-goal:distance`, `over` end reason
///    (`-`, `decided`, `first`, `limit`, `noprog`, `blocked`,
///    `adjudicated`), and the
///    options `anti`, `end`, `rot`, `lock` (`0`/`1`), `limit`, `noprog`
///    (number or `-`).
impl fmt::Display for Checkers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl FromStr for Checkers {
    type Err = TextError;

    /// Reads a position text (the format of `Display`); the rule fields it
    /// leaves out take the values of [`Rules::default`] (see
    /// [`Checkers::from_text_with_defaults`]).
    fn from_str(s: &str) -> Result<Checkers, TextError> {
        Checkers::from_text(s)
    }
}
