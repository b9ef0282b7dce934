//! The web board's languages, its moves that show what happened and its
//! rough edges, in the real browser (used by tests/serve_browser.rs, whose
//! helpers these checks share): a game in Spanish, Portuguese and English
//! with a screenshot each, the animation's end state, the captured marks,
//! refused clicks and their reasons, the resign confirmation, the setup
//! form's error and position box, the analysis kept over a reload, undo
//! in an all-engine game, a six-player game past ply 100 and its move
//! list, the think-time cap, and a phone.

use fantoccini::Client;
use serde_json::{json, Value};

use super::web_server::Server;
use super::{
    click, count, fill_form, find, new_game, play, screenshot, switch_language, wait_until, Device,
};

/// A phone of 390×844 CSS px with touch, asking for Brazilian Portuguese.
pub const PHONE: Device = Device {
    phone: true,
    languages: "pt-BR,pt",
};

async fn js(client: &Client, script: &str) -> Value {
    client
        .execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("{script}: {e}"))
}

async fn text(client: &Client, css: &str) -> String {
    find(client, css).await.text().await.expect("a text")
}

/// Waits for the last move's animation to end at its landing point.
async fn settled(client: &Client) {
    wait_until(
        client,
        "the animation's end",
        "const b = document.getElementById('board'); return !state.last || \
         (b.dataset.animated === state.last.path.join('-') && !b.querySelector('.moving'));",
    )
    .await;
}

/// The text of the hint line after clicking `name`.
async fn refused(client: &Client, name: &str) -> String {
    click(client, &format!("#board [data-name=\"{name}\"]")).await;
    wait_until(
        client,
        "the hint",
        "return document.getElementById('hint').textContent !== '';",
    )
    .await;
    text(client, "#hint").await
}

pub async fn languages_and_moves(client: &Client, server: &Server) {
    client.goto(&server.url).await.expect("the page opens");
    switch_language(client, "es", "Deshacer").await;
    assert_eq!(text(client, "#start").await, "Empezar");

    // A refused position says why; the error goes once a game starts, and
    // the position box empties when the game changes.
    fill_form(client, "spanish", 2, &["human", "human"], "W:W33:B1").await;
    click(client, "#start").await;
    wait_until(
        client,
        "the setup error",
        "return document.getElementById('setup-error').textContent !== '';",
    )
    .await;
    let error = text(client, "#setup-error").await;
    assert!(error.starts_with("Posición no válida"), "{error}");
    // Spanish draughts in Spanish: White must take the most pieces.
    new_game(
        client,
        "spanish",
        2,
        &["human", "human"],
        "W:W9,14:B13,18,26",
    )
    .await;
    click(client, "#show-setup").await;
    assert_eq!(count(client, "#setup-error:not(:empty)").await, 0);
    find(client, "#game")
        .await
        .select_by_value("chinese")
        .await
        .expect("a game");
    assert_eq!(
        js(client, "return document.getElementById('position').value;").await,
        ""
    );
    click(client, "#cancel-setup").await;
    let why = refused(client, "9").await;
    assert_eq!(why, "Hay que comer lo máximo: 2 piezas (con 14).");
    let why = refused(client, "13").await;
    assert_eq!(why, "Esa pieza es de Negras; es el turno de Blancas.");
    play(client, "14", "30", "capture").await;
    wait_until(client, "the capture", "return state.moves.length === 1;").await;
    settled(client).await;
    // The piece travelled the whole path and stands, crowned, at its end.
    let path = js(client, "return state.last.path.join('-');").await;
    assert_eq!(path, "14-21-30");
    assert_eq!(
        js(
            client,
            "return document.getElementById('board').dataset.animating;"
        )
        .await,
        path
    );
    let landed = js(
        client,
        "const p = document.querySelector('#board [data-name=\"30\"] .piece'); \
         return p && getComputedStyle(p).visibility === 'visible' && p.dataset.king === '1';",
    )
    .await;
    assert_eq!(landed, Value::Bool(true));
    assert_eq!(count(client, "#board .last-path").await, 1);
    let taken = js(
        client,
        "return [...document.querySelectorAll('#board .captured-mark')].map((m) => m.dataset.captured).sort().join(',');",
    )
    .await;
    assert_eq!(taken, "18,26");
    screenshot(client, "es-spanish").await;
    // The marks last until the next move.
    let from = js(client, "return state.movable[0];").await;
    let from = from.as_str().expect("a piece").to_string();
    click(client, &format!("#board [data-name=\"{from}\"]")).await;
    let mark = find(client, "#board .mark").await;
    let target = js_with(
        client,
        "return arguments[0].parentNode.getAttribute('data-name');",
        mark,
    )
    .await;
    click(client, &format!("#board [data-name=\"{target}\"]")).await;
    wait_until(client, "Black's move", "return state.moves.length === 2;").await;
    settled(client).await;
    assert_eq!(count(client, "#board .captured-mark").await, 0);
    // Resigning asks first; the result says who won, in words.
    click(client, "#resign").await;
    find(client, "#confirm-resign:not([hidden])").await;
    assert!(text(client, "#confirm-resign-text")
        .await
        .contains("Blancas"));
    click(client, "#resign-no").await;
    assert_eq!(
        js(client, "return state.result === null;").await,
        Value::Bool(true)
    );
    click(client, "#resign").await;
    click(client, "#resign-yes").await;
    let result = text(client, "#result:not([hidden])").await;
    assert!(result.starts_with("Victoria de Negras"), "{result}");
    assert!(result.contains("el perdedor se rindió"), "{result}");
    let record = js(
        client,
        "return fetch(document.getElementById('export').href).then((r) => r.text());",
    )
    .await;
    let record = record.as_str().expect("a record");
    assert!(record.contains("[Date \""), "{record}");
    assert!(record.contains("[White \"persona\"]"), "{record}");
    assert!(
        record.contains("[Termination \"el perdedor se rindió\"]"),
        "{record}"
    );

    // While the engine thinks, a click says so: from a position out of
    // the opening book, where the engine answers at once.
    fill_form(client, "spanish", 2, &["human", "engine"], "W:W1-11:B22-32").await;
    find(client, "#seat-setup [data-seat=\"1\"] .think")
        .await
        .select_by_value("1000")
        .await
        .expect("a time");
    click(client, "#start").await;
    wait_until(
        client,
        "the game",
        "return state !== null && document.getElementById('setup').hidden;",
    )
    .await;
    play(client, "11", "15", "step").await;
    let why = refused(client, "10").await;
    assert!(
        why == "Espera: la CPU juega por Negras." || why.starts_with("No es tu turno"),
        "{why}"
    );

    portuguese(client).await;
    english(client).await;
}

/// `fantoccini`'s execute with one element argument.
async fn js_with(client: &Client, script: &str, element: fantoccini::elements::Element) -> String {
    client
        .execute(script, vec![json!(element)])
        .await
        .expect("the script runs")
        .as_str()
        .expect("a text")
        .to_string()
}

async fn portuguese(client: &Client) {
    switch_language(client, "pt", "Desfazer").await;
    // Chinese checkers against the engine, the analysis on: it stays on
    // over a reload, and the server serves the page in the chosen
    // language (its cookie).
    new_game(client, "chinese", 2, &["human", "engine"], "").await;
    if js(
        client,
        "return document.getElementById('analysis-on').checked;",
    )
    .await
        != Value::Bool(true)
    {
        click(client, "#analysis-on").await;
    }
    play(client, "e3", "e5", "jump").await;
    wait_until(
        client,
        "the engine's answer",
        "return state.moves.length === 2 && state.to_move === 0;",
    )
    .await;
    client.refresh().await.expect("reloaded");
    wait_until(
        client,
        "the game after the reload",
        "return state !== null && state.moves.length === 2 && document.documentElement.lang === 'pt';",
    )
    .await;
    assert_eq!(
        js(
            client,
            "return document.getElementById('analysis-on').checked;"
        )
        .await,
        Value::Bool(true)
    );
    let served = js(client, "return fetch('/').then((r) => r.text());").await;
    assert!(served.as_str().unwrap_or("").contains("<html lang=\"pt\">"));
    let analysis = text(client, "#analysis").await;
    assert!(analysis.contains("para Azul"), "{analysis}");
    assert!(text(client, "#status").await.starts_with("Vez de Vermelho"));
    settled(client).await;
    screenshot(client, "pt-chinese").await;
    // Red handed to the engine and taken back: the record says who played.
    find(client, "#seats select[data-seat=\"0\"]")
        .await
        .select_by_value("engine")
        .await
        .expect("handed over");
    wait_until(
        client,
        "the engine's turn for Red",
        "return state.moves.length >= 3;",
    )
    .await;
    find(client, "#seats select[data-seat=\"0\"]")
        .await
        .select_by_value("human")
        .await
        .expect("taken back");
    wait_until(
        client,
        "Red's turn again",
        "return state.to_move === 0 && !state.thinking && state.seats[0].kind === 'human';",
    )
    .await;
    let record = js(
        client,
        "return fetch(document.getElementById('export').href).then((r) => r.text());",
    )
    .await;
    let record = record.as_str().expect("a record");
    assert!(
        record.contains("engines=pessoa até o turno 2 e depois damas nível 4"),
        "{record}"
    );
    // A two-player Chinese result names the seats as the board does.
    click(client, "#resign").await;
    click(client, "#resign-yes").await;
    let result = text(client, "#result:not([hidden])").await;
    assert!(result.starts_with("Vitória de Azul"), "{result}");
    assert!(!result.contains("p1") && !result.contains("p2"), "{result}");

    // A person's time runs out: the notice names the seat, in Portuguese.
    js(
        client,
        "return api('POST', '/api/games', {game: 'spanish', seats: [{kind: 'human'}, {kind: 'human'}], turn_seconds: 1})\
           .then((s) => { history.pushState(null, '', '/g/' + s.id); setState(s); return true; });",
    )
    .await;
    wait_until(
        client,
        "the timeout notice",
        "return document.getElementById('notice').textContent !== '';",
    )
    .await;
    let notice = text(client, "#notice").await;
    assert_eq!(notice, "O tempo de Brancas acabou: a CPU jogou.");
}

async fn english(client: &Client) {
    switch_language(client, "en", "Undo").await;
    // Undo in a game with engines only takes back one turn.
    new_game(client, "chinese", 3, &["engine", "engine", "engine"], "").await;
    wait_until(client, "a dozen turns", "return state.moves.length >= 12;").await;
    // Every state the page draws from the click on is watched: the undo's
    // own answer among them.
    let before = js(
        client,
        "window.fewest = state.moves.length; window.undone = false; \
         const draw = setState; setState = (next) => { window.fewest = Math.min(window.fewest, next.moves.length); draw(next); }; \
         const send = act; act = async (...args) => { await send(...args); window.undone = true; }; \
         return state.moves.length;",
    )
    .await;
    click(client, "#undo").await;
    wait_until(client, "the undo", "return window.undone;").await;
    let after = js(client, "return window.fewest;").await;
    let (before, after) = (before.as_u64().unwrap_or(0), after.as_u64().unwrap_or(0));
    assert!(
        after + 1 >= before,
        "{before} turns, {after} after the undo"
    );

    // Six random engines past ply 100: every move number is shown whole.
    fill_form(
        client,
        "chinese",
        6,
        &["engine", "engine", "engine", "engine", "engine", "engine"],
        "",
    )
    .await;
    for i in 0..6 {
        find(client, &format!("#seat-setup [data-seat=\"{i}\"] .level"))
            .await
            .select_by_value("1")
            .await
            .expect("level 1");
    }
    click(client, "#start").await;
    wait_until(
        client,
        "130 turns",
        "return state !== null && state.players === 6 && state.moves.length >= 130;",
    )
    .await;
    let number = js(
        client,
        "const list = document.getElementById('moves'); const no = list.children[129].querySelector('.no'); \
         const a = no.getBoundingClientRect(), b = list.getBoundingClientRect(); \
         return [no.textContent, a.left >= b.left && a.right <= b.right && no.scrollWidth <= no.clientWidth + 1];",
    )
    .await;
    assert_eq!(number, json!(["130.", true]));
    settled(client).await;
    screenshot(client, "en-chinese-6").await;
}

/// `damas serve --max-think-ms 300`: the form offers no time past the cap
/// and its defaults start a game.
pub async fn think_time_cap(client: &Client, server: &Server) {
    client.goto(&server.url).await.expect("the page opens");
    find(client, "#seat-setup .think").await;
    let offered = js(
        client,
        "return [...document.querySelectorAll('#seat-setup [data-seat=\"1\"] .think option')].map((o) => o.value).join(',') \
           + ' ' + document.querySelector('#seat-setup [data-seat=\"1\"] .think').value;",
    )
    .await;
    assert_eq!(offered, "100,300 300");
    click(client, "#start").await;
    wait_until(
        client,
        "the game",
        "return state !== null && document.getElementById('setup').hidden;",
    )
    .await;
    assert_eq!(js(client, "return state.seats[1].think_ms;").await, 300);
    assert_eq!(count(client, "#setup-error:not(:empty)").await, 0);
}

/// A phone: the page follows its Portuguese, the star's cells are touch
/// targets of 32 CSS px at least, the status line is on screen and the
/// page never scrolls sideways.
pub async fn phone(client: &Client, server: &Server) {
    client.goto(&server.url).await.expect("the page opens");
    wait_until(
        client,
        "the Portuguese page",
        "return document.documentElement.lang === 'pt' && document.getElementById('start').textContent === 'Começar';",
    )
    .await;
    let fits = "return document.documentElement.scrollWidth <= window.innerWidth;";
    assert_eq!(js(client, fits).await, Value::Bool(true));
    new_game(
        client,
        "chinese",
        6,
        &["human", "engine", "engine", "engine", "engine", "engine"],
        "",
    )
    .await;
    let cell = js(
        client,
        "return Math.min(...[...document.querySelectorAll('#board .hit')].map((h) => h.getBoundingClientRect().width));",
    )
    .await;
    assert!(cell.as_f64().unwrap_or(0.0) >= 32.0, "cells of {cell} px");
    let status_visible = "const r = document.getElementById('status').getBoundingClientRect(); \
        return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;";
    assert_eq!(js(client, status_visible).await, Value::Bool(true));
    assert_eq!(js(client, fits).await, Value::Bool(true));
    play(client, "e4", "e5", "step").await;
    wait_until(
        client,
        "the five engines",
        "return state.moves.length === 6 && state.to_move === 0;",
    )
    .await;
    settled(client).await;
    phone_screenshot(client, "phone-pt-chinese-6").await;
    new_game(client, "spanish", 2, &["human", "engine"], "").await;
    assert_eq!(js(client, status_visible).await, Value::Bool(true));
    assert_eq!(js(client, fits).await, Value::Bool(true));
    phone_screenshot(client, "phone-pt-spanish").await;
}

async fn phone_screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.expect("a screenshot");
    let path = super::screenshot_dir().join(format!("{name}.png"));
    std::fs::write(&path, png).expect("screenshot saved");
    eprintln!("screenshot: {}", path.display());
}
