// Groups on the page: create a group from the setup form (your name, the
// form's game, rules, clock and CPU seats), the invitation link to copy,
// the join form at /j/{id}, the members, standings and settings, the
// creator's change of the settings between games (the same form), and the
// board of the group's game where only this device's seats can play
// (docs/SERVE.md, "Groups"). The seat tokens are HttpOnly cookies: the
// page never sees them; the server says which members this device holds.
"use strict";

let group = null;       // the last group from the server (GET /api/groups/{id})
let groupYou = [];      // the members this device plays for
let groupStream = null; // the group's live updates (EventSource), if open

// Whether this device may act for seat `i` of the game shown: any seat of
// a game on one device; in a group's game, its member's seats (and the
// CPU's seats for the creator).
function mySeat(i) { return mySeatIn(state, i); }

// The same for seat `i` of the game `game`.
function mySeatIn(game, i) {
  if (!game || !game.group) return true;
  const owner = game.group.seats[i];
  return groupYou.includes(owner ? owner.member : 1);
}

async function createGroup() {
  const body = { name: $("group-name").value, settings: groupSettingsFromForm() };
  try {
    const next = await api("POST", "/api/groups", body);
    alertSetup(null);
    history.pushState(null, "", next.link);
    $("setup").hidden = true;
    setGroup(next);
  } catch (err) {
    alertSetup(err);
  }
}

// The creator's form: the setup form's choices, set to the group's
// settings.
function openGroupSettings() {
  if (!group) return;
  const s = group.settings;
  setupMode(true);
  if (setup.games.some((g) => g.name === s.game)) $("game").value = s.game;
  $("position").value = "";
  fillPlayers();
  setRules(s.rules);
  $("rotate-first").checked = s.rotate_first;
  $("group-show-legal").checked = s.show_legal_moves;
  setTurnSeconds(s.turn_seconds);
  $("group-engine-count").value = String(s.engines.length);
  if (s.engines.length > 0) $("group-engine-level").value = String(s.engines[0].level);
  alertSetup(null);
  $("setup").hidden = false;
  $("setup").scrollIntoView({ block: "nearest" });
}

function closeGroupSettings() {
  $("setup").hidden = true;
  alertSetup(null);
}

// Saves the form as the group's settings: the server refuses them to
// anyone but the creator (403), during a game (409) and when the game
// cannot take the group's people and CPU seats (409) or a choice is out
// of range (400); the refusal stays in the form.
async function saveGroupSettings() {
  if (!group) return;
  try {
    const next = await api("PUT", `/api/groups/${group.id}/settings`, groupSettingsFromForm(group.settings.engines));
    closeGroupSettings();
    setGroup(next);
  } catch (err) {
    alertSetup(err);
  }
}

// Takes `next` as the group shown. Showing legal moves is the group's
// choice for its pages: a page takes it when it opens the group and
// whenever the creator changes it (its switch then stays the person's).
function takeGroup(next) {
  const old = group;
  group = next;
  groupYou = next.you || [];
  const legal = next.settings.show_legal_moves;
  if (!old || old.id !== next.id || old.settings.show_legal_moves !== legal) {
    $("show-legal").checked = legal;
    if (state) drawBoard();
  }
}

async function joinGroup() {
  try {
    const next = await api("POST", `/api/groups/${group.id}/join`, { name: $("join-name").value });
    groupError(null);
    setGroup(next);
  } catch (err) {
    groupError(err);
  }
}

async function groupAction(method, path, body) {
  try {
    const next = await api(method, path, body);
    groupError(null);
    setGroup(next);
  } catch (err) {
    groupError(err);
  }
}

// Follows the group `id` live: each event is the group's state with its
// game's. While the stream is open the page does not poll; when it fails
// for good (an old browser, a refusal) the poll takes over. A dropped
// stream reconnects by itself, sending the id of the last event it had.
// The stream speaks for the members this device held when it opened (its
// cookies): it is opened again when they change (the device joined).
function followGroup(id, you) {
  const key = JSON.stringify(you);
  if (groupStream && groupStream.groupId === id && groupStream.you === key) return;
  stopGroupStream();
  if (typeof EventSource !== "function") return;
  const source = new EventSource(`/api/groups/${id}/events`);
  source.groupId = id;
  source.you = key;
  source.onmessage = (event) => {
    let next;
    try { next = JSON.parse(event.data); } catch (err) { return; }
    showStreamed(next.game_state, () => {
      if (!group || next.id !== group.id) return;
      const gameChanged = next.game !== group.game;
      takeGroup(next);
      const game = next.game_state;
      if (game && (gameChanged || !state || game.id !== state.id || game.version !== state.version)) setState(game);
      drawGroup();
    });
  };
  groupStream = source;
}

function stopGroupStream() {
  if (groupStream) groupStream.close();
  groupStream = null;
}

// Whether the group's live updates are coming in.
function groupStreaming() {
  return groupStream !== null && groupStream.readyState === EventSource.OPEN;
}

// Back to a game on one device: no group shown.
function leaveGroup() {
  stopGroupStream();
  if (groupSettingsShown()) closeGroupSettings();
  group = null;
  groupYou = [];
  $("group").hidden = true;
}

// Whether this device may start the group's next game now: its
// creator's, between games.
function groupNextReady() { return group !== null && groupYou.includes(1) && group.between_games; }

function startGroupGame() { return groupAction("POST", `/api/groups/${group.id}/next`); }

function groupError(err) { $("group-error").textContent = errorText(err); }

// Opens the group `id` (the page at /j/{id}).
async function loadGroup(id) {
  try {
    setGroup(await api("GET", "/api/groups/" + id));
  } catch (err) {
    openSetup();
    $("setup-error").textContent = t("setup.gone", { reason: errorText(err) });
  }
}

function setGroup(next) {
  takeGroup(next);
  followGroup(next.id, groupYou);
  $("group").hidden = false;
  if (next.game_state) setState(next.game_state);
  else $("play").hidden = true;
  drawGroup();
}

function drawGroup() {
  if (!group) return;
  $("group-link").value = location.origin + group.link;
  // What the group plays, for those who open the invitation.
  const game = setup && setup.games.find((g) => g.name === group.settings.game);
  const title = rulesTitle(group.settings.game, group.settings.rules, "");
  $("group-game").textContent = title ? `${t("setup.game")}: ${title}` : "";
  const list = $("group-members");
  list.innerHTML = "";
  for (const m of group.standings) {
    const member = group.members.find((x) => x.member === m.member);
    const li = document.createElement("li");
    const seat = member && member.seat != null && state && state.group ? seatName(member.seat - 1) : "";
    li.textContent = [
      m.name + (groupYou.includes(m.member) ? " " + t("group.you") : ""),
      seat,
      t("group.points", { points: m.points.toLocaleString(LANG) }),
      member && member.vacant ? t("group.vacant") : member && member.away ? t("group.away") : "",
    ].filter(Boolean).join(" · ");
    // The creator may give the seat of a member gone to a newcomer.
    if (member && member.away && !member.vacant && groupYou.includes(1)) {
      const give = document.createElement("button");
      give.type = "button";
      give.textContent = t("group.free");
      give.addEventListener("click", () => groupAction("POST", `/api/groups/${group.id}/members/${m.member}/free`));
      li.append(" ", give);
    }
    list.appendChild(li);
  }
  drawGroupSettings(game);
  const engines = group.settings.engines;
  const levels = [...new Set(engines.map((e) => t("setup.level" + e.level)))].join(", ");
  $("group-engines").textContent = engines.length ? t("group.engines", { n: engines.length, level: levels }) : "";
  const member = groupYou.length > 0;
  const creator = groupYou.includes(1);
  $("group-join").hidden = member;
  $("group-actions").hidden = !creator;
  $("group-start").hidden = !creator || !group.between_games;
  $("group-start").textContent = t(group.game ? "button.next" : "group.start");
  // The settings change between games only (the server refuses them
  // during one).
  $("group-change").disabled = !group.between_games;
  $("group-waiting").hidden = !member || creator || !group.between_games;
  if (state && state.group) $("newgame").hidden = !groupNextReady();
}

// The group's settings in words: the clock, the switches, and the rule
// options of its game (`game`, as the server lists it).
function drawGroupSettings(game) {
  const s = group.settings;
  const yes = (flag) => t(flag ? "group.yes" : "group.no");
  const items = [
    [t("setup.turn_time"), s.turn_seconds ? `${s.turn_seconds.toLocaleString(LANG)} s` : t("clock.none")],
    [t("toggle.legal"), yes(s.show_legal_moves)],
    [t("setup.rotate"), yes(s.rotate_first)],
  ];
  const rules = game && setup ? setup.rules.filter((r) => game.rules.includes(r.name)) : [];
  for (const rule of rules) {
    const value = s.rules[rule.name];
    if (value === undefined) continue;
    items.push([ruleName(rule.name), typeof value === "boolean" ? yes(value) : value.toLocaleString(LANG)]);
  }
  const list = $("group-settings");
  list.innerHTML = "";
  for (const [name, value] of items) {
    const li = document.createElement("li");
    li.textContent = `${name}: ${value}`;
    list.appendChild(li);
  }
}

async function pollGroup() {
  if (!group || document.hidden || groupStreaming()) return;
  try {
    const next = await api("GET", "/api/groups/" + group.id);
    if (!group || next.id !== group.id) return;
    const gameChanged = next.game !== group.game;
    takeGroup(next);
    if (gameChanged && next.game_state) setState(next.game_state);
    drawGroup();
  } catch (err) {
    groupError(err);
  }
}

async function copyLink() {
  const input = $("group-link");
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (err) {
    document.execCommand("copy");
  }
  $("group-copied").textContent = t("group.copied");
}

// The group's buttons and poll (app.js calls it once the page's helpers
// are defined).
function initGroups() {
  $("create-group").addEventListener("click", createGroup);
  $("group-join-button").addEventListener("click", joinGroup);
  $("group-start").addEventListener("click", startGroupGame);
  $("group-change").addEventListener("click", openGroupSettings);
  $("save-settings").addEventListener("click", saveGroupSettings);
  $("cancel-settings").addEventListener("click", closeGroupSettings);
  $("group-copy").addEventListener("click", copyLink);
  setInterval(pollGroup, 1000);
}
