// Groups on the page: create a group from the setup form (your name, the
// form's game, rules, clock and CPU seats), the invitation link to copy,
// the join form at /j/{id}, the members and standings, and the board of
// the group's game where only this device's seats can play
// (docs/SERVE.md, "Groups"). The seat tokens are HttpOnly cookies: the
// page never sees them; the server says which members this device holds.
"use strict";

let group = null;       // the last group from the server (GET /api/groups/{id})
let groupYou = [];      // the members this device plays for

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
  const level = Number($("group-engine-level").value);
  const engines = Array.from({ length: Number($("group-engine-count").value) }, () => ({ level }));
  const body = {
    name: $("group-name").value,
    settings: {
      game: $("game").value,
      engines,
      rules: readRules(),
      rotate_first: $("rotate-first").checked,
      show_legal_moves: $("show-legal").checked,
      turn_seconds: Number($("turn-seconds").value),
    },
  };
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

// Back to a game on one device: no group shown.
function leaveGroup() {
  group = null;
  groupYou = [];
  $("group").hidden = true;
}

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
  const first = !group || group.id !== next.id;
  group = next;
  groupYou = next.you || [];
  if (first) $("show-legal").checked = next.settings.show_legal_moves;
  $("group").hidden = false;
  if (next.game_state) setState(next.game_state);
  else $("play").hidden = true;
  drawGroup();
}

function drawGroup() {
  if (!group) return;
  $("group-link").value = location.origin + group.link;
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
    ].filter(Boolean).join(" · ");
    list.appendChild(li);
  }
  const engines = group.settings.engines.length;
  $("group-engines").textContent = engines ? t("group.engines", { n: engines }) : "";
  const member = groupYou.length > 0;
  const creator = groupYou.includes(1);
  $("group-join").hidden = member;
  $("group-start").hidden = !creator || !group.between_games;
  $("group-start").textContent = t(group.game ? "button.next" : "group.start");
  $("group-waiting").hidden = !member || creator || !group.between_games;
}

async function pollGroup() {
  if (!group || document.hidden) return;
  try {
    const next = await api("GET", "/api/groups/" + group.id);
    if (!group || next.id !== group.id) return;
    const gameChanged = next.game !== group.game;
    group = next;
    groupYou = next.you || [];
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
  $("group-start").addEventListener("click", () => groupAction("POST", `/api/groups/${group.id}/next`));
  $("group-copy").addEventListener("click", copyLink);
  setInterval(pollGroup, 1000);
}
