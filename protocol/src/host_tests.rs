//! The host's events for requests: a search and its stop, a bad option, a
//! perft, a position with a bad move.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::*;

/// A host whose events are collected.
fn host() -> (Host, Arc<Mutex<Vec<Event>>>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let host = Host::new(Arc::new(move |event| {
        sink.lock().expect("events").push(event);
    }));
    (host, events)
}

fn taken(events: &Mutex<Vec<Event>>) -> Vec<Event> {
    std::mem::take(&mut *events.lock().expect("events"))
}

fn wait_idle(host: &Host) {
    let start = Instant::now();
    while host.is_searching() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "search never ended"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn go_then_stop_ends_with_one_bestmove() {
    let (mut host, events) = host();
    host.handle(Request::Go(GoParams {
        infinite: true,
        ..GoParams::default()
    }));
    assert!(host.is_searching());
    host.handle(Request::IsReady);
    host.handle(Request::NewGame);
    host.handle(Request::Stop);
    assert!(!host.is_searching());
    let events = taken(&events);
    assert!(events.contains(&Event::Ready), "{events:?}");
    assert!(
        events.contains(&Event::Error(
            "a search or perft is running; send 'stop' first".into()
        )),
        "{events:?}"
    );
    let best: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::BestMove(_)))
        .collect();
    assert_eq!(best.len(), 1, "{events:?}");
    let Some(Event::BestMove(Some(mv))) = events.last() else {
        panic!("the search's last event is its move: {events:?}");
    };
    assert!(host.game().legal_moves_text().contains(mv), "{mv}");
}

#[test]
fn a_depth_search_reports_info_with_move_texts() {
    let (mut host, events) = host();
    host.handle(Request::Go(GoParams {
        depth: Some(2),
        ..GoParams::default()
    }));
    wait_idle(&host);
    host.stop();
    let events = taken(&events);
    let Some(Event::Info(info)) = events.iter().find(|e| matches!(e, Event::Info(_))) else {
        panic!("no info: {events:?}");
    };
    assert!(!info.pv.is_empty());
    assert!(host.game().legal_moves_text().contains(&info.pv[0]));
    assert!(matches!(events.last(), Some(Event::BestMove(Some(_)))));
}

#[test]
fn a_bad_option_is_an_error_and_changes_nothing() {
    let (mut host, events) = host();
    let before = host.settings().clone();
    for (name, value) in [("Hash", "0"), ("NoSuchOption", "1"), ("Game", "go")] {
        host.handle(Request::SetOption {
            name: name.into(),
            value: value.into(),
        });
    }
    let seen = taken(&events);
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert!(seen.iter().all(|e| matches!(e, Event::Error(_))));
    assert_eq!(host.settings(), &before);
    host.handle(Request::SetOption {
        name: "TablebasePath".into(),
        value: "/nonexistent/damas-tables".into(),
    });
    assert!(matches!(taken(&events).as_slice(), [Event::Error(_)]));
    assert_eq!(host.settings(), &before);
}

#[test]
fn perft_and_divide_report_rows_then_the_total() {
    let (mut host, events) = host();
    host.handle(Request::Perft {
        depth: 2,
        divide: false,
    });
    wait_idle(&host);
    host.stop();
    let events_seen = taken(&events);
    assert!(
        matches!(
            events_seen.as_slice(),
            [Event::PerftDone {
                depth: 2,
                nodes: 49,
                ..
            }]
        ),
        "{events_seen:?}"
    );
    host.handle(Request::Perft {
        depth: 1,
        divide: true,
    });
    wait_idle(&host);
    host.stop();
    let events_seen = taken(&events);
    let rows = events_seen
        .iter()
        .filter(|e| matches!(e, Event::PerftRow { nodes: 1, .. }))
        .count();
    assert_eq!(rows, 7, "{events_seen:?}");
    assert!(matches!(
        events_seen.last(),
        Some(Event::PerftDone { nodes: 7, .. })
    ));
    host.handle(Request::Perft {
        depth: MAX_PERFT_DEPTH + 1,
        divide: false,
    });
    assert!(matches!(taken(&events).as_slice(), [Event::Error(_)]));
}

#[test]
fn a_refused_move_keeps_the_position_and_quotes_what_was_written() {
    let (mut host, events) = host();
    let start = host.game().position_text();
    host.handle(Request::Position {
        start: Start::Initial,
        moves: vec![
            ClientMove::plain("11-15"),
            ClientMove {
                text: "99-98".into(),
                written: "as written".into(),
            },
        ],
    });
    let events = taken(&events);
    let [Event::Error(text)] = events.as_slice() else {
        panic!("{events:?}");
    };
    assert!(text.starts_with("move 2 'as written': "), "{text}");
    assert_eq!(host.game().position_text(), start);
    host.handle(Request::Query(Query::Turn));
    host.handle(Request::Display);
}

#[test]
fn a_new_game_option_reports_the_rules_note() {
    let (mut host, events) = host();
    for (name, value) in [("Game", "japanese"), ("Players", "4")] {
        host.handle(Request::SetOption {
            name: name.into(),
            value: value.into(),
        });
    }
    let events = taken(&events);
    assert!(
        events.iter().any(|e| matches!(e, Event::Note(_))),
        "{events:?}"
    );
}

fn set(host: &mut Host, name: &str, value: &str) {
    host.handle(Request::SetOption {
        name: name.into(),
        value: value.into(),
    });
}

fn go_depth(host: &mut Host, depth: u32) {
    host.handle(Request::Go(GoParams {
        depth: Some(depth),
        ..GoParams::default()
    }));
    wait_idle(host);
    host.stop();
}

#[test]
fn a_refused_go_answers_the_error_then_the_null_move() {
    let (mut host, events) = host();
    // Spanish draughts with three players: no game to search.
    set(&mut host, "Players", "3");
    taken(&events);
    go_depth(&mut host, 1);
    let seen = taken(&events);
    assert!(
        matches!(seen.as_slice(), [Event::Error(e), Event::BestMove(None)]
            if e.contains("Spanish draughts is played by 2 players")),
        "{seen:?}"
    );
    set(&mut host, "Players", "2");
    // A refused position: the next go does not search the one before.
    host.handle(Request::Position {
        start: Start::Initial,
        moves: vec![ClientMove::plain("11-15"), ClientMove::plain("11-15")],
    });
    go_depth(&mut host, 1);
    let seen = taken(&events);
    assert!(
        matches!(seen.as_slice(), [Event::Error(_), Event::Error(e), Event::BestMove(None)]
            if e.contains("the last 'position' was refused")),
        "{seen:?}"
    );
    host.handle(Request::Position {
        start: Start::Text("nonsense".into()),
        moves: Vec::new(),
    });
    go_depth(&mut host, 1);
    let seen = taken(&events);
    assert!(
        matches!(
            seen.as_slice(),
            [Event::Error(_), Event::Error(_), Event::BestMove(None)]
        ),
        "{seen:?}"
    );
    // An accepted position searches again.
    host.handle(Request::Position {
        start: Start::Initial,
        moves: vec![ClientMove::plain("11-15")],
    });
    go_depth(&mut host, 1);
    assert!(matches!(
        taken(&events).last(),
        Some(Event::BestMove(Some(_)))
    ));
    // A finished game: the null move, no error.
    host.handle(Request::Position {
        start: Start::Text("W:W18:B".into()),
        moves: Vec::new(),
    });
    go_depth(&mut host, 1);
    assert_eq!(taken(&events), [Event::BestMove(None)]);
}

#[test]
fn a_go_during_a_search_gets_its_own_null_move() {
    let (mut host, events) = host();
    host.handle(Request::Go(GoParams {
        infinite: true,
        ..GoParams::default()
    }));
    host.handle(Request::Go(GoParams::default()));
    let refused = taken(&events);
    assert!(
        refused.contains(&Event::Error(BUSY.into())) && refused.contains(&Event::BestMove(None)),
        "{refused:?}"
    );
    host.handle(Request::Stop);
    let best = taken(&events)
        .into_iter()
        .filter(|e| matches!(e, Event::BestMove(_)))
        .count();
    assert_eq!(best, 1, "the running search's own bestmove");
}

fn table_ready(host: &Host, kind: damas::GameKind) -> bool {
    host.engine
        .as_ref()
        .is_some_and(|engine| engine.is_prepared_for(kind))
}

#[test]
fn the_table_is_made_resident_at_isready_not_by_the_search() {
    use damas::GameKind::{Chinese, Spanish};
    let (mut host, events) = host();
    set(&mut host, "Hash", "2");
    assert!(!table_ready(&host, Spanish), "nothing made before isready");
    host.handle(Request::IsReady);
    assert!(table_ready(&host, Spanish));
    // A new size is made resident at the next isready.
    set(&mut host, "Hash", "3");
    assert!(!table_ready(&host, Spanish));
    host.handle(Request::IsReady);
    assert!(table_ready(&host, Spanish));
    host.handle(Request::NewGame);
    assert!(table_ready(&host, Spanish), "cleared in place, resident");
    // Another game's table: at its isready (or its new game).
    set(&mut host, "Game", "chinese");
    assert!(!table_ready(&host, Chinese));
    host.handle(Request::IsReady);
    assert!(table_ready(&host, Chinese) && !table_ready(&host, Spanish));
    set(&mut host, "Game", "spanish");
    host.handle(Request::NewGame);
    assert!(table_ready(&host, Spanish));
    // A client that never says isready: the search makes it resident
    // first, and still answers.
    set(&mut host, "Hash", "4");
    go_depth(&mut host, 2);
    assert!(table_ready(&host, Spanish));
    assert!(taken(&events)
        .iter()
        .any(|e| matches!(e, Event::BestMove(Some(_)))));
}
