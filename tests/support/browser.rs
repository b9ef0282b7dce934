//! Headless Chromium driven over WebDriver (chromedriver), for the web
//! board's browser tests: the driver, a browser session per device (its
//! own profile, so its own cookies), and waiting, clicking and screenshot
//! helpers whose waits are bounded by the tests' patience.

// Each test file uses a different subset of these helpers.
#![allow(dead_code)]

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

use super::web_server::PATIENCE;

/// chromedriver on a free port, stopped when dropped with the browsers it
/// started.
pub struct Driver {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // chromedriver runs in a process group of its own, which the
        // browsers it starts join: a test that panics before closing its
        // sessions leaves no browser behind.
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill only sends a signal, to the group this test made.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("an address").port()
}

pub fn start_driver() -> Driver {
    let port = free_port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts (install the chromium-driver package)");
    Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
    }
}

/// How the browser is set up: a desktop window of 1280×900, or a phone
/// of 390×844 with touch; the languages it asks for.
pub struct Device {
    pub phone: bool,
    pub languages: &'static str,
}

pub const DESKTOP: Device = Device {
    phone: false,
    languages: "en-US,en",
};

pub async fn connect(driver: &Driver, device: &Device) -> Client {
    let mut options = json!({
        "binary": "/usr/bin/chromium",
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-dev-shm-usage", "--window-size=1280,900",
                 format!("--lang={}", device.languages.split(',').next().unwrap_or("en"))],
        "prefs": { "intl.accept_languages": device.languages },
    });
    if device.phone {
        options["mobileEmulation"] = json!({
            "deviceMetrics": { "width": 390, "height": 844, "pixelRatio": 2.0, "touch": true },
            "userAgent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36",
        });
    }
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".into(), options);
    let start = Instant::now();
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(capabilities.clone())
            .connect(&driver.url)
            .await
        {
            Ok(client) => return client,
            Err(err) => {
                assert!(start.elapsed() < PATIENCE, "no WebDriver session: {err}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

pub async fn find(client: &Client, css: &str) -> Element {
    match client
        .wait()
        .at_most(PATIENCE)
        .for_element(Locator::Css(css))
        .await
    {
        Ok(element) => element,
        Err(e) => panic!(
            "no element {css}: {e}; page: {}",
            page_summary(client).await
        ),
    }
}

/// What the page shows, for a failure message.
pub async fn page_summary(client: &Client) -> String {
    if let Ok(png) = client.screenshot().await {
        let _ = std::fs::write(screenshot_dir().join("failure.png"), png);
    }
    let script = "const board = document.getElementById('board') || {dataset: {}}; \
        return JSON.stringify({error: document.getElementById('error').textContent, \
        setup: (document.getElementById('setup-error') || {}).textContent, \
        setupHidden: document.getElementById('setup').hidden, \
        seatRows: document.querySelectorAll('#seat-setup .seat').length, \
        game: state && state.game, players: state && state.players, moveCount: state && state.moves.length, lastMoves: state && state.moves.slice(-4), \
        seats: state && state.seats, last: state && state.last, \
        animated: board.dataset.animated, animating: board.dataset.animating, \
        moving: document.querySelectorAll('#board .moving').length, \
        animation: typeof animation === 'undefined' ? null : animation, group: typeof group === 'undefined' ? null : group && {members: group.members, you: groupYou}});";
    client
        .execute(script, vec![])
        .await
        .map_or_else(|e| e.to_string(), |v| v.to_string())
}

/// Clicks the element; again if the page redrew it in between (the board
/// is drawn anew with each state).
pub async fn click(client: &Client, css: &str) {
    let mut tries = 0;
    loop {
        match find(client, css).await.click().await {
            Ok(()) => return,
            Err(e) if tries < 5 && e.to_string().contains("stale") => tries += 1,
            Err(e) => panic!("cannot click {css}: {e}"),
        }
    }
}

/// Chooses `value` in the select `css`.
pub async fn choose(client: &Client, css: &str, value: &str) {
    find(client, css)
        .await
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("cannot choose {value} in {css}: {e}"));
}

pub async fn count(client: &Client, css: &str) -> usize {
    client
        .find_all(Locator::Css(css))
        .await
        .map_or(0, |all| all.len())
}

/// Clicks a piece, checks that `target` is marked as `kind`, and clicks it.
pub async fn play(client: &Client, from: &str, target: &str, kind: &str) {
    click(client, &format!("#board [data-name=\"{from}\"]")).await;
    find(
        client,
        &format!("#board [data-name=\"{target}\"] .mark.{kind}"),
    )
    .await;
    click(client, &format!("#board [data-name=\"{target}\"]")).await;
}

/// Fills the open new-game form's seats (`seats`: each seat's kind, its
/// time 0.1 s) and its position box (`position`; empty: the start).
pub async fn fill_seats(client: &Client, seats: &[&str], position: &str) {
    for (i, kind) in seats.iter().enumerate() {
        let row = format!("#seat-setup [data-seat=\"{i}\"]");
        find(client, &format!("{row} .kind"))
            .await
            .select_by_value(kind)
            .await
            .expect("seat kind");
        find(client, &format!("{row} .think"))
            .await
            .select_by_value("100")
            .await
            .expect("seat time");
    }
    let text = find(client, "#position").await;
    text.clear().await.expect("position cleared");
    if !position.is_empty() {
        text.send_keys(position).await.expect("position typed");
    }
}

/// Chooses a language with the page's switch and waits for its texts.
pub async fn switch_language(client: &Client, lang: &str, undo_word: &str) {
    find(client, "#lang")
        .await
        .select_by_value(lang)
        .await
        .expect("a language");
    let script = format!(
        "return document.documentElement.lang === '{lang}' && document.getElementById('undo').textContent === '{undo_word}';"
    );
    wait_until(client, "the new language", &script).await;
}

/// Runs `script` (its `return` value) until it is true.
pub async fn wait_until(client: &Client, what: &str, script: &str) {
    let start = Instant::now();
    loop {
        let value = client
            .execute(script, vec![])
            .await
            .expect("the script runs");
        if value == Value::Bool(true) {
            return;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "timed out waiting for {what}; page: {}",
            page_summary(client).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub fn screenshot_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot folder");
    dir
}

/// Saves a picture of the page once no piece is moving.
pub async fn screenshot(client: &Client, name: &str) {
    wait_until(
        client,
        "the pieces at rest",
        "return !document.querySelector('#board .moving');",
    )
    .await;
    let png = find(client, "main")
        .await
        .screenshot()
        .await
        .expect("a screenshot");
    assert_eq!(&png[1..4], b"PNG");
    let path = screenshot_dir().join(format!("{name}.png"));
    std::fs::write(&path, png).expect("screenshot saved");
    eprintln!("screenshot: {}", path.display());
}
