//! What `damas match` prints: the progress line and the summary.

use damas::GameSpec;

use super::{Progress, Setup};

/// The one-line progress report, rewritten after each game.
pub(super) fn progress_line(state: &Progress, total: u64, engines: usize) -> String {
    let done = state.done;
    let tally = &state.tally;
    if tally.games() > 0 {
        format!(
            "[{done}/{total}] e1 vs e2: +{} ={} -{}  Elo {}   ",
            tally.wins,
            tally.draws,
            tally.losses,
            state.pairs.elo()
        )
    } else {
        let places: Vec<String> = (0..engines)
            .map(|e| {
                state
                    .standings
                    .average_place(e)
                    .map_or_else(|| "-".into(), |p| format!("e{} {p:.2}", e + 1))
            })
            .collect();
        format!("[{done}/{total}] average place: {}   ", places.join(", "))
    }
}

/// The summary printed at the end (also after an interruption or an
/// error, with the games finished by then).
pub(super) fn summary(setup: &Setup<'_>, state: &Progress) -> String {
    let options = setup.options;
    let mut out = String::new();
    // A game for one number of players is named alone, draughts by its
    // variant (`russian`).
    let counts = options.game.players();
    let game = if counts.start() == counts.end() {
        match options.spec() {
            Ok(GameSpec::Draughts(_)) => options
                .value("Variant")
                .unwrap_or_else(|| options.game.name().to_string()),
            _ => options.game.name().to_string(),
        }
    } else {
        format!("{} ({} players)", options.game.name(), options.players)
    };
    out.push_str(&format!("Match: {game}, {} games\n", state.done));
    out.push_str(&format!("Openings: {}\n", setup.openings_source));
    let standings = &state.standings;
    // Places matter beyond two players; two players win, draw or lose.
    let places = options.players > 2;
    if places {
        out.push_str(&format!(
            "{:<4} {:<50} {:>6} {:>8} {:>10} {:>13} {:>7}\n",
            "", "engine", "games", "points", "avg place", "95% interval", "firsts"
        ));
    } else {
        out.push_str(&format!(
            "{:<4} {:<50} {:>6} {:>8} {:>10}\n",
            "", "engine", "games", "points", "avg place"
        ));
    }
    for (e, name) in setup.names.iter().enumerate() {
        let place = standings
            .average_place(e)
            .map_or_else(|| "-".into(), |p| format!("{p:.2}"));
        out.push_str(&format!(
            "{:<4} {:<50} {:>6} {:>8.1} {:>10}",
            format!("e{}", e + 1),
            name,
            standings.games[e],
            standings.points[e],
            place
        ));
        if places {
            let interval = standings
                .place_interval(e)
                .map_or_else(|| "-".into(), |(lo, hi)| format!("{lo:.2}..{hi:.2}"));
            out.push_str(&format!(" {interval:>13} {:>7}", standings.firsts[e]));
        }
        out.push('\n');
    }
    let tally = &state.tally;
    if tally.games() > 0 {
        out.push_str(&format!(
            "e1 vs e2: wins {} draws {} losses {} (score {:.3})\n",
            tally.wins,
            tally.draws,
            tally.losses,
            tally.score().unwrap_or(0.0)
        ));
        let [ll, ld, even, wd, ww] = state.pairs.counts;
        out.push_str(&format!(
            "Pairs (one opening, seats swapped), e1 scoring 0/0.5/1/1.5/2: {ll} {ld} {even} {wd} {ww}"
        ));
        if !state.pending.is_empty() {
            out.push_str(&format!(
                " ({} unpaired game(s) not in the Elo)",
                state.pending.len()
            ));
        }
        out.push('\n');
        out.push_str(&format!("Elo difference: {}\n", state.pairs.elo()));
        if let Some(sprt) = &setup.sprt {
            let (low, high) = sprt.bounds();
            out.push_str(&format!(
                "SPRT [{}, {}]: LLR {:.2} ({:.2}, {:.2}) {:?}\n",
                sprt.elo0,
                sprt.elo1,
                state.pairs.llr(sprt.elo0, sprt.elo1),
                low,
                high,
                sprt.verdict(&state.pairs)
            ));
        }
    }
    out.push_str(&format!("Forfeits: {}\n", state.forfeit_count));
    for line in &state.forfeits {
        out.push_str(&format!("  {line}\n"));
    }
    let unlisted = state.forfeit_count - state.forfeits.len() as u64;
    if unlisted > 0 {
        out.push_str(&format!("  ... and {unlisted} more\n"));
    }
    out
}
