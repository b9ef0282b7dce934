// The new-game form: the games, players, seats and rule options the
// server offers (GET /api/games/options), in the page's language.
"use strict";

// The game chosen in the form, as the server lists it.
function chosenGame() {
  return setup.games.find((g) => g.name === $("game").value) || setup.games[0];
}

function fillGames() {
  const old = $("game").value;
  $("game").innerHTML = setup.games.map((g) => `<option value="${g.name}">${gameTitle(g)}</option>`).join("");
  if (setup.games.some((g) => g.name === old)) $("game").value = old;
}

function fillPlayers() {
  const game = chosenGame();
  const options = [];
  for (let n = game.players.min; n <= game.players.max; n++) options.push(n);
  const old = Number($("players").value) || game.players.default;
  $("players").innerHTML = options.map((n) =>
    `<option value="${n}">${n === 1 ? t("setup.solitaire") : n}</option>`).join("");
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
    const helpText = has("rule." + rule.name + ".help") ? t("rule." + rule.name + ".help") : rule.help;
    const name = has("rule." + rule.name) ? t("rule." + rule.name) : words(rule.name);
    label.title = helpText;
    help.textContent = " (" + helpText + ")";
    if (rule.type === "check") {
      input.type = "checkbox";
      input.checked = value === true;
      label.append(input, " " + name, help);
    } else {
      input.type = "number";
      input.min = rule.min;
      input.max = rule.max;
      input.value = value;
      label.append(name + " ", input, help);
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

// The engine times the form offers: those under the server's cap, and the
// cap itself.
function thinkTimes() {
  const cap = setup.max_think_ms || 10000;
  const times = [100, 500, 1000, 3000].filter((ms) => ms <= cap);
  if (!times.includes(cap) && cap < 3000) times.push(cap);
  return times;
}

function seconds(ms) { return (ms / 1000).toLocaleString(LANG) + " s"; }

// The seat rows; a row keeps its choices when the form is redrawn.
function fillSeats() {
  const n = Number($("players").value);
  const names = chosenGame().player_names;
  const old = readSeats();
  const times = thinkTimes();
  const preferred = times.includes(1000) ? 1000 : times[times.length - 1];
  let html = "";
  for (let i = 0; i < n; i++) {
    const name = playerWord(names[i], i);
    const levels = [4, 3, 2, 1].map((l) => `<option value="${l}">${t("setup.level" + l)}</option>`).join("");
    const thinks = times.map((ms) => `<option value="${ms}"${ms === preferred ? " selected" : ""}>${seconds(ms)}</option>`).join("");
    html += `<div class="seat" data-seat="${i}"><span>${name}</span>
      <select class="kind"><option value="human"${i === 0 ? " selected" : ""}>${t("seat.human")}</option>
      <option value="engine"${i === 0 ? "" : " selected"}>${t("seat.engine")}</option></select>
      <select class="level">${levels}</select><select class="think">${thinks}</select></div>`;
  }
  $("seat-setup").innerHTML = html;
  old.slice(0, n).forEach((seat, i) => {
    const row = $("seat-setup").querySelector(`[data-seat="${i}"]`);
    row.querySelector(".kind").value = seat.kind;
    row.querySelector(".level").value = String(seat.level);
    if (times.includes(seat.think_ms)) row.querySelector(".think").value = String(seat.think_ms);
  });
}

function readSeats() {
  return [...document.querySelectorAll("#seat-setup .seat")].map((row) => ({
    kind: row.querySelector(".kind").value,
    level: Number(row.querySelector(".level").value),
    think_ms: Number(row.querySelector(".think").value),
  }));
}

// A game's title in this language.
function gameTitle(game) {
  const key = "game." + game.name;
  return has(key) ? t(key) : game.title;
}

async function startGame() {
  const seats = readSeats();
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
    leaveGroup();
    $("setup").hidden = true;
    alertSetup(null);
    setState(next);
  } catch (err) {
    alertSetup(err);
  }
}

// The setup form's error line (empty once a game starts).
function alertSetup(err) {
  $("setup-error").textContent = err ? errorText(err) : "";
}

