//! The web board in a real browser: headless Chromium driven over
//! WebDriver (chromedriver) opens the page, sets up each game with the
//! form, plays by clicking, sees the engine answer and the legal-move
//! marks, finishes a game from a near-final position, survives a reload and
//! saves a screenshot of each game.
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (`./test`
//! installs them). Set `DAMAS_SKIP_BROWSER=1` to skip the test on a machine
//! without them.

#[path = "support/web_server.rs"]
mod web_server;

#[path = "support/browser.rs"]
mod browser;
use browser::{
    click, connect, count, fill_seats, find, play, screenshot, screenshot_dir, start_driver,
    switch_language, wait_until, Device, Driver, DESKTOP,
};

#[path = "support/browser_checks.rs"]
mod browser_checks;
use browser_checks::{languages_and_moves, think_time_cap};

use fantoccini::Client;
use serde_json::json;
use web_server::Server;

async fn move_count(client: &Client) -> usize {
    let value = client
        .execute("return state ? state.moves.length : -1;", vec![])
        .await
        .expect("the script runs");
    value.as_u64().map_or(0, |n| n as usize)
}

/// Fills the new-game form and starts: `seats` as (kind, think_ms).
async fn new_game(client: &Client, game: &str, players: usize, seats: &[&str], position: &str) {
    fill_form(client, game, players, seats, position).await;
    click(client, "#start").await;
    wait_until(client, "the new game", "return document.getElementById('setup').hidden && state !== null && state.to_move !== undefined;").await;
}

/// Opens the new-game form and fills it (each seat's time 0.1 s).
async fn fill_form(client: &Client, game: &str, players: usize, seats: &[&str], position: &str) {
    click(client, "#show-setup").await;
    find(client, "#game")
        .await
        .select_by_value(game)
        .await
        .expect("game chosen");
    find(client, "#players")
        .await
        .select_by_value(&players.to_string())
        .await
        .expect("players chosen");
    fill_seats(client, seats, position).await;
}

#[test]
fn the_board_plays_every_game_in_headless_chromium() {
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
        browse(&client).await;
        languages_and_moves(&client, &server).await;
        let capped = Server::start(&["--max-think-ms", "300"]);
        think_time_cap(&client, &capped).await;
        client.close().await.expect("the browser closes");
        let phone = connect(&driver, &browser_checks::PHONE).await;
        browser_checks::phone(&phone, &server).await;
        phone.close().await.expect("the phone closes");
        group_from_two_devices(&driver, &server).await;
    });
}

/// Two browsers asking for Spanish, two devices: each its own cookies.
const SPANISH: Device = Device {
    phone: false,
    languages: "es-ES,es",
};

/// A group of two devices: Ana creates it with the form and sees the
/// invitation link, Bea opens the link and joins, Ana starts the game;
/// each board plays only its own seat, and the seat tokens stay out of
/// the script's reach.
async fn group_from_two_devices(driver: &Driver, server: &Server) {
    let ana = connect(driver, &SPANISH).await;
    let bea = connect(driver, &SPANISH).await;
    ana.goto(&server.url).await.expect("the page opens");
    fill_form(&ana, "spanish", 2, &["human", "human"], "").await;
    find(&ana, "#group-name")
        .await
        .send_keys("Ana")
        .await
        .expect("typed");
    click(&ana, "#create-group").await;
    wait_until(&ana, "the group", "return group !== null;").await;
    let link: String = ana
        .execute(
            "return document.getElementById('group-link').value;",
            vec![],
        )
        .await
        .expect("the link")
        .as_str()
        .expect("a text")
        .to_string();
    assert!(link.contains("/j/"), "{link}");
    bea.goto(&link).await.expect("the link opens");
    find(&bea, "#join-name")
        .await
        .send_keys("Bea")
        .await
        .expect("typed");
    click(&bea, "#group-join-button").await;
    wait_until(
        &bea,
        "Bea joined",
        "return groupYou.length === 1 && groupYou[0] === 2;",
    )
    .await;
    wait_until(
        &ana,
        "Bea in the list",
        "return group.members.length === 2;",
    )
    .await;
    click(&ana, "#group-start").await;
    wait_until(
        &bea,
        "the game on Bea's board",
        "return state !== null && state.group != null;",
    )
    .await;
    // White (Ana) to move: Bea's board offers no piece, Ana's four.
    assert_eq!(count(&bea, "#board g.pt.movable").await, 0);
    assert_eq!(
        bea.execute("return document.cookie;", vec![])
            .await
            .expect("the cookies"),
        json!("")
    );
    wait_until(
        &ana,
        "Ana's turn",
        "return state !== null && humanToMove();",
    )
    .await;
    assert_eq!(count(&ana, "#board g.pt.movable").await, 4);
    play(&ana, "11", "15", "step").await;
    wait_until(
        &bea,
        "Bea's turn",
        "return state.moves.length === 1 && humanToMove();",
    )
    .await;
    assert_eq!(count(&bea, "#board g.pt.movable").await, 4);
    // Bea plays Black: her board faces her.
    wait_until(
        &bea,
        "the board turned",
        "return document.getElementById('flip').checked;",
    )
    .await;
    screenshot(&bea, "group-es").await;
    ana.close().await.expect("the browser closes");
    bea.close().await.expect("the browser closes");
}

async fn browse(client: &Client) {
    // Spanish draughts against the engine: only the four front men are
    // selectable, 11 may step to 14 and 15, the engine answers.
    new_game(client, "spanish", 2, &["human", "engine"], "").await;
    assert_eq!(count(client, "#board g.pt.movable").await, 4);
    play(client, "11", "15", "step").await;
    wait_until(client, "the move", "return state.moves.length >= 1;").await;
    assert_eq!(count(client, "#board .mark").await, 0);
    wait_until(
        client,
        "the engine's answer",
        "return state.moves.length === 2 && state.to_move === 0;",
    )
    .await;
    assert_eq!(count(client, "#moves li").await, 1);
    // The game is in the URL and survives a reload.
    let url = client.current_url().await.expect("a URL");
    assert!(url.path().starts_with("/g/"), "{url}");
    client.refresh().await.expect("reloaded");
    wait_until(
        client,
        "the game after the reload",
        "return state !== null && state.moves.length === 2;",
    )
    .await;
    click(client, "#numbers").await;
    click(client, "#analysis-on").await;
    screenshot(client, "spanish").await;
    // Undo against the engine gives the person the turn back.
    click(client, "#undo").await;
    wait_until(client, "the undo", "return state.moves.length === 0;").await;

    // Two captures share from and to: the person picks one, it promotes.
    new_game(
        client,
        "spanish",
        2,
        &["human", "human"],
        "W:W14:B18,19,26,27",
    )
    .await;
    play(client, "14", "30", "capture").await;
    find(client, "#chooser:not([hidden]) .choice").await;
    assert_eq!(count(client, "#chooser .choice").await, 2);
    screenshot(client, "spanish-choice").await;
    click(client, "#chooser .choice").await;
    find(client, "#board [data-name=\"30\"] .piece[data-king=\"1\"]").await;

    // A near-final position played to the end.
    new_game(client, "spanish", 2, &["human", "human"], "W:W18:B22").await;
    play(client, "18", "27", "capture").await;
    let result = find(client, "#result:not([hidden])")
        .await
        .text()
        .await
        .expect("text");
    assert!(result.contains("White wins"), "{result}");
    assert!(result.contains("the loser has no pieces"), "{result}");
    screenshot(client, "spanish-end").await;

    // Chinese checkers, two players: steps and chain ends are told apart.
    new_game(client, "chinese", 2, &["human", "engine"], "").await;
    click(client, "#board [data-name=\"e4\"]").await;
    find(client, "#board [data-name=\"e5\"] .mark.step").await;
    play(client, "e3", "e5", "jump").await;
    wait_until(
        client,
        "the engine's answer",
        "return state.moves.length === 2 && state.to_move === 0;",
    )
    .await;
    screenshot(client, "chinese-2").await;

    // Six players, five of them engines: a round comes back to p1.
    new_game(
        client,
        "chinese",
        6,
        &["human", "engine", "engine", "engine", "engine", "engine"],
        "",
    )
    .await;
    play(client, "e4", "e5", "step").await;
    wait_until(
        client,
        "the five engines",
        "return state.moves.length === 6 && state.to_move === 0;",
    )
    .await;
    screenshot(client, "chinese-6").await;

    // The Japanese variant, three players.
    new_game(client, "japanese", 3, &["human", "engine", "engine"], "").await;
    let from = client
        .execute("return state.movable[0];", vec![])
        .await
        .expect("a movable piece");
    let from = from.as_str().expect("a cell").to_string();
    click(client, &format!("#board [data-name=\"{from}\"]")).await;
    let target = find(client, "#board .mark").await;
    let target = client
        .execute(
            "return arguments[0].parentNode.getAttribute('data-name');",
            vec![json!(target)],
        )
        .await
        .expect("the target");
    click(client, &format!("#board [data-name={}]", target)).await;
    wait_until(
        client,
        "the two engines",
        "return state.moves.length === 3 && state.to_move === 0;",
    )
    .await;
    assert!(move_count(client).await == 3);
    screenshot(client, "japanese-3").await;

    // Solitaire: one army alone.
    new_game(client, "chinese", 1, &["human"], "").await;
    play(client, "e3", "g5", "jump").await;
    wait_until(
        client,
        "the move",
        "return state.moves.length === 1 && state.to_move === 0;",
    )
    .await;
}
