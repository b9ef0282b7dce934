//! Seat tokens: the secret a device holds for each member of a group it
//! plays for, handed to it as an `HttpOnly; SameSite=Strict` cookie when
//! the member creates or joins the group. The invitation link and every
//! JSON answer carry no token, so a link passed round lets people watch
//! and join, never move for somebody else. A group's game keeps a
//! [`Binding`] of its seats to the members and their tokens, checked by
//! every request that acts for a seat.

use std::io::Read;

use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderName, HeaderValue};

use super::error::ApiError;
use super::messages::Message;

/// Bytes of randomness in a token (128 bits: not guessable).
const TOKEN_BYTES: usize = 16;
/// Longest cookie header read, so that a huge header costs no work.
const MAX_COOKIE_HEADER: usize = 8192;
/// Most seat cookies read from one request.
const MAX_HELD: usize = 16;
/// How long a device keeps its seat cookie, in seconds (a week).
const COOKIE_AGE: u32 = 604_800;

/// A fresh token: 32 hex digits from the system's random source.
pub fn fresh() -> Result<String, ApiError> {
    let mut bytes = [0u8; TOKEN_BYTES];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut source| source.read_exact(&mut bytes))
        .map_err(|_| ApiError::full(Message::NoRandomness))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The cookie name of member `member` (from 1) of group `group`: named by
/// the member, not the seat, so that a token follows its person when the
/// seats move round between games.
fn cookie_name(group: u64, member: usize) -> String {
    format!("damas_seat_{group:016x}_{member}")
}

/// The header that hands `token` of member `member` (from 1) to the device.
pub fn set_cookie(group: u64, member: usize, token: &str) -> Option<(HeaderName, HeaderValue)> {
    let value = format!(
        "{}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={COOKIE_AGE}",
        cookie_name(group, member)
    );
    HeaderValue::from_str(&value).ok().map(|v| (SET_COOKIE, v))
}

/// The tokens this request holds for group `group`: `(member, token)`, the
/// member from 1.
pub fn held(headers: &HeaderMap, group: u64) -> Vec<(usize, String)> {
    let prefix = format!("damas_seat_{group:016x}_");
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .filter(|text| text.len() <= MAX_COOKIE_HEADER)
        .flat_map(|text| text.split(';'))
        .filter_map(|pair| {
            let (name, token) = pair.trim().split_once('=')?;
            let member = name.strip_prefix(&prefix)?.parse::<usize>().ok()?;
            Some((member, token.trim().to_string()))
        })
        .take(MAX_HELD)
        .collect()
}

/// Whether two tokens are equal, in time that does not depend on where
/// they differ.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The members (from 1) among `tokens` (member `i + 1`'s token at `i`)
/// whose token this request holds.
pub fn members_held(headers: &HeaderMap, group: u64, tokens: &[String]) -> Vec<usize> {
    let held = held(headers, group);
    (1..=tokens.len())
        .filter(|&member| {
            held.iter()
                .any(|(m, token)| *m == member && same(token, &tokens[member - 1]))
        })
        .collect()
}

/// A group's game's seats bound to the group's members.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The group's id (the cookies' names carry it).
    pub group: u64,
    /// The member (from 1) of each seat; `None` for a seat the engine was
    /// given when the game began, which only the creator may act for.
    pub owners: Vec<Option<usize>>,
    /// The members' names, member `i + 1`'s at `i`.
    pub names: Vec<String>,
    /// The members' tokens, member `i + 1`'s at `i` (the creator first).
    pub tokens: Vec<String>,
    /// Whether each member's device is away (the engine plays their
    /// seat), member `i + 1`'s at `i`.
    pub away: Vec<bool>,
}

impl Binding {
    /// The member who may act for seat `seat` (from 0): its owner, or the
    /// creator (member 1) for an engine's seat.
    pub fn member_of(&self, seat: usize) -> usize {
        self.owners.get(seat).copied().flatten().unwrap_or(1)
    }

    /// Whether the request holds the token of whoever may act for `seat`
    /// (from 0); a 403 otherwise.
    pub fn allow(&self, headers: &HeaderMap, seat: usize) -> Result<(), ApiError> {
        let member = self.member_of(seat);
        if members_held(headers, self.group, &self.tokens).contains(&member) {
            Ok(())
        } else {
            Err(ApiError::forbidden(Message::SeatNotYours(seat)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(cookie: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, HeaderValue::from_str(cookie).expect("header"));
        headers
    }

    #[test]
    fn tokens_are_fresh_and_read_back_from_the_cookie_header() {
        let a = fresh().expect("a token");
        let b = fresh().expect("a token");
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        let cookie = format!(
            "other=1; damas_seat_000000000000002a_2={a}; damas_seat_00000000000000ff_1={b}"
        );
        assert_eq!(held(&headers(&cookie), 42), vec![(2, a.clone())]);
        assert!(same(&a, &a));
        assert!(!same(&a, &b));
        assert!(!same(&a, &a[..31]));
        assert!(!same("", &a));
    }

    #[test]
    fn the_cookie_is_http_only_and_strict() {
        let (name, value) = set_cookie(42, 3, "00ff").expect("a header");
        assert_eq!(name, SET_COOKIE);
        let value = value.to_str().expect("text");
        assert!(value.starts_with("damas_seat_000000000000002a_3=00ff;"));
        for part in ["HttpOnly", "SameSite=Strict", "Path=/"] {
            assert!(value.contains(part), "{value}");
        }
    }

    #[test]
    fn a_seat_is_allowed_only_with_its_members_token() {
        let (t1, t2) = (fresh().expect("a token"), fresh().expect("a token"));
        let binding = Binding {
            group: 7,
            owners: vec![Some(2), Some(1), None],
            names: vec!["Ana".into(), "Bea".into()],
            tokens: vec![t1.clone(), t2.clone()],
            away: vec![false, false],
        };
        let bea = headers(&format!("damas_seat_0000000000000007_2={t2}"));
        let ana = headers(&format!("damas_seat_0000000000000007_1={t1}"));
        let wrong = headers(&format!("damas_seat_0000000000000007_2={t1}"));
        let other_group = headers(&format!("damas_seat_0000000000000008_2={t2}"));
        assert!(binding.allow(&bea, 0).is_ok());
        assert!(binding.allow(&bea, 1).is_err());
        assert!(binding.allow(&ana, 1).is_ok());
        // The engine's seat is the creator's to hand over.
        assert!(binding.allow(&ana, 2).is_ok());
        assert!(binding.allow(&bea, 2).is_err());
        assert!(binding.allow(&wrong, 0).is_err());
        assert!(binding.allow(&other_group, 0).is_err());
        assert!(binding.allow(&HeaderMap::new(), 0).is_err());
        assert_eq!(members_held(&bea, 7, &binding.tokens), vec![2]);
    }
}
