//! Group play on the web board from several devices, in real browsers:
//! each device a WebDriver session of headless Chromium with its own
//! profile (its own cookie jar), all hosted by one chromedriver. Three
//! people, in Spanish and Portuguese, play a Chinese checkers group game
//! to its end by clicks, each move on the page of the device holding the
//! seat; one of them leaves and comes back while the engine plays for
//! them; a device that does not hold the seat to move is read-only and
//! refused by the server in its page's language. A group's creator
//! changes its settings between games with the setup form, which no other
//! member's page offers, and the other page shows them live. Each screen
//! is saved under `target/tmp/screenshots/` (`group-*.png`).
//!
//! The `#[ignore]`d test measures the live-update delay between two
//! browsers (docs/SERVE.md, "Live updates"): it prints figures and
//! asserts none, as the project has no timed tests.
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (`./test`
//! installs them). Set `DAMAS_SKIP_BROWSER=1` to skip.

#[path = "support/web_server.rs"]
mod web_server;

#[path = "support/browser.rs"]
mod browser;
use browser::{
    choose, click, connect, count, find, screenshot, screenshot_dir, start_driver, wait_until,
    Device,
};

use fantoccini::Client;
use serde_json::{json, Value};
use web_server::Server;

/// A desktop browser asking for Spanish.
const SPANISH: Device = Device {
    phone: false,
    languages: "es-ES,es",
};

/// A desktop browser asking for Brazilian Portuguese.
const PORTUGUESE: Device = Device {
    phone: false,
    languages: "pt-BR,pt",
};

fn skipped() -> bool {
    let skip = std::env::var_os("DAMAS_SKIP_BROWSER").is_some();
    if skip {
        eprintln!("DAMAS_SKIP_BROWSER set: browser test skipped");
    }
    skip
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

async fn js(client: &Client, script: &str) -> Value {
    client
        .execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("{script}: {e}"))
}

async fn js_text(client: &Client, script: &str) -> String {
    match js(client, script).await {
        Value::String(text) => text,
        other => panic!("{script}: {other} is no text"),
    }
}

async fn text(client: &Client, css: &str) -> String {
    find(client, css).await.text().await.expect("a text")
}

/// Waits until this page has seen `n` moves and no piece is moving.
async fn sees_moves(client: &Client, n: usize) {
    wait_until(
        client,
        &format!("{n} moves on the board"),
        &format!(
            "return state !== null && state.moves.length >= {n} && !document.querySelector('#board .moving');"
        ),
    )
    .await;
}

/// On this device's turn, clicks one of its pieces (which one follows the
/// number of moves played, so that a run repeats) and waits
/// for the marks of its landing points; the piece's name.
async fn select_a_piece(client: &Client) -> String {
    wait_until(
        client,
        "this device's turn",
        "return state !== null && humanToMove() && state.movable.length > 0 \
         && !document.querySelector('#board .moving');",
    )
    .await;
    let from = js_text(
        client,
        "return state.movable[state.moves.length % state.movable.length];",
    )
    .await;
    click(client, &format!("#board [data-name=\"{from}\"]")).await;
    find(client, "#board .mark").await;
    from
}

/// Clicks one of the marked landing points (chosen as the piece is) and
/// waits until
/// the page shows the move played.
async fn play_marked(client: &Client) {
    let before = js(client, "return state.moves.length;").await;
    let before = before.as_u64().expect("a count");
    let target = js_text(
        client,
        "const marks = document.querySelectorAll('#board .mark'); \
         return marks[state.moves.length % marks.length].parentNode.getAttribute('data-name');",
    )
    .await;
    click(client, &format!("#board [data-name=\"{target}\"]")).await;
    wait_until(
        client,
        "the move played",
        &format!("return state.moves.length >= {};", before + 1),
    )
    .await;
}

/// Plays a move by clicks on this device's page.
async fn click_a_move(client: &Client) {
    select_a_piece(client).await;
    play_marked(client).await;
}

/// Every page has seen `n` moves.
async fn all_see(pages: &[&Client], n: usize) {
    for page in pages {
        sees_moves(page, n).await;
    }
}

/// Opens the invitation link and joins the group as `name`; this
/// device's member number is `member`.
async fn join(client: &Client, link: &str, name: &str, member: u64) {
    client.goto(link).await.expect("the link opens");
    find(client, "#join-name")
        .await
        .send_keys(name)
        .await
        .expect("typed");
    click(client, "#group-join-button").await;
    wait_until(
        client,
        &format!("{name} joined"),
        &format!("return groupYou.length === 1 && groupYou[0] === {member};"),
    )
    .await;
}

/// The seat's name as this page writes it, checked to be translated (not
/// the server's English name).
async fn seat_word(client: &Client, seat: usize) -> String {
    let word = js_text(client, &format!("return seatName({seat});")).await;
    let english = js_text(client, &format!("return state.player_names[{seat}];")).await;
    assert_ne!(word, english, "the seat's name is not translated");
    word
}

#[test]
fn three_devices_play_a_group_game_to_the_end_one_leaving_and_coming_back() {
    if skipped() {
        return;
    }
    let server = Server::start(&["--away-secs", "1"]);
    let driver = start_driver();
    runtime().block_on(async {
        let ana = connect(&driver, &SPANISH).await;
        let bea = connect(&driver, &PORTUGUESE).await;
        let cai = connect(&driver, &SPANISH).await;
        three_devices(&server, &ana, &bea, &cai).await;
        pacing(&bea).await;
        for client in [ana, bea, cai] {
            client.close().await.expect("the browser closes");
        }
    });
}

/// Ana, on a Spanish page, makes a Chinese checkers group with the form
/// (a screenshot of the form named `shot`, if given): its invitation link.
async fn create_chinese_group(server: &Server, ana: &Client, shot: Option<&str>) -> String {
    ana.goto(&server.url).await.expect("the page opens");
    wait_until(
        ana,
        "the Spanish form",
        "return document.documentElement.lang === 'es' && setup !== null \
         && document.getElementById('create-group').textContent === 'Crear grupo';",
    )
    .await;
    choose(ana, "#game", "chinese").await;
    find(ana, "#group-name")
        .await
        .send_keys("Ana")
        .await
        .expect("typed");
    if let Some(name) = shot {
        screenshot(ana, name).await;
    }
    click(ana, "#create-group").await;
    wait_until(ana, "the group", "return group !== null;").await;
    js_text(ana, "return document.getElementById('group-link').value;").await
}

/// Ana (Spanish) creates a three-player Chinese checkers group, Bea
/// (Portuguese) and Cai (Spanish) join from the link; Bea's page is
/// read-only on Ana's turn and the server refuses it Ana's seat; Cai
/// leaves, the engine plays his turn and every page says so, Cai comes
/// back and plays his seat again; Ana and Bea resign and Cai wins, the
/// standings on every page.
async fn three_devices(server: &Server, ana: &Client, bea: &Client, cai: &Client) {
    let link = create_chinese_group(server, ana, Some("group-es-create")).await;
    assert!(link.contains("/j/"), "{link}");
    assert_eq!(text(ana, "#group-start").await, "Empezar la partida");
    screenshot(ana, "group-es-invitation").await;

    // Bea's page, in Portuguese, offers to join.
    bea.goto(&link).await.expect("the link opens");
    wait_until(
        bea,
        "the Portuguese invitation",
        "return document.documentElement.lang === 'pt' && group !== null;",
    )
    .await;
    assert_eq!(text(bea, "#group-game").await, "Jogo: Damas chinesas");
    assert_eq!(text(bea, "#group-join h3").await, "Entrar no grupo");
    assert_eq!(text(bea, "#group-join-button").await, "Entrar");
    assert_eq!(count(bea, "#group-start:not([hidden])").await, 0);
    screenshot(bea, "group-pt-join").await;
    join(bea, &link, "Bea", 2).await;
    join(cai, &link, "Cai", 3).await;
    assert_eq!(
        text(cai, "#group-waiting").await,
        "Esperando a que quien creó el grupo empiece la partida."
    );
    screenshot(cai, "group-es-waiting").await;
    wait_until(ana, "three members", "return group.members.length === 3;").await;
    click(ana, "#group-start").await;
    let pages = [ana, bea, cai];
    for page in pages {
        wait_until(
            page,
            "the group's game",
            "return state !== null && state.group != null && state.players === 3;",
        )
        .await;
    }
    // No page can read a seat token.
    for page in pages {
        assert_eq!(js(page, "return document.cookie;").await, json!(""));
    }

    // Ana's turn: her page offers her pieces, Bea's none.
    let from = select_a_piece(ana).await;
    let marks = count(ana, "#board .mark").await;
    assert!(marks > 0, "no landing point marked for {from}");
    screenshot(ana, "group-es-seat").await;
    read_only(bea).await;
    play_marked(ana).await;
    all_see(&pages, 1).await;
    click_a_move(bea).await;
    all_see(&pages, 2).await;
    click_a_move(cai).await;
    all_see(&pages, 3).await;

    // Cai closes the page: once gone for --away-secs, every page says the
    // engine plays his seat, and the engine plays his turn.
    cai.goto("about:blank").await.expect("the page is left");
    let third_es = seat_word(ana, 2).await;
    let third_pt = seat_word(bea, 2).await;
    for page in [ana, bea] {
        wait_until(
            page,
            "Cai away",
            "return group.members[2].away === true && state.seats[2].kind === 'engine' \
             && state.group.seats[2].away === true;",
        )
        .await;
    }
    assert_eq!(
        text(ana, "#notice").await,
        format!(
            "El dispositivo de {third_es} se fue: la CPU juega por esa persona hasta que vuelva."
        )
    );
    assert_eq!(
        text(bea, "#notice").await,
        format!("O dispositivo de {third_pt} saiu: a CPU joga por essa pessoa até que ela volte.")
    );
    let listed = text(ana, "#group-members").await;
    assert!(
        listed.contains(&format!("Cai · {third_es} · 0 pts. · se fue: juega la CPU")),
        "{listed}"
    );
    assert!(text(bea, "#group-members")
        .await
        .contains("saiu: a CPU joga"));
    let seat = text(ana, "#seats li:nth-child(3)").await;
    assert!(seat.ends_with("jugando · se fue: juega la CPU"), "{seat}");
    screenshot(ana, "group-es-away").await;
    screenshot(bea, "group-pt-away").await;
    click_a_move(ana).await;
    click_a_move(bea).await;
    for page in [ana, bea] {
        wait_until(
            page,
            "the engine's move for Cai",
            "return state.moves.length === 6 && state.to_move === 0 && !state.thinking;",
        )
        .await;
    }

    // Cai is back from the same device: the seat is his again.
    cai.goto(&link).await.expect("the link opens again");
    for page in pages {
        wait_until(
            page,
            "Cai back",
            "return state !== null && state.seats[2].kind === 'human' \
             && state.group.seats[2].away === false && group.members[2].away === false;",
        )
        .await;
    }
    assert_eq!(js(cai, "return groupYou;").await, json!([3]));
    assert_eq!(text(ana, "#notice").await, format!("{third_es} volvió."));
    assert_eq!(text(bea, "#notice").await, format!("{third_pt} voltou."));
    click_a_move(ana).await;
    click_a_move(bea).await;
    sees_moves(cai, 8).await;
    click_a_move(cai).await;
    all_see(&pages, 9).await;
    let players: Vec<Value> = (0..9).map(|i| json!(i % 3)).collect();
    assert_eq!(
        js(ana, "return state.moves.map((m) => m.player);").await,
        json!(players)
    );

    // Ana resigns on her turn, then Bea: Cai wins.
    resign(ana).await;
    sees_moves(bea, 10).await;
    resign(bea).await;
    for page in pages {
        wait_until(
            page,
            "the result",
            "return state.result !== null && group.between_games && group.games_played === 1;",
        )
        .await;
    }
    let result = text(ana, "#result").await;
    assert!(
        result.starts_with(&format!("Victoria de {third_es}")),
        "{result}"
    );
    assert!(result.contains("se rindió"), "{result}");
    let result = text(bea, "#result").await;
    assert!(
        result.starts_with(&format!("Vitória de {third_pt}")),
        "{result}"
    );
    assert!(result.contains("desistiu"), "{result}");
    // The standings: Cai 2 points, Bea (second to resign) 1, Ana 0.
    let standings = "return group.standings.map((s) => [s.name, s.points]);";
    for page in pages {
        assert_eq!(
            js(page, standings).await,
            json!([["Cai", 2], ["Bea", 1], ["Ana", 0]])
        );
    }
    let members = text(bea, "#group-members li:first-child").await;
    assert!(
        members.starts_with(&format!("Cai · {third_pt} · 2 pts")),
        "{members}"
    );
    assert_eq!(text(ana, "#group-start").await, "Siguiente partida");
    // The creator starts the next game from beside the board too; an undo
    // is offered only to the device of the last person who played (Bea).
    assert_eq!(text(ana, "#newgame").await, "Siguiente partida");
    assert_eq!(count(bea, "#newgame:not([hidden])").await, 0);
    let undo = "return document.getElementById('undo').disabled;";
    assert_eq!(js(ana, undo).await, Value::Bool(true));
    assert_eq!(js(bea, undo).await, Value::Bool(false));
    screenshot(ana, "group-es-result").await;
    screenshot(bea, "group-pt-result").await;
    panel_screenshot(ana, "#group", "group-es-standings").await;
    panel_screenshot(bea, "#group", "group-pt-standings").await;
}

#[test]
fn the_creator_changes_the_group_settings_between_games() {
    if skipped() {
        return;
    }
    let server = Server::start(&[]);
    let driver = start_driver();
    runtime().block_on(async {
        let ana = connect(&driver, &SPANISH).await;
        let bea = connect(&driver, &PORTUGUESE).await;
        settings_between_games(&server, &ana, &bea).await;
        for client in [ana, bea] {
            client.close().await.expect("the browser closes");
        }
    });
}

/// Whether the element `css` takes room on the page (it and every
/// ancestor shown).
async fn shown(client: &Client, css: &str) -> bool {
    let script = format!("return document.querySelector('{css}').getClientRects().length > 0;");
    js(client, &script).await == Value::Bool(true)
}

/// The texts of the group's settings list on this page.
async fn settings_list(client: &Client) -> Vec<String> {
    let texts = js(
        client,
        "return [...document.querySelectorAll('#group-settings li')].map((li) => li.textContent);",
    )
    .await;
    serde_json::from_value(texts).expect("texts")
}

/// Ana (Spanish) makes a two-person Chinese checkers group and Bea
/// (Portuguese) joins. Only Ana's page has "Change settings"; it opens
/// the setup form with the group's settings. A CPU seat too many for
/// Spanish draughts is refused with the server's code, said in Spanish.
/// Ana sets 30 s a turn, no legal-move marks and goal lock; Bea's page
/// shows them without reloading; a save from Bea's page is refused in
/// Portuguese. The game Ana starts has the new clock and rule and draws
/// no legal-move rings; during it the control is disabled and a form left
/// open is refused; once the game is over the control is enabled again.
async fn settings_between_games(server: &Server, ana: &Client, bea: &Client) {
    let link = create_chinese_group(server, ana, None).await;
    assert!(shown(ana, "#group-change").await);
    assert_eq!(text(ana, "#group-change").await, "Cambiar los ajustes");
    let enabled = "return !document.getElementById('group-change').disabled;";
    assert_eq!(js(ana, enabled).await, Value::Bool(true));

    join(bea, &link, "Bea", 2).await;
    assert!(
        !shown(bea, "#group-change").await,
        "a member's page offers the settings"
    );
    assert_eq!(
        settings_list(bea).await[0..3],
        [
            "Tempo por turno: sem limite",
            "Mostrar jogadas legais: sim",
            "Alternar quem começa: sim"
        ]
    );
    // Gone if the page were loaded again.
    js(bea, "window.notReloaded = true; return true;").await;

    // The form, set to the group's settings.
    wait_until(
        ana,
        "Bea in the group",
        "return group.members.length === 2;",
    )
    .await;
    click(ana, "#group-change").await;
    wait_until(ana, "the settings form", "return groupSettingsShown();").await;
    assert_eq!(
        text(ana, "#setup h2:not([hidden])").await,
        "Ajustes del grupo"
    );
    assert!(shown(ana, "#save-settings").await);
    for hidden in [
        "#start",
        "#create-group",
        "#group-name",
        "#players",
        "#position",
    ] {
        assert!(!shown(ana, hidden).await, "{hidden} is offered");
    }
    assert_eq!(
        js(
            ana,
            "return [$('game').value, $('turn-seconds').value, $('group-show-legal').checked, \
             $('rotate-first').checked, $('rule-GoalLock').checked, $('rule-MoveLimit').value, \
             $('group-engine-count').value];"
        )
        .await,
        json!(["chinese", "0", true, true, false, "200", "0"])
    );

    // Spanish draughts for two people and a CPU seat: three players.
    choose(ana, "#game", "spanish").await;
    find(ana, "#group-engine-count")
        .await
        .select_by_index(1)
        .await
        .expect("a CPU seat");
    click(ana, "#save-settings").await;
    wait_until(
        ana,
        "the refusal",
        "return document.getElementById('setup-error').textContent !== '';",
    )
    .await;
    assert_eq!(
        text(ana, "#setup-error").await,
        "Este juego es de 2 jugadores (personas y CPU), no 3."
    );
    assert!(js(ana, "return groupSettingsShown();").await == Value::Bool(true));
    screenshot(ana, "group-es-settings-refused").await;

    // Chinese checkers again, 30 s a turn, no marks, goal lock.
    choose(ana, "#game", "chinese").await;
    find(ana, "#group-engine-count")
        .await
        .select_by_index(0)
        .await
        .expect("no CPU seat");
    choose(ana, "#turn-seconds", "30").await;
    click(ana, "#group-show-legal").await;
    click(ana, "#rule-GoalLock").await;
    screenshot(ana, "group-es-settings").await;
    // The form in Portuguese keeps the choices.
    switch_language(ana, "pt").await;
    assert_eq!(
        text(ana, "#setup h2:not([hidden])").await,
        "Configurações do grupo"
    );
    assert_eq!(text(ana, "#save-settings").await, "Salvar as configurações");
    assert_eq!(
        js(
            ana,
            "return [$('turn-seconds').value, $('group-show-legal').checked, $('rule-GoalLock').checked];"
        )
        .await,
        json!(["30", false, true])
    );
    screenshot(ana, "group-pt-settings").await;
    switch_language(ana, "es").await;
    click(ana, "#save-settings").await;
    wait_until(
        ana,
        "the settings saved",
        "return $('setup').hidden && group.settings.turn_seconds === 30;",
    )
    .await;

    // Bea's page shows them, live.
    wait_until(
        bea,
        "the new settings",
        "return group.settings.turn_seconds === 30 && group.settings.rules.GoalLock === true;",
    )
    .await;
    assert_eq!(
        js(bea, "return window.notReloaded;").await,
        Value::Bool(true)
    );
    let listed = settings_list(bea).await;
    for item in [
        "Tempo por turno: 30 s",
        "Mostrar jogadas legais: não",
        "Trava do destino: sim",
    ] {
        assert!(listed.iter().any(|l| l == item), "{item}: {listed:?}");
    }
    assert_eq!(
        js(bea, "return $('show-legal').checked;").await,
        Value::Bool(false)
    );
    panel_screenshot(bea, "#group", "group-pt-settings-changed").await;
    // Another member's save is refused, in Portuguese.
    assert_eq!(
        js(
            bea,
            "return saveGroupSettings().then(() => $('setup-error').textContent);"
        )
        .await,
        json!("Só quem criou o grupo pode fazer isso.")
    );
    assert_eq!(
        js(bea, "return group.settings.game;").await,
        json!("chinese")
    );

    // The game uses them.
    click(ana, "#group-start").await;
    for page in [ana, bea] {
        wait_until(
            page,
            "the group's game",
            "return state !== null && state.group != null && state.settings.turn_seconds === 30 \
             && state.settings.rules.GoalLock === true && state.turn_left_ms !== null;",
        )
        .await;
    }
    assert_eq!(js(bea, "return $('clock').value;").await, json!("30"));
    wait_until(ana, "Ana's turn", "return humanToMove();").await;
    assert!(count(ana, "#board g.pt.movable").await > 0);
    assert_eq!(count(ana, "#board .movable-ring").await, 0);
    assert_eq!(js(ana, enabled).await, Value::Bool(false));
    // A form left open when the game began is refused.
    js(ana, "openGroupSettings(); return true;").await;
    click(ana, "#save-settings").await;
    wait_until(
        ana,
        "the refusal",
        "return document.getElementById('setup-error').textContent !== '';",
    )
    .await;
    assert_eq!(
        text(ana, "#setup-error").await,
        "Eso solo se puede hacer entre partidas, no durante una."
    );
    click(ana, "#cancel-settings").await;

    // Over: the settings may change again.
    resign(ana).await;
    wait_until(
        ana,
        "the game over",
        "return state.result !== null && group.between_games;",
    )
    .await;
    assert_eq!(js(ana, enabled).await, Value::Bool(true));
}

/// Chooses the language `lang` with the page's switch and waits for its
/// texts.
async fn switch_language(client: &Client, lang: &str) {
    choose(client, "#lang", lang).await;
    wait_until(
        client,
        "the language",
        &format!("return LANG === '{lang}';"),
    )
    .await;
}

/// Saves a picture of one part of the page (`css`), scrolled into view.
async fn panel_screenshot(client: &Client, css: &str, name: &str) {
    let panel = find(client, css).await;
    client
        .execute("arguments[0].scrollIntoView();", vec![json!(panel.clone())])
        .await
        .expect("scrolled");
    let png = panel.screenshot().await.expect("a screenshot");
    assert_eq!(&png[1..4], b"PNG");
    let path = screenshot_dir().join(format!("{name}.png"));
    std::fs::write(&path, png).expect("screenshot saved");
    eprintln!("screenshot: {}", path.display());
}

/// Bea's page on Ana's turn: nothing to select, the seats' selects of the
/// others disabled, a click on Ana's piece says whose turn it is, and a
/// move sent from this browser for Ana's seat is refused 403 in
/// Portuguese.
async fn read_only(bea: &Client) {
    wait_until(bea, "Ana's turn", "return state.to_move === 0;").await;
    assert_eq!(count(bea, "#board g.pt.movable").await, 0);
    assert_eq!(
        js(
            bea,
            "return [...document.querySelectorAll('#seats select')].map((s) => s.disabled);"
        )
        .await,
        json!([true, false, true])
    );
    let red = seat_word(bea, 0).await;
    let piece = js_text(bea, "return state.movable[0];").await;
    click(bea, &format!("#board [data-name=\"{piece}\"]")).await;
    wait_until(
        bea,
        "the hint",
        "return document.getElementById('hint').textContent !== '';",
    )
    .await;
    assert_eq!(
        text(bea, "#hint").await,
        format!("Não é sua vez: {red} joga de outro dispositivo.")
    );
    assert_eq!(count(bea, "#board .mark").await, 0);
    let refused = js(
        bea,
        "return (async () => { \
           const moves = await (await fetch(`/api/games/${state.id}/moves?from=${state.movable[0]}`)).json(); \
           const reply = await fetch(`/api/games/${state.id}/move`, {method: 'POST', \
             headers: {'Content-Type': 'application/json'}, body: JSON.stringify({move: moves[0].text})}); \
           const body = await reply.json(); \
           showError(Object.assign(new Error(body.error), {code: body.code, params: body.params})); \
           return [reply.status, body.code, document.getElementById('error').textContent]; \
         })();",
    )
    .await;
    assert_eq!(
        refused,
        json!([
            403,
            "seat_not_yours",
            format!("{red} não é o seu lugar: este dispositivo não entrou no grupo com ele.")
        ])
    );
    assert_eq!(js(bea, "return state.moves.length;").await, json!(0));
    screenshot(bea, "group-pt-read-only").await;
}

/// Resigns this device's seat, confirming.
async fn resign(client: &Client) {
    wait_until(
        client,
        "this device's turn",
        "return state !== null && humanToMove();",
    )
    .await;
    click(client, "#resign").await;
    click(client, "#confirm-resign:not([hidden]) #resign-yes").await;
    wait_until(
        client,
        "the resignation",
        "return state.moves.length > 0 && state.moves[state.moves.length - 1].text === 'resign' \
         || state.result !== null;",
    )
    .await;
}

/// The live updates' pacing (app.js, showStreamed): an update that brings
/// a move is shown at once when no move is travelling on the board, and
/// waits for the move travelling otherwise; an update that brings no move
/// never waits. Checked by the order of events, not by their timing.
async fn pacing(client: &Client) {
    let shown_at_once = js(
        client,
        "const next = Object.assign({}, state, {moves: state.moves.concat([{player: 0, text: 'x'}])}); \
         animation = null; window.applied = false; \
         showStreamed(next, () => { window.applied = true; }); \
         const first = window.applied; \
         animation = {path: ['a', 'b', 'c'], start: performance.now(), key: 'paced'}; \
         window.applied = false; \
         showStreamed(next, () => { window.applied = true; }); \
         const second = window.applied; \
         window.quiet = false; \
         return [first, second];",
    )
    .await;
    assert_eq!(shown_at_once, json!([true, false]));
    wait_until(client, "the paced update", "return window.applied;").await;
    let quiet = js(
        client,
        "animation = {path: ['a', 'b'], start: performance.now(), key: 'quiet'}; \
         showStreamed(state, () => { window.quiet = true; }); \
         const at_once = window.quiet; animation = null; return at_once;",
    )
    .await;
    assert_eq!(quiet, Value::Bool(true));
}

/// Records, in a page, when each state is drawn (`window.seen[n]`: the
/// board with n moves), when a live update with n moves arrived
/// (`window.arrived[n]`) and when each move this page sent was accepted
/// (`window.accepted[n]`: the answer with n moves received), in
/// milliseconds since the epoch, comparable between the pages of one
/// machine.
const INSTRUMENT: &str = "window.seen = {}; window.arrived = {}; window.accepted = {}; \
    const now = () => performance.timeOrigin + performance.now(); \
    const draw = setState; \
    setState = (next) => { draw(next); const n = state.moves.length; if (!(n in window.seen)) window.seen[n] = now(); }; \
    const stream = showStreamed; \
    showStreamed = (next, apply) => { \
      if (next && next.moves && !(next.moves.length in window.arrived)) window.arrived[next.moves.length] = now(); \
      stream(next, apply); }; \
    const send = api; \
    api = async (method, path, body) => { \
      const reply = await send(method, path, body); \
      if (method === 'POST' && path.endsWith('/move') && reply) window.accepted[reply.moves.length] = now(); \
      return reply; }; \
    return true;";

/// The first time a page recorded `what` (see [`INSTRUMENT`]) for a
/// state with `n` moves or more: updates close together may come merged,
/// the engine's answer with the move before it.
async fn recorded(client: &Client, what: &str, n: usize) -> f64 {
    let script = format!(
        "const times = Object.entries(window.{what}).filter(([k]) => Number(k) >= {n}).map(([, v]) => v); \
         return times.length ? Math.min(...times) : null;"
    );
    js(client, &script)
        .await
        .as_f64()
        .unwrap_or_else(|| panic!("no {what} time for move {n}"))
}

/// "median M ms, p90 P ms, max X ms (min N ms)" of `times`.
fn summary(times: &mut [f64]) -> String {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    format!(
        "median {:.1} ms, p90 {:.1} ms, max {:.1} ms (min {:.1} ms)",
        at(0.5),
        at(0.9),
        times[times.len() - 1],
        times[0]
    )
}

/// The live-update delay between two browsers: a group game of Chinese
/// checkers of two people and a CPU seat at level 1 (a random move, at
/// once), 30 people's moves clicked in turn. For a person's move, the
/// time from the mover's page receiving its move's acceptance to the
/// other page's board drawn with it; for the engine's answer, which comes
/// right after a person's move, the time from its live update arriving in
/// a page to that page's board drawn with it (the pacing that lets the
/// move before finish travelling). Prints the median, 90th percentile and
/// maximum; asserts no timing. Run on an idle machine:
/// `cargo test -p damas-cli --test serve_group_browser -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, printed: run it with --ignored --nocapture on an idle machine"]
fn live_update_delay_between_two_browsers() {
    if skipped() {
        return;
    }
    const MOVES: usize = 30;
    let server = Server::start(&[]);
    let driver = start_driver();
    runtime().block_on(async {
        let ana = connect(&driver, &SPANISH).await;
        let bea = connect(&driver, &SPANISH).await;
        ana.goto(&server.url).await.expect("the page opens");
        wait_until(&ana, "the form", "return setup !== null;").await;
        for (select, value) in [("#game", "chinese"), ("#group-engine-level", "1")] {
            choose(&ana, select, value).await;
        }
        // One CPU seat (the options' values are their texts).
        find(&ana, "#group-engine-count")
            .await
            .select_by_index(1)
            .await
            .expect("chosen");
        find(&ana, "#group-name")
            .await
            .send_keys("Ana")
            .await
            .expect("typed");
        click(&ana, "#create-group").await;
        wait_until(&ana, "the group", "return group !== null;").await;
        let link = js_text(&ana, "return document.getElementById('group-link').value;").await;
        join(&bea, &link, "Bea", 2).await;
        wait_until(&ana, "Bea", "return group.members.length === 2;").await;
        click(&ana, "#group-start").await;
        let pages = [&ana, &bea];
        for page in pages {
            wait_until(
                page,
                "the game",
                "return state !== null && state.group != null && state.players === 3;",
            )
            .await;
            assert_eq!(js(page, INSTRUMENT).await, Value::Bool(true));
        }
        let (mut people, mut engine) = (Vec::new(), Vec::new());
        let mut n = 0;
        while people.len() < MOVES {
            let seat = n % 3;
            n += 1;
            if seat == 2 {
                for page in pages {
                    sees_moves(page, n).await;
                    // On the mover's page the answer to the move may
                    // already carry the engine's: no update to wait for.
                    let arrived = js(page, &format!("return {n} in window.arrived;")).await;
                    if arrived == Value::Bool(true) {
                        engine.push(
                            recorded(page, "seen", n).await - recorded(page, "arrived", n).await,
                        );
                    }
                }
                continue;
            }
            let (mover, watcher) = if seat == 0 {
                (&ana, &bea)
            } else {
                (&bea, &ana)
            };
            click_a_move(mover).await;
            sees_moves(watcher, n).await;
            people.push(recorded(watcher, "seen", n).await - recorded(mover, "accepted", n).await);
        }
        println!(
            "a person's move on the other page, over {} moves: {}",
            people.len(),
            summary(&mut people)
        );
        println!(
            "the engine's answer, from its update's arrival to the board, over {} arrivals: {}",
            engine.len(),
            summary(&mut engine)
        );
        for page in [ana, bea] {
            page.close().await.expect("the browser closes");
        }
    });
}
