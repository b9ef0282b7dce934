//! Reading the summary that `damas match` prints, for the match tests.

// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

/// The W/D/L numbers of the `e1 vs e2` summary line.
pub fn tally(summary: &str) -> (u32, u32, u32) {
    let line = summary
        .lines()
        .find(|l| l.starts_with("e1 vs e2: wins"))
        .unwrap_or_else(|| panic!("no tally in {summary}"));
    let numbers: Vec<u32> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (numbers[0], numbers[1], numbers[2])
}

/// The number after `Forfeits:`.
pub fn forfeits(summary: &str) -> u32 {
    summary
        .lines()
        .find_map(|l| l.strip_prefix("Forfeits: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no forfeit count in {summary}"))
}

/// The number of games in the `Match:` headline.
pub fn games_played(summary: &str) -> u32 {
    summary
        .lines()
        .find_map(|l| l.strip_prefix("Match: "))
        .and_then(|rest| rest.split(", ").nth(1))
        .and_then(|games| games.strip_suffix(" games"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no headline in {summary}"))
}
