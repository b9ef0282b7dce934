//! The web board's draughts variants in a real browser: headless Chromium
//! driven over WebDriver sets up Russian and Brazilian games with the
//! form's Variant select, plays by clicking (steps, captures, a Russian man
//! crowned in the middle of a capture), and checks the board's orientation
//! (a1 at White's lower left, a dark square), the move list in the
//! variant's notation (algebraic, `:` for Russian captures, `x` for
//! Brazilian ones), the title and the engine's answers. Saves a screenshot
//! of the Russian board in each language of the page (`russian-es.png`,
//! `russian-pt.png`, `russian-en.png`).
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (`./test`
//! installs them). Set `DAMAS_SKIP_BROWSER=1` to skip the test on a machine
//! without them.

#[path = "support/web_server.rs"]
mod web_server;

#[path = "support/browser.rs"]
mod browser;
use browser::{
    choose, click, connect, count, fill_seats, find, play, screenshot, start_driver,
    switch_language, wait_until, DESKTOP,
};

use fantoccini::Client;
use serde_json::Value;
use web_server::Server;

/// Opens the new-game form, chooses draughts in `variant` with the seats
/// `seats` (each engine at 0.1 s) and the start position `position`
/// (empty: the start), and starts.
async fn new_game(client: &Client, variant: &str, seats: &[&str], position: &str) {
    click(client, "#show-setup").await;
    find(client, "#game")
        .await
        .select_by_value("spanish")
        .await
        .expect("draughts chosen");
    find(client, "#rule-Variant")
        .await
        .select_by_value(variant)
        .await
        .expect("variant chosen");
    fill_seats(client, seats, position).await;
    click(client, "#start").await;
    wait_until(
        client,
        "the new game",
        "return document.getElementById('setup').hidden && state !== null && state.to_move !== undefined;",
    )
    .await;
    let rules = client
        .execute("return state.settings.rules.Variant;", vec![])
        .await
        .expect("the script runs");
    assert_eq!(rules, Value::from(variant));
}

/// The texts of the move list as shown, move numbers left out.
async fn shown_moves(client: &Client) -> Vec<String> {
    let value = client
        .execute(
            "return Array.from(document.querySelectorAll('#moves li .mv')).map((m) => m.textContent.trim());",
            vec![],
        )
        .await
        .expect("the script runs");
    value
        .as_array()
        .expect("a list")
        .iter()
        .map(|text| text.as_str().unwrap_or("").to_string())
        .collect()
}

/// The board's orientation: a1 is drawn at the lower left, h8 at the upper
/// right, both dark squares, with White's men on rows 1–3 at the bottom.
async fn check_orientation(client: &Client, what: &str) {
    let script = "
        const at = (name) => {
          const g = document.querySelector(`#board [data-name=\"${name}\"]`);
          if (!g) return null;
          const r = g.getBoundingClientRect();
          return [r.left + r.width / 2, r.top + r.height / 2];
        };
        const a1 = at('a1'), h8 = at('h8'), h2 = at('h2'), b8 = at('b8');
        return a1 !== null && h8 !== null && h2 !== null && b8 !== null
          && a1[0] < h2[0] && a1[1] > h8[1] && h8[0] > b8[0] && h2[1] > b8[1]
          && state.board.points.find((p) => p.name === 'a1').x === 0
          && state.board.points.find((p) => p.name === 'a1').y === 0;";
    wait_until(client, what, script).await;
}

async fn title(client: &Client) -> String {
    find(client, "#title")
        .await
        .text()
        .await
        .expect("the title's text")
}

#[test]
fn russian_and_brazilian_draughts_on_the_web_board() {
    if std::env::var_os("DAMAS_SKIP_BROWSER").is_some() {
        eprintln!("DAMAS_SKIP_BROWSER set: browser test skipped");
        return;
    }
    let server = Server::start(&[]);
    let driver = start_driver();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let client = connect(&driver, &DESKTOP).await;
        client.goto(&server.url).await.expect("the page opens");
        russian(&client).await;
        brazilian(&client).await;
        russian_group(&client, &server).await;
        client.close().await.expect("the browser closes");
    });
}

async fn russian(client: &Client) {
    // Two people from the start: the front men step, then a capture.
    new_game(client, "russian", &["human", "human"], "").await;
    check_orientation(client, "a1 at White's lower left").await;
    assert!(title(client).await.contains("Russian draughts"));
    assert_eq!(count(client, "#board g.pt.movable").await, 4);
    play(client, "c3", "d4", "step").await;
    play(client, "f6", "e5", "step").await;
    // The capture is mandatory: only d4 may move, and it takes e5.
    wait_until(
        client,
        "the capture on offer",
        "return state.movable.length === 1 && state.movable[0] === 'd4';",
    )
    .await;
    play(client, "d4", "f6", "capture").await;
    wait_until(client, "the capture", "return state.moves.length === 3;").await;
    assert_eq!(shown_moves(client).await, ["c3-d4", "f6-e5", "d4:f6"]);
    // Black takes back, backward or forward: e7 or g7 over f6.
    play(client, "g7", "e5", "capture").await;
    wait_until(
        client,
        "the capture back",
        "return state.moves.length === 4;",
    )
    .await;
    assert_eq!(
        shown_moves(client).await,
        ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]
    );

    // A capture of two is mandatory, but in Russian draughts not because
    // it takes the most: a click on another piece says so.
    new_game(client, "russian", &["human", "human"], "W:Wc5,a1:Bd4,f4,h8").await;
    click(client, "#board [data-name=\"a1\"]").await;
    wait_until(
        client,
        "the refusal",
        "return document.getElementById('hint').textContent === 'A capture is mandatory (with c5).';",
    )
    .await;
    play(client, "c5", "g5", "capture").await;
    wait_until(client, "the capture", "return state.moves.length === 1;").await;
    assert_eq!(shown_moves(client).await, ["c5:e3:g5"]);

    // A man crowned in the middle of a capture flies on as a king: h6
    // over g7 onto f8, then down the long diagonal over b4 onto a3.
    new_game(client, "russian", &["human", "human"], "W:Wh6,c1:Bg7,b4,h8").await;
    click(client, "#board [data-name=\"h6\"]").await;
    find(client, "#board [data-name=\"a3\"] .mark.capture").await;
    click(client, "#board [data-name=\"a3\"]").await;
    wait_until(
        client,
        "the crowned capture",
        "return state.moves.length === 1;",
    )
    .await;
    assert_eq!(shown_moves(client).await, ["h6:f8:a3"]);
    let last = client
        .execute("return [state.last.path, state.last.captured];", vec![])
        .await
        .expect("the script runs");
    assert_eq!(
        last,
        serde_json::json!([["h6", "f8", "a3"], ["g7", "b4"]]),
        "the path drawn"
    );
    find(client, "#board [data-name=\"a3\"] .piece[data-king=\"1\"]").await;
    click(client, "#numbers").await;
    for (lang, undo, game) in [
        ("es", "Deshacer", "Damas rusas"),
        ("pt", "Desfazer", "Damas russas"),
        ("en", "Undo", "Russian draughts"),
    ] {
        switch_language(client, lang, undo).await;
        let shown = title(client).await;
        assert!(shown.contains(game), "{lang}: {shown}");
        screenshot(client, &format!("russian-{lang}")).await;
    }
    click(client, "#numbers").await;

    // Against the engine: it answers in the variant's notation.
    new_game(client, "russian", &["human", "engine"], "").await;
    play(client, "e3", "f4", "step").await;
    wait_until(
        client,
        "the engine's answer",
        "return state.moves.length === 2 && state.to_move === 0;",
    )
    .await;
    let moves = shown_moves(client).await;
    assert_eq!(moves[0], "e3-f4");
    let answer = moves[1].as_bytes();
    assert!(
        answer.len() == 5
            && (b'a'..=b'h').contains(&answer[0])
            && (b'6'..=b'7').contains(&answer[1])
            && answer[2] == b'-',
        "{moves:?}"
    );
}

async fn brazilian(client: &Client) {
    new_game(
        client,
        "brazilian",
        &["human", "human"],
        "W:Wd6,c1:Bc7,e7,g7",
    )
    .await;
    check_orientation(client, "a1 at White's lower left").await;
    assert!(title(client).await.contains("Brazilian draughts"));
    click(client, "#board [data-name=\"c1\"]").await;
    wait_until(
        client,
        "the refusal",
        "return document.getElementById('hint').textContent === 'Maximum capture: you must take 2 pieces (with d6).';",
    )
    .await;
    // The most pieces: d6 takes two, over e7 onto f8 (not crowned: the
    // capture goes on) and back over g7 onto h6.
    play(client, "d6", "h6", "capture").await;
    wait_until(client, "the capture", "return state.moves.length === 1;").await;
    assert_eq!(shown_moves(client).await, ["d6xf8xh6"]);
    find(client, "#board [data-name=\"h6\"] .piece:not([data-king])").await;
    // A backward capture by a man: c7 may not, but a man on e5 over d4.
    new_game(client, "brazilian", &["human", "engine"], "W:We5,a1:Bd4,h8").await;
    play(client, "e5", "c3", "capture").await;
    wait_until(
        client,
        "the engine's answer",
        "return state.moves.length === 2 && state.to_move === 0;",
    )
    .await;
    let moves = shown_moves(client).await;
    assert_eq!(moves[0], "e5xc3");
    assert!(moves[1].starts_with("h8-"), "{moves:?}");
    screenshot(client, "brazilian-en").await;
}

/// A group made with the form for Russian draughts: its invitation names
/// the variant, and its game is played by the variant's rules.
async fn russian_group(client: &Client, server: &Server) {
    client.goto(&server.url).await.expect("the page opens");
    wait_until(
        client,
        "the form",
        "return setup !== null && document.getElementById('rule-Variant') !== null;",
    )
    .await;
    choose(client, "#game", "spanish").await;
    choose(client, "#rule-Variant", "russian").await;
    find(client, "#group-name")
        .await
        .send_keys("Ana")
        .await
        .expect("typed");
    click(client, "#create-group").await;
    wait_until(
        client,
        "the group",
        "return group !== null && group.settings.rules.Variant === 'russian';",
    )
    .await;
    let shown = find(client, "#group-game")
        .await
        .text()
        .await
        .expect("the game's line");
    assert!(shown.ends_with("Russian draughts"), "{shown}");
}
