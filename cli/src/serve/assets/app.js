// The damas web board: draws the state the server sends (GET
// /api/games/{id}) and sends a person's actions. No build step, no
// library: plain DOM and SVG.
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

function seatName(i) {
  const names = state ? state.player_names : [];
  return names[i] || "p" + (i + 1);
}

// [fill, crown] of the player called `name`.
function palette(name) { return PALETTE[String(name).toLowerCase()] || ["#888", "#fff"]; }
function colour(i) { return palette(seatName(i))[0]; }

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error(data && data.error ? data.error : response.statusText);
  return data;
}

function showError(err) { $("error").textContent = err ? String(err.message || err) : ""; }

async function act(method, path, body) {
  try {
    const next = await api(method, path, body);
    showError(null);
    if (next) setState(next);
  } catch (err) {
    showError(err);
  }
}

// ---- setup form ----

// The game chosen in the form, as the server lists it.
function chosenGame() {
  return setup.games.find((g) => g.name === $("game").value) || setup.games[0];
}

function fillGames() {
  const old = $("game").value;
  $("game").innerHTML = setup.games.map((g) => `<option value="${g.name}">${g.title}</option>`).join("");
  if (setup.games.some((g) => g.name === old)) $("game").value = old;
}

function fillPlayers() {
  const game = chosenGame();
  const options = [];
  for (let n = game.players.min; n <= game.players.max; n++) options.push(n);
  const old = Number($("players").value) || game.players.default;
  $("players").innerHTML = options.map((n) =>
    `<option value="${n}">${n === 1 ? "1 (solitaire)" : n}</option>`).join("");
  $("players").value = options.includes(old) ? old : options.includes(game.players.default) ? game.players.default : options[0];
  fillRules();
  fillSeats();
}

// The rule options of the chosen game, from the library's option table;
// a value set stays when the game changes.
function fillRules() {
  const game = chosenGame();
  const box = $("rule-options");
  const old = readRules();
  box.innerHTML = "";
  for (const rule of setup.rules.filter((r) => game.rules.includes(r.name))) {
    const label = document.createElement("label");
    label.title = rule.help;
    const input = document.createElement("input");
    input.dataset.rule = rule.name;
    const value = rule.name in old ? old[rule.name] : rule.default;
    const help = document.createElement("small");
    help.textContent = " (" + rule.help + ")";
    if (rule.type === "check") {
      input.type = "checkbox";
      input.checked = value === true;
      label.append(input, " " + words(rule.name), help);
    } else {
      input.type = "number";
      input.min = rule.min;
      input.max = rule.max;
      input.value = value;
      label.append(words(rule.name) + " ", input, help);
    }
    input.id = "rule-" + rule.name;
    box.appendChild(label);
  }
  box.hidden = box.children.length === 0;
}

// An option's name in words: "PlayToEnd" is "Play to end".
function words(name) {
  return name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/ [A-Z]/g, (m) => m.toLowerCase());
}

// The rule options as the form holds them, by name.
function readRules() {
  const rules = {};
  for (const input of document.querySelectorAll("#rule-options [data-rule]")) {
    rules[input.dataset.rule] = input.type === "checkbox" ? input.checked : Number(input.value);
  }
  return rules;
}

function fillSeats() {
  const n = Number($("players").value);
  const names = chosenGame().player_names;
  let html = "";
  for (let i = 0; i < n; i++) {
    const name = names[i] || "p" + (i + 1);
    html += `<div class="seat" data-seat="${i}"><span>${name}</span>
      <select class="kind"><option value="human"${i === 0 ? " selected" : ""}>person</option>
      <option value="engine"${i === 0 ? "" : " selected"}>engine</option></select>
      <select class="level"><option value="4">level 4 (full)</option><option value="3">level 3</option>
      <option value="2">level 2</option><option value="1">level 1 (random)</option></select>
      <select class="think"><option value="100">0.1 s</option><option value="500">0.5 s</option>
      <option value="1000" selected>1 s</option><option value="3000">3 s</option></select></div>`;
  }
  $("seat-setup").innerHTML = html;
}

async function startGame() {
  const seats = [...document.querySelectorAll("#seat-setup .seat")].map((row) => ({
    kind: row.querySelector(".kind").value,
    level: Number(row.querySelector(".level").value),
    think_ms: Number(row.querySelector(".think").value),
  }));
  const body = {
    game: $("game").value,
    players: Number($("players").value),
    seats,
    rules: readRules(),
    rotate_first: $("rotate-first").checked,
    turn_seconds: Number($("turn-seconds").value),
  };
  const position = $("position").value.trim();
  if (position) body.position = position;
  try {
    const next = await api("POST", "/api/games", body);
    showError(null);
    history.pushState(null, "", "/g/" + next.id);
    $("setup").hidden = true;
    setState(next);
  } catch (err) {
    alertSetup(err);
  }
}

function alertSetup(err) {
  let box = $("setup-error");
  if (!box) {
    box = document.createElement("div");
    box.id = "setup-error";
    box.setAttribute("role", "alert");
    box.style.color = "#b00020";
    $("setup").appendChild(box);
  }
  box.textContent = err.message;
}

// ---- state and drawing ----

function setState(next) {
  // Answers may arrive out of order: never go back to an older state.
  if (state && next.id === state.id && next.version < state.version) return;
  const changed = !state || state.version !== next.version || state.id !== next.id;
  if (!state || state.id !== next.id || state.game_number !== next.game_number) {
    // The board faces the person: the second player's side at the bottom
    // when the only person of a two-player game plays it.
    const humans = next.seats.map((s, i) => (s.kind === "human" ? i : -1)).filter((i) => i >= 0);
    $("flip").checked = next.players === 2 && humans.length === 1 && humans[0] === 1;
  }
  state = next;
  clockBase = next.turn_left_ms == null ? null : [next.turn_left_ms, Date.now()];
  if (changed) {
    selected = null;
    choices = [];
    $("chooser").hidden = true;
  }
  $("play").hidden = false;
  draw();
}

function humanToMove() {
  return state && state.to_move != null && state.seats[state.to_move].kind === "human" && !state.thinking;
}

function draw() {
  if (!state) return;
  $("title").textContent = `${state.title}, ${state.players} player${state.players > 1 ? "s" : ""} — game ${state.game_number + 1}`;
  drawBoard();
  drawStatus();
  drawSeats();
  drawMoves();
  drawResult();
  drawAnalysis();
  $("notice").textContent = [state.notice, state.warning].filter(Boolean).join(" · ");
  $("export").href = `/api/games/${state.id}/record`;
  $("position-text").value = state.position;
  $("clock").value = String(state.settings.turn_seconds);
  $("undo").disabled = !state.can_undo;
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
  const movable = new Set(humanToMove() ? state.movable : []);
  const last = state.last || { path: [], captured: [] };
  const marks = new Map();
  if ($("show-legal").checked) for (const mv of choices) if (!marks.has(mv.to)) marks.set(mv.to, mv);
  const squares = state.board.shape === "squares";
  // The squares that are not points are the light ones.
  if (squares) el("rect", { x: 0, y: 0, width: geo.width, height: geo.height, class: "sq-light" }, svg);
  for (const p of state.board.points) {
    const [cx, cy] = geo.at(p);
    const g = el("g", { class: "pt", "data-name": p.name }, svg);
    if (movable.has(p.name)) g.classList.add("movable");
    if (selected === p.name) g.classList.add("selected");
    if (last.path.includes(p.name)) g.classList.add("last");
    if (squares) {
      el("rect", { x: cx - geo.size / 2, y: cy - geo.size / 2, width: geo.size, height: geo.size, class: "sq-dark" }, g);
      if ($("numbers").checked) {
        const t = el("text", { x: cx - geo.size / 2 + 3, y: cy - geo.size / 2 + 12, class: "num" }, g);
        t.textContent = p.name;
      }
    } else {
      const zone = p.home != null ? p.home : null;
      const hole = el("circle", { cx, cy, r: geo.size * 0.36, class: "hole" }, g);
      if (zone != null) hole.style.fill = tint(colour(zone));
      if ($("numbers").checked) {
        const t = el("text", { x: cx, y: cy + geo.size * 0.62, class: "num", "text-anchor": "middle" }, g);
        t.setAttribute("style", "fill:#555;font-size:8px");
        t.textContent = p.name;
      }
    }
    if (p.piece) drawPiece(g, p.piece, cx, cy, geo.size, last.captured.includes(p.name));
    if (movable.has(p.name) && $("show-legal").checked) {
      el("circle", { cx, cy, r: geo.size * (squares ? 0.44 : 0.42), class: "movable-ring" }, g);
    }
    const mark = marks.get(p.name);
    if (mark) {
      const kind = mark.kind;
      const r = kind === "step" ? geo.size * 0.14 : geo.size * 0.3;
      el("circle", { cx, cy, r, class: "mark " + kind, "data-mark": kind }, g);
      if (mark.promotes) {
        const t = el("text", { x: cx, y: cy, class: "crown w" }, g);
        t.textContent = "♛";
      }
    }
  }
}

function tint(hex) { return hex + "33"; }

function drawPiece(g, piece, cx, cy, size, taken) {
  const squares = state.board.shape === "squares";
  const r = size * (squares ? 0.38 : 0.32);
  const [fill, crown] = palette(seatName(piece.player));
  const c = el("circle", { cx, cy, r, class: "piece", fill }, g);
  c.dataset.player = piece.player;
  if (piece.king) c.dataset.king = "1";
  if (piece.king) {
    const t = el("text", { x: cx, y: cy, class: "crown" + (squares ? "" : " k"), fill: crown }, g);
    t.textContent = "♛";
  }
  if (taken) c.classList.add("taken");
}

function clockText() {
  if (!clockBase) return "";
  const left = Math.max(0, clockBase[0] - (Date.now() - clockBase[1]));
  return ` (${Math.ceil(left / 1000)} s)`;
}

function drawStatus() {
  let text;
  if (state.result) text = "Game over: " + state.result.reason;
  else if (state.to_move == null) text = "";
  else {
    const who = seatName(state.to_move);
    const engine = state.seats[state.to_move].kind === "engine";
    text = state.thinking ? `${who}: the engine is thinking…` : `${who} to move${engine ? " (engine)" : ""}`;
  }
  $("status").textContent = text + clockText();
}

function drawSeats() {
  const list = $("seats");
  list.innerHTML = "";
  state.seats.forEach((seat, i) => {
    const li = document.createElement("li");
    li.innerHTML = `<span class="dot" style="background:${colour(i)}"></span><span>${seatName(i)}</span>
      <select data-seat="${i}"><option value="human">person</option><option value="engine">engine</option></select>
      <span class="standing">${state.status[i] || ""}</span>`;
    const select = li.querySelector("select");
    select.value = seat.kind;
    select.addEventListener("change", () =>
      act("PUT", `/api/games/${state.id}/seats/${i + 1}`, { kind: select.value, level: seat.level, think_ms: seat.think_ms }));
    list.appendChild(li);
  });
}

function drawMoves() {
  const list = $("moves");
  list.innerHTML = "";
  if (state.players === 2) {
    // Two players: numbered pairs, "…" first when the second player opened.
    const secondFirst = state.moves.length > 0 && state.moves[0].player === 1;
    const plies = (secondFirst ? ["…"] : []).concat(state.moves.map((m) => m.text));
    for (let i = 0; i < plies.length; i += 2) {
      const li = document.createElement("li");
      li.textContent = plies[i] + (plies[i + 1] ? "  " + plies[i + 1] : "");
      list.appendChild(li);
    }
  } else {
    for (const m of state.moves) {
      const li = document.createElement("li");
      li.innerHTML = `<span class="dot" style="background:${colour(m.player)}"></span> ${m.text}`;
      list.appendChild(li);
    }
  }
  list.scrollTop = list.scrollHeight;
}

function drawResult() {
  const box = $("result");
  if (!state.result) { box.hidden = true; return; }
  box.hidden = false;
  const r = state.result;
  let head;
  if (state.players === 2) head = r.draw ? "Draw" : `${seatName(r.winner)} wins`;
  else if (state.players === 1) head = r.winner === 0 ? "Solitaire finished" : "Solitaire over";
  else head = r.winner != null ? `${seatName(r.winner)} wins` : "First place shared";
  const rows = r.ranking.map((x) => `<li>${x.place}. ${seatName(x.player)} — ${state.status[x.player]}</li>`).join("");
  box.innerHTML = `<strong>${head}</strong> (${r.reason})<ul class="ranking">${rows}</ul>`;
}

function drawAnalysis() {
  const box = $("analysis");
  const a = state.analysis;
  box.hidden = !$("analysis-on").checked;
  if (box.hidden) return;
  box.textContent = a && a.depth > 0
    ? `depth ${a.depth}  score ${a.score}  nodes ${a.nodes}\n${a.pv.join(" ")}`
    : state.thinking ? "thinking…" : "no search yet";
}

// ---- clicks ----

async function clickPoint(name) {
  if (!humanToMove()) return;
  const target = choices.filter((mv) => mv.to === name);
  if (selected && target.length > 0) {
    if (target.length === 1) return act("POST", `/api/games/${state.id}/move`, { move: target[0].text });
    return choose(target);
  }
  if (state.movable.includes(name)) {
    selected = name;
    $("chooser").hidden = true;
    try {
      choices = await api("GET", `/api/games/${state.id}/moves?from=${encodeURIComponent(name)}`);
    } catch (err) {
      showError(err);
      choices = [];
    }
  } else {
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
    b.textContent = `${mv.text} (takes ${mv.captured.join(", ")})`;
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

// ---- start ----

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
  const match = location.pathname.match(/^\/g\/([0-9a-f]{1,16})$/);
  if (!match) { openSetup(); return; }
  try {
    setState(await api("GET", "/api/games/" + match[1]));
  } catch (err) {
    openSetup();
    alertSetup(new Error("That game is no longer here (" + err.message + "). Start a new one."));
  }
}

function openSetup() {
  $("setup").hidden = false;
  fillPlayers();
}

async function poll() {
  if (!state || document.hidden) return;
  const asked = state.id;
  try {
    const next = await api("GET", "/api/games/" + asked);
    // A new game may have started while the answer was on its way.
    if (!state || state.id !== asked) return;
    if (next.version !== state.version || next.thinking) setState(next);
    else { clockBase = next.turn_left_ms == null ? null : [next.turn_left_ms, Date.now()]; drawStatus(); }
  } catch (err) {
    showError(err);
  }
}

$("game").addEventListener("change", fillPlayers);
$("players").addEventListener("change", fillSeats);
$("start").addEventListener("click", startGame);
$("show-setup").addEventListener("click", openSetup);
$("cancel-setup").addEventListener("click", () => { $("setup").hidden = true; });
$("board").addEventListener("click", (event) => {
  const g = event.target.closest("[data-name]");
  if (g) clickPoint(g.getAttribute("data-name"));
});
$("undo").addEventListener("click", () => act("POST", `/api/games/${state.id}/undo`));
$("resign").addEventListener("click", () => act("POST", `/api/games/${state.id}/resign`, {}));
$("newgame").addEventListener("click", () => act("POST", `/api/games/${state.id}/new`));
$("clock").addEventListener("change", () =>
  act("PUT", `/api/games/${state.id}/clock`, { turn_seconds: Number($("clock").value) }));
for (const id of ["show-legal", "numbers", "flip"]) $(id).addEventListener("change", () => state && drawBoard());
$("analysis-on").addEventListener("change", () => state && drawAnalysis());
window.addEventListener("popstate", load);
setInterval(poll, 400);
setInterval(() => state && clockBase && drawStatus(), 250);
load();
