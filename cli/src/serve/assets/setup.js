// The new-game form: the games, players, seats and rule options the
// server offers (GET /api/games/options), in the page's language. The
// same form, without what only a new game has, changes a group's
// settings (group.js).
"use strict";

// Shows the form's choices for a new game or group (`groupSettings`
// false) or for changing the group's settings: the choices they share
// are the same inputs, so both offer the same games, rules and clock.
function setupMode(groupSettings) {
  $("setup").dataset.mode = groupSettings ? "group" : "new";
  for (const node of document.querySelectorAll("#setup .new-only")) node.hidden = groupSettings;
  for (const node of document.querySelectorAll("#setup .settings-only")) node.hidden = !groupSettings;
  // A time per turn only a group had (set through the API) is offered
  // while its settings are shown, not to a new game.
  for (const option of document.querySelectorAll("#turn-seconds [data-kept]")) option.remove();
}

// Whether the form shows the group's settings.
function groupSettingsShown() { return !$("setup").hidden && $("setup").dataset.mode === "group"; }

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
    const name = ruleName(rule.name);
    label.title = helpText;
    help.textContent = " (" + helpText + ")";
    if (rule.type === "check") {
      input.type = "checkbox";
      input.checked = value === true;
      label.append(input, " " + name, help);
    } else if (rule.type === "combo") {
      // A choice such as the draughts variant: a select of its values.
      const select = document.createElement("select");
      select.dataset.rule = rule.name;
      select.id = "rule-" + rule.name;
      for (const choice of rule.values) {
        const option = document.createElement("option");
        option.value = choice;
        option.textContent = has("value." + choice) ? t("value." + choice) : choice;
        select.appendChild(option);
      }
      select.value = rule.values.includes(value) ? value : rule.default;
      label.append(name + " ", select, help);
      box.appendChild(label);
      continue;
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

// A rule option's name in this language.
function ruleName(name) { return has("rule." + name) ? t("rule." + name) : words(name); }

// An option's name in words: "PlayToEnd" is "Play to end".
function words(name) {
  return name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/ [A-Z]/g, (m) => m.toLowerCase());
}

// The rule options as the form holds them, by name.
function readRules() {
  const rules = {};
  for (const input of document.querySelectorAll("#rule-options [data-rule]")) {
    rules[input.dataset.rule] = input.tagName === "SELECT" ? input.value
      : input.type === "checkbox" ? input.checked : Number(input.value);
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

// The title of the game `name` played by the rule options `rules` (by
// name): a draughts variant is named as such (Russian draughts), else the
// game's title (`fallback` when the page does not know the game).
function rulesTitle(name, rules, fallback) {
  const variant = rules && rules.Variant;
  if (variant && has("variant." + variant)) return t("variant." + variant);
  const game = setup && setup.games.find((g) => g.name === name);
  return game ? gameTitle(game) : fallback;
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

// The form's rule inputs set to `rules` (by name, as a group's settings
// give them); a rule not named keeps its value.
function setRules(rules) {
  for (const input of document.querySelectorAll("#rule-options [data-rule]")) {
    const value = rules[input.dataset.rule];
    if (value === undefined) continue;
    if (input.type === "checkbox") input.checked = value === true;
    else input.value = value;
  }
}

// The time per turn chosen, `seconds`; a time the list lacks is added
// while the group's settings are shown, so that saving them keeps it.
function setTurnSeconds(seconds) {
  const select = $("turn-seconds");
  if (![...select.options].some((o) => Number(o.value) === seconds)) {
    const option = document.createElement("option");
    option.value = String(seconds);
    option.textContent = seconds + " s";
    option.dataset.kept = "1";
    select.appendChild(option);
  }
  select.value = String(seconds);
}

// A group's settings as the form holds them (POST /api/groups, PUT
// /api/groups/{id}/settings). The CPU seats share one level; the form
// offers no engine time, so a group's engines keep theirs.
function groupSettingsFromForm(engines) {
  const level = Number($("group-engine-level").value);
  const kept = engines || [];
  return {
    game: $("game").value,
    engines: Array.from({ length: Number($("group-engine-count").value) }, (_, i) => {
      const old = kept[i] || kept[0];
      return old ? { level, think_ms: old.think_ms } : { level };
    }),
    rules: readRules(),
    rotate_first: $("rotate-first").checked,
    show_legal_moves: $("group-show-legal").checked,
    turn_seconds: Number($("turn-seconds").value),
  };
}

// The setup form's error line (empty once a game starts).
function alertSetup(err) {
  $("setup-error").textContent = err ? errorText(err) : "";
}

