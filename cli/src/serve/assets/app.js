// The damas web board: draws the state the server sends (GET
// /api/games/{id}) and sends a person's actions. No build step, no
// library: plain DOM and SVG. The texts are i18n.js's, the move list, the
// last move and the refusals moves.js's.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
// How each player is drawn, by the name the server gives it: the piece's
// fill and the colour of its crown.
const PALETTE = {
  white: ["#f7f3ea", "#8b5a2b"], black: ["#262626", "#e5c07b"],
  red: ["#d32f2f", "#fff"], blue: ["#1565c0", "#fff"], green: ["#2e7d32", "#fff"],
  yellow: ["#f9a825", "#fff"], purple: ["#6a1b9a", "#fff"], teal: ["#00838f", "#fff"],
};
const $ = (id) => document.getElementById(id);

let state = null;       // the last state from the server
let setup = null;       // the games and rule options (GET /api/games/options)
let selected = null;    // the selected point's name
let choices = [];       // legal moves of the selected piece
let clockBase = null;   // [turn_left_ms, time received]

// A seat's name in this language.
function seatName(i) {
  const names = state ? state.player_names : [];
  return playerWord(names[i], i);
}

// [fill, crown] of the player called `name`.
function palette(name) { return PALETTE[String(name).toLowerCase()] || ["#888", "#fff"]; }
function colour(i) { return palette(state ? state.player_names[i] : "")[0]; }

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw Object.assign(new Error(String(err)), { code: "network" });
  }
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error(data && data.error ? data.error : response.statusText);
    error.code = data && data.code;
    error.params = data && data.params;
    throw error;
  }
  return data;
}

function showError(err) { $("error").textContent = errorText(err); }

async function act(method, path, body) {
  try {
    const next = await api(method, path, body);
    showError(null);
    if (next) setState(next);
  } catch (err) {
    showError(err);
  }
}

// ---- state and drawing ----

// The live updates of the game on one device shown (EventSource), if
// open; a group's game comes with its group's (group.js).
let gameStream = null;

// A streamed update is shown at once, unless it brings a new move while
// the last move shown is still travelling (an engine answering within a
// moment, engines playing each other): then it waits for that move's end,
// at most STREAM_SPACING_MS after the move was shown, so that each move
// shown is seen moving and none waits long (a step travels 220 ms: it is
// seen for most of it). Waiting updates merge, the latest winning. Updates that
// bring no move (the engine starting to think, a seat handed over) never
// wait: redrawing the board carries the running animation on.
const STREAM_SPACING_MS = 180;
let streamPending = null;
let streamTimer = null;

// Milliseconds before a new move may replace the one moving on the board.
function movingLeft() {
  if (!animation) return 0;
  const legs = STEP_MS * (animation.path.length - 1);
  return Math.max(0, animation.start + Math.min(legs, STREAM_SPACING_MS) - performance.now());
}

// Whether `next` (a game's state, or null) adds a move to the game shown.
function addsMove(next) {
  return Boolean(state && next && next.id === state.id && next.game_number === state.game_number
    && next.moves.length > state.moves.length);
}

// Shows a streamed update (`apply` draws it) whose game state is `next`.
function showStreamed(next, apply) {
  streamPending = apply;
  if (streamTimer) return;
  const run = () => {
    streamTimer = null;
    const pending = streamPending;
    streamPending = null;
    if (pending) pending();
  };
  const wait = addsMove(next) ? movingLeft() : 0;
  if (wait <= 0) run();
  else streamTimer = setTimeout(run, wait);
}

function followGame(id) {
  if (gameStream && gameStream.gameId === id) return;
  stopGameStream();
  if (typeof EventSource !== "function") return;
  const source = new EventSource(`/api/games/${id}/events`);
  source.gameId = id;
  source.onmessage = (event) => {
    let next;
    try { next = JSON.parse(event.data); } catch (err) { return; }
    showStreamed(next, () => {
      if (state && !state.group && next.id === state.id && next.version !== state.version) setState(next);
    });
  };
  gameStream = source;
}

function stopGameStream() {
  if (gameStream) gameStream.close();
  gameStream = null;
}

// Whether the game shown comes live: then the page polls only for the
// engine's analysis while it thinks.
function streaming() {
  const open = (s) => s !== null && s.readyState === EventSource.OPEN;
  return state && (state.group ? groupStreaming() : open(gameStream));
}

function setState(next) {
  // Answers may arrive out of order: never go back to an older state.
  if (state && next.id === state.id && next.version < state.version) return;
  const changed = !state || state.version !== next.version || state.id !== next.id;
  if (!state || state.id !== next.id || state.game_number !== next.game_number) {
    // The board faces the person: the second player's side at the bottom
    // when the only person of a two-player game plays it.
    // In a group's game, the people of this device.
    const humans = next.seats.map((s, i) => (s.kind === "human" && mySeatIn(next, i) ? i : -1)).filter((i) => i >= 0);
    $("flip").checked = next.players === 2 && humans.length === 1 && humans[0] === 1;
  }
  noteNewMove(state, next);
  const fresh = !state || state.id !== next.id;
  state = next;
  if (next.group) stopGameStream();
  else followGame(next.id);
  clockBase = next.turn_left_ms == null ? null : [next.turn_left_ms, Date.now()];
  if (changed) {
    selected = null;
    choices = [];
    $("chooser").hidden = true;
    $("confirm-resign").hidden = true;
    showHint("");
  }
  $("play").hidden = false;
  draw();
  if (fresh) centreBoard();
}

// A board wider than the screen (the star on a phone) starts centred.
function centreBoard() {
  const wrap = $("board-wrap");
  wrap.scrollLeft = (wrap.scrollWidth - wrap.clientWidth) / 2;
}

// Whether this device may ask for an undo: in a group's game, the undo
// gives the turn back to the person's seat that played last, and only
// that seat's device may ask (the server refuses the others).
function mayUndo() {
  if (!state.group) return true;
  for (let i = state.moves.length - 1; i >= 0; i--) {
    const player = state.moves[i].player;
    if (state.seats[player].kind === "human") return mySeat(player);
  }
  return false;
}

function humanToMove() {
  return state && state.to_move != null && state.seats[state.to_move].kind === "human" && !state.thinking
    && mySeat(state.to_move);
}

function draw() {
  if (!state) return;
  $("title").textContent = t("title.line", {
    game: rulesTitle(state.game, state.settings.rules, state.title),
    players: t(state.players === 1 ? "title.players1" : "title.players", { n: state.players }),
    n: state.game_number + 1,
  });
  drawBoard();
  drawStatus();
  drawSeats();
  drawMoves();
  drawResult();
  drawAnalysis();
  $("notice").textContent = [
    codedText(state.notice_code, state.notice_params, state.notice),
    codedText(state.warning_code, state.warning_params, state.warning),
  ].filter(Boolean).join(" · ");
  $("export").href = `/api/games/${state.id}/record?lang=${LANG}`;
  $("position-text").value = state.position;
  $("clock").value = String(state.settings.turn_seconds);
  // A group's game: its clock and next game are the group's (Next game
  // starts the group's, for its creator between games).
  $("clock").disabled = Boolean(state.group);
  $("newgame").hidden = Boolean(state.group) && !groupNextReady();
  $("undo").disabled = !state.can_undo || !mayUndo();
  $("resign").disabled = !humanToMove();
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Screen position of a point: squares on the board's grid of width x
// height (the first player at the bottom unless flipped), star cells on a
// triangular lattice.
function layout() {
  const flip = $("flip").checked;
  const board = state.board;
  if (board.shape === "squares") {
    const size = 60, w = board.width, h = board.height;
    return {
      width: w * size, height: h * size, size,
      at: (p) => {
        const file = flip ? w - 1 - p.x : p.x, rank = flip ? h - 1 - p.y : p.y;
        return [file * size + size / 2, (h - 1 - rank) * size + size / 2];
      },
    };
  }
  const size = 30, h = size * Math.sqrt(3) / 2;
  const raw = (p) => {
    const x = p.x - p.y / 2, y = p.y;
    return flip ? [-x, y] : [x, -y];
  };
  const xs = state.board.points.map((p) => raw(p)[0]);
  const ys = state.board.points.map((p) => raw(p)[1]);
  const minX = Math.min(...xs), minY = Math.min(...ys);
  return {
    width: (Math.max(...xs) - minX) * size + 2 * size,
    height: (Math.max(...ys) - minY) * h + 2 * size,
    size,
    at: (p) => { const [x, y] = raw(p); return [(x - minX) * size + size, (y - minY) * h + size]; },
  };
}

function drawBoard() {
  const svg = $("board");
  svg.innerHTML = "";
  const geo = layout();
  svg.setAttribute("viewBox", `0 0 ${geo.width} ${geo.height}`);
  svg.dataset.game = state.game;
  const squares = state.board.shape === "squares";
  // A touch target is a whole cell: on the star a cell is at least 32 CSS
  // px wide, the board scrolling sideways in its frame on a narrow screen.
  svg.style.minWidth = squares ? "" : `${Math.ceil((geo.width * 34) / geo.size)}px`;
  const movable = new Set(humanToMove() ? state.movable : []);
  const last = state.last || { path: [], captured: [] };
  const marks = new Map();
  if ($("show-legal").checked) for (const mv of choices) if (!marks.has(mv.to)) marks.set(mv.to, mv);
  const byName = new Map();
  // The squares that are not points are the light ones.
  if (squares) el("rect", { x: 0, y: 0, width: geo.width, height: geo.height, class: "sq-light" }, svg);
  for (const p of state.board.points) {
    byName.set(p.name, p);
    const [cx, cy] = geo.at(p);
    const g = el("g", { class: "pt", "data-name": p.name }, svg);
    if (movable.has(p.name)) g.classList.add("movable");
    if (selected === p.name) g.classList.add("selected");
    if (last.path.includes(p.name)) g.classList.add("last");
    if (squares) {
      el("rect", { x: cx - geo.size / 2, y: cy - geo.size / 2, width: geo.size, height: geo.size, class: "sq-dark" }, g);
      if ($("numbers").checked) {
        const n = el("text", { x: cx - geo.size / 2 + 3, y: cy - geo.size / 2 + 12, class: "num" }, g);
        n.textContent = p.name;
      }
    } else {
      el("circle", { cx, cy, r: geo.size / 2, class: "hit" }, g);
      const hole = el("circle", { cx, cy, r: geo.size * 0.36, class: "hole" }, g);
      if (p.home != null) hole.style.fill = tint(colour(p.home));
      if ($("numbers").checked) {
        const n = el("text", { x: cx, y: cy + geo.size * 0.62, class: "num star-num", "text-anchor": "middle" }, g);
        n.textContent = p.name;
      }
    }
    if (p.piece) drawPiece(g, p.piece, cx, cy, geo.size);
    if (movable.has(p.name) && $("show-legal").checked) {
      el("circle", { cx, cy, r: geo.size * (squares ? 0.44 : 0.42), class: "movable-ring" }, g);
    }
    const mark = marks.get(p.name);
    if (mark) {
      const kind = mark.kind;
      const r = kind === "step" ? geo.size * 0.14 : geo.size * 0.3;
      el("circle", { cx, cy, r, class: "mark " + kind, "data-mark": kind }, g);
      if (mark.promotes) {
        const crown = el("text", { x: cx, y: cy, class: "crown w" }, g);
        crown.textContent = "♛";
      }
    }
  }
  drawLastMove(svg, geo, byName);
}

function tint(hex) { return hex + "33"; }

function drawPiece(g, piece, cx, cy, size) {
  const squares = state.board.shape === "squares";
  const r = size * (squares ? 0.38 : 0.32);
  const [fill, crown] = palette(state.player_names[piece.player]);
  const c = el("circle", { cx, cy, r, class: "piece", fill }, g);
  c.dataset.player = piece.player;
  if (piece.king) {
    c.dataset.king = "1";
    const k = el("text", { x: cx, y: cy, class: "crown" + (squares ? "" : " k"), fill: crown }, g);
    k.textContent = "♛";
  }
}

function clockText() {
  if (!clockBase) return "";
  const left = Math.max(0, clockBase[0] - (Date.now() - clockBase[1]));
  return ` (${Math.ceil(left / 1000)} s)`;
}

function drawStatus() {
  let text;
  if (state.result) text = t("status.over", { result: resultHead(state.result) });
  else if (state.to_move == null) text = "";
  else {
    const player = seatName(state.to_move);
    const engine = state.seats[state.to_move].kind === "engine";
    text = state.thinking ? t("status.thinking", { player }) : t(engine ? "status.to_move_engine" : "status.to_move", { player });
  }
  $("status").textContent = text + clockText();
}

// A seat's standing in words ("finished, place 2").
function standingText(i) {
  const s = (state.standings || [])[i];
  if (!s) return state.status[i] || "";
  return t("standing." + s.state, { place: s.place });
}

// The seats' list as last drawn: redrawn only when it changes, so that a
// live update does not replace a select someone is using.
let seatsDrawn = "";

function drawSeats() {
  const list = $("seats");
  const key = JSON.stringify([state.id, LANG, state.seats, state.group && state.group.seats,
    state.seats.map((_, i) => [seatName(i), standingText(i), mySeat(i)])]);
  if (key === seatsDrawn && list.children.length === state.seats.length) return;
  seatsDrawn = key;
  list.innerHTML = "";
  state.seats.forEach((seat, i) => {
    const li = document.createElement("li");
    li.innerHTML = `<span class="dot" style="background:${colour(i)}"></span><span class="seat-name">${seatName(i)}</span>
      <select data-seat="${i}"><option value="human">${t("seat.human")}</option><option value="engine">${t("seat.engine")}</option></select>
      <span class="standing">${standingText(i)}</span>`;
    const select = li.querySelector("select");
    select.value = seat.kind;
    select.disabled = !mySeat(i);
    // A group's game: the member's name beside the seat's (as text).
    const owner = state.group && state.group.seats[i];
    if (owner) li.querySelector(".seat-name").textContent = `${seatName(i)} (${owner.name})`;
    // Said beside the seat too: the group's list is under the board.
    if (owner && owner.away) li.querySelector(".standing").append(` · ${t("group.away")}`);
    select.addEventListener("change", () =>
      act("PUT", `/api/games/${state.id}/seats/${i + 1}`, { kind: select.value, level: seat.level, think_ms: seat.think_ms }));
    list.appendChild(li);
  });
}

// Who won, in words.
function resultHead(r) {
  if (state.players === 1) return t(r.winner === 0 ? "result.solitaire_done" : "result.solitaire_over");
  if (r.winner != null) return t("result.wins", { player: seatName(r.winner) });
  return t(state.players === 2 ? "result.draw" : "result.shared");
}

function drawResult() {
  const box = $("result");
  if (!state.result) { box.hidden = true; return; }
  box.hidden = false;
  const r = state.result;
  const reason = r.reason_code ? t("reason." + r.reason_code, r.reason_params) : r.reason;
  box.innerHTML = "";
  const head = document.createElement("strong");
  head.textContent = resultHead(r);
  const ranking = document.createElement("ul");
  ranking.className = "ranking";
  for (const x of r.ranking) {
    const li = document.createElement("li");
    li.textContent = `${x.place}. ${seatName(x.player)} — ${standingText(x.player)}`;
    ranking.appendChild(li);
  }
  box.append(head, ": " + reason, ranking);
}

function drawAnalysis() {
  const box = $("analysis");
  const a = state.analysis;
  box.hidden = !$("analysis-on").checked;
  if (box.hidden) return;
  if (a && a.depth > 0) {
    const side = a.player != null ? seatName(a.player) : "";
    box.textContent = t("analysis.line", { depth: a.depth, score: scoreText(a.score), player: side, nodes: a.nodes })
      + "\n" + a.pv.join(" ");
  } else box.textContent = state.thinking ? t("analysis.thinking") : t("analysis.none");
}

// ---- clicks ----

async function clickPoint(name) {
  const target = humanToMove() ? choices.filter((mv) => mv.to === name) : [];
  if (selected && target.length > 0) {
    showHint("");
    if (target.length === 1) return act("POST", `/api/games/${state.id}/move`, { move: target[0].text });
    return choose(target);
  }
  if (humanToMove() && state.movable.includes(name) && selected !== name) {
    selected = name;
    showHint("");
    $("chooser").hidden = true;
    try {
      choices = await api("GET", `/api/games/${state.id}/moves?from=${encodeURIComponent(name)}`);
    } catch (err) {
      showError(err);
      choices = [];
    }
  } else {
    const wasSelected = selected === name;
    const version = state.version;
    const why = wasSelected ? "" : await refusal(name);
    if (state.version !== version) return;
    showHint(why);
    selected = null;
    choices = [];
  }
  drawBoard();
}

// Several captures share the piece and the landing square: the person picks
// one; hovering shows its captured pieces.
function choose(moves) {
  const box = $("choices");
  box.innerHTML = "";
  for (const mv of moves) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "choice";
    b.textContent = t("chooser.takes", { move: mv.text, pieces: mv.captured.join(", ") });
    b.addEventListener("mouseenter", () => highlight(mv.captured));
    b.addEventListener("mouseleave", () => highlight([]));
    b.addEventListener("click", () => {
      $("chooser").hidden = true;
      act("POST", `/api/games/${state.id}/move`, { move: mv.text });
    });
    box.appendChild(b);
  }
  $("chooser").hidden = false;
}

function highlight(names) {
  document.querySelectorAll("#board .piece").forEach((c) => {
    const name = c.parentNode.getAttribute("data-name");
    c.classList.toggle("taken", names.includes(name));
  });
}

// Resigning asks first.
function askResign() {
  if (!humanToMove()) return;
  $("confirm-resign-text").textContent = t("resign.question", { player: seatName(state.to_move) });
  $("confirm-resign").hidden = false;
}

// ---- start ----

// The display switches kept across reloads.
const KEPT = ["show-legal", "numbers", "analysis-on"];

function keepToggles() {
  for (const id of KEPT) {
    let stored = null;
    try { stored = localStorage.getItem("damas-" + id); } catch (err) { stored = null; }
    if (stored != null) $(id).checked = stored === "1";
    $(id).addEventListener("change", () => {
      try { localStorage.setItem("damas-" + id, $(id).checked ? "1" : "0"); } catch (err) { /* not kept */ }
    });
  }
}

// After a language switch: every text drawn again (the form keeps its
// choices: its fillers read them back).
function redrawTexts() {
  if (setup) {
    fillGames();
    fillPlayers();
  }
  if (state) draw();
  drawGroup();
}

async function load() {
  if (!setup) {
    try {
      setup = await api("GET", "/api/games/options");
      fillGames();
    } catch (err) {
      showError(err);
      return;
    }
  }
  const invited = location.pathname.match(/^\/j\/([0-9a-f]{1,16})$/);
  if (invited) { await loadGroup(invited[1]); return; }
  leaveGroup();
  const match = location.pathname.match(/^\/g\/([0-9a-f]{1,16})$/);
  if (!match) { openSetup(); return; }
  try {
    setState(await api("GET", "/api/games/" + match[1]));
  } catch (err) {
    openSetup();
    $("setup-error").textContent = t("setup.gone", { reason: errorText(err) });
  }
}

function openSetup() {
  setupMode(false);
  // A new group shows legal moves as this page does.
  $("group-show-legal").checked = $("show-legal").checked;
  $("setup").hidden = false;
  fillPlayers();
}

async function poll() {
  if (!state || document.hidden) return;
  if (streaming() && !(state.thinking && $("analysis-on").checked)) return;
  const asked = state.id;
  try {
    const next = await api("GET", "/api/games/" + asked);
    // A new game may have started while the answer was on its way.
    if (!state || state.id !== asked) return;
    if (next.version !== state.version) setState(next);
    else {
      // The same position: only the analysis and the clock move on, and
      // the board is left as it is (a selection, an animation).
      state.analysis = next.analysis;
      clockBase = next.turn_left_ms == null ? null : [next.turn_left_ms, Date.now()];
      drawStatus();
      drawAnalysis();
    }
  } catch (err) {
    // A group's last game is removed when the next begins: the group's
    // poll brings the next.
    if (!state.group) showError(err);
  }
}

$("game").addEventListener("change", () => {
  // A position of one game is no position of another.
  $("position").value = "";
  alertSetup(null);
  fillPlayers();
});
$("players").addEventListener("change", fillSeats);
$("start").addEventListener("click", startGame);
$("show-setup").addEventListener("click", openSetup);
$("cancel-setup").addEventListener("click", () => { $("setup").hidden = true; alertSetup(null); });
$("board").addEventListener("click", (event) => {
  const g = event.target.closest("[data-name]");
  if (g && state) clickPoint(g.getAttribute("data-name"));
});
$("undo").addEventListener("click", () => act("POST", `/api/games/${state.id}/undo`));
$("resign").addEventListener("click", askResign);
$("resign-no").addEventListener("click", () => { $("confirm-resign").hidden = true; });
$("resign-yes").addEventListener("click", () => {
  $("confirm-resign").hidden = true;
  act("POST", `/api/games/${state.id}/resign`, {});
});
$("newgame").addEventListener("click", () => (state.group ? startGroupGame() : act("POST", `/api/games/${state.id}/new`)));
$("clock").addEventListener("change", () =>
  act("PUT", `/api/games/${state.id}/clock`, { turn_seconds: Number($("clock").value) }));
for (const id of ["show-legal", "numbers", "flip"]) $(id).addEventListener("change", () => state && drawBoard());
$("analysis-on").addEventListener("change", () => state && drawAnalysis());
window.addEventListener("popstate", load);
// A page left for another may be kept, frozen, in the browser's
// back-forward cache with its connections open: the server would count
// the device as still here and never let the engine play its member's
// seat (the away rule). Leaving closes the live streams; coming back to
// the kept page opens them again, each sending the state as it is now.
window.addEventListener("pagehide", () => { stopGroupStream(); stopGameStream(); });
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  if (group) followGroup(group.id, groupYou);
  else if (state && !state.group) followGame(state.id);
});
initGroups();
keepToggles();
setInterval(poll, 400);
setInterval(() => state && clockBase && drawStatus(), 250);
loadLang(chosenLang())
  .catch(() => { /* the English texts of the page stay */ })
  .then(() => { fillLangSwitch(redrawTexts); return load(); });
