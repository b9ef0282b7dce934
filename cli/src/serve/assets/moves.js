// What happened and what may happen: the move list, the last move drawn
// (its path, the pieces it took, the moved piece animated along every
// jump) and why a click was refused.
"use strict";

const STEP_MS = 220;    // animation time per leg of a move
let animation = null;   // {path, start, key}: the move being animated
let refusalCache = null; // {key, text}: why no other piece may move (key: game and version)

// A turn's text in this language ("pass" and "resign" are words).
function turnText(text) {
  if (text === "pass") return t("move.pass");
  if (text === "resign") return t("move.resign");
  return text;
}

function moveRow(number, parts) {
  const li = document.createElement("li");
  const no = document.createElement("span");
  no.className = "no";
  no.textContent = number + ".";
  li.appendChild(no);
  for (const part of parts) li.appendChild(part);
  return li;
}

function moveSpan(text, player) {
  const span = document.createElement("span");
  span.className = "mv";
  if (player != null) {
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.style.background = colour(player);
    span.appendChild(dot);
    span.append(" ");
  }
  span.append(turnText(text));
  return span;
}

// Two players: numbered pairs ("…" first when the second player opened);
// more: one numbered, coloured line per turn.
function drawMoves() {
  const list = $("moves");
  list.innerHTML = "";
  if (state.players === 2) {
    const secondFirst = state.moves.length > 0 && state.moves[0].player === 1;
    const plies = (secondFirst ? ["…"] : []).concat(state.moves.map((m) => m.text));
    for (let i = 0; i < plies.length; i += 2) {
      const parts = [moveSpan(plies[i])];
      if (plies[i + 1]) parts.push(moveSpan(plies[i + 1]));
      list.appendChild(moveRow(i / 2 + 1, parts));
    }
  } else {
    state.moves.forEach((m, i) => list.appendChild(moveRow(i + 1, [moveSpan(m.text, m.player)])));
  }
  list.scrollTop = list.scrollHeight;
}

// Whether `next` adds a move to the game of `old` (then it is animated).
function noteNewMove(old, next) {
  const same = old && old.id === next.id && old.game_number === next.game_number;
  if (!same || !next.last || next.moves.length <= old.moves.length) {
    if (!same || next.moves.length < old.moves.length) animation = null;
    return;
  }
  const key = next.moves.length + ":" + next.last.path.join("-");
  if (animation && animation.key === key) return;
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  animation = still || next.last.path.length < 2 ? null : { path: next.last.path, start: performance.now(), key };
}

// The last move on the board: its path as a line through every point it
// stood on, and a mark where each piece it took stood (until the next
// move); then the moved piece travels the path, leg by leg.
function drawLastMove(svg, geo, byName) {
  const last = state.last;
  const board = $("board");
  if (!last) { board.dataset.animated = ""; return; }
  const points = last.path.map((name) => byName.get(name)).filter(Boolean).map((p) => geo.at(p));
  if (points.length >= 2) {
    el("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "last-path" }, svg);
    const [x, y] = points[0];
    el("circle", { cx: x, cy: y, r: geo.size * 0.12, class: "last-from" }, svg);
  }
  for (const name of last.captured) {
    const p = byName.get(name);
    if (!p || p.piece) continue;
    const [cx, cy] = geo.at(p);
    const g = el("g", { class: "captured-mark", "data-captured": name }, svg);
    el("circle", { cx, cy, r: geo.size * 0.34 }, g);
    const d = geo.size * 0.2;
    el("path", { d: `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx + d},${cy - d}L${cx - d},${cy + d}` }, g);
  }
  animate(svg, geo, points, last.path);
}

function animate(svg, geo, points, path) {
  const board = $("board");
  const done = () => { board.dataset.animated = path.join("-"); };
  if (!animation || animation.path.join("-") !== path.join("-") || points.length < 2) return done();
  const duration = STEP_MS * (points.length - 1);
  const elapsed = performance.now() - animation.start;
  if (elapsed >= duration) { animation = null; return done(); }
  const to = path[path.length - 1];
  const still = board.querySelector(`g.pt[data-name="${to}"] .piece`);
  if (!still || typeof svg.animate !== "function") { animation = null; return done(); }
  board.dataset.animated = "";
  board.dataset.animating = path.join("-");
  // The piece is drawn at its start and moved by a transform, so that the
  // board underneath stays as the state says.
  const group = still.parentNode;
  const [x0, y0] = points[0];
  const moving = el("g", { class: "moving" }, svg);
  for (const node of group.querySelectorAll(".piece, .crown:not(.w)")) {
    const copy = node.cloneNode(true);
    if (copy.tagName === "circle") { copy.setAttribute("cx", x0); copy.setAttribute("cy", y0); }
    else { copy.setAttribute("x", x0); copy.setAttribute("y", y0); }
    moving.appendChild(copy);
    node.style.visibility = "hidden";
  }
  const frames = points.map(([x, y]) => ({ transform: `translate(${x - x0}px, ${y - y0}px)` }));
  const run = moving.animate(frames, { duration, easing: "ease-in-out", fill: "forwards" });
  run.currentTime = elapsed;
  run.onfinish = () => {
    // The board was drawn anew meanwhile (a later move may already have
    // ended there): that drawing says when its own move has ended.
    if (!moving.isConnected) return;
    moving.remove();
    for (const node of group.querySelectorAll(".piece, .crown")) node.style.visibility = "";
    if (animation && animation.path === path) animation = null;
    done();
  };
}

// ---- refused clicks ----

function showHint(text) { $("hint").textContent = text || ""; }

// Why the person's other pieces may not move: a capture is mandatory (and,
// where the rules say so, the most pieces must be taken), or the piece is
// stuck.
async function stuckReason(point) {
  const key = state.id + ":" + state.version;
  if (refusalCache && refusalCache.key === key) return refusalCache.text;
  let text = t("refuse.stuck");
  const pieces = state.movable.join(", ");
  if (state.movable.length > 0) {
    try {
      const moves = await api("GET", `/api/games/${state.id}/moves?from=${encodeURIComponent(state.movable[0])}`);
      const capture = moves.find((mv) => mv.kind === "capture");
      if (capture) {
        const most = Math.max(...moves.map((mv) => mv.captured.length));
        text = most >= 2 && state.must_take_most ? t("refuse.max_capture", { n: most, pieces }) : t("refuse.capture_mandatory", { pieces });
      }
    } catch (err) { /* the general reason stays */ }
  }
  if (text === t("refuse.stuck") && point.goal === state.to_move && state.settings.rules.GoalLock) {
    text = t("refuse.goal_lock");
  }
  refusalCache = { key, text };
  return text;
}

// The sentence for a click on `name` that selects nothing and plays
// nothing, or "" when there is nothing to say.
async function refusal(name) {
  if (state.result || state.to_move == null) return t("refuse.over");
  if (!humanToMove()) {
    const player = seatName(state.to_move);
    if (state.thinking) return t("refuse.thinking", { player });
    // A group's game: the seat to move is another member's, at their device.
    if (state.seats[state.to_move].kind === "human") return t("refuse.other_device", { player });
    return t("refuse.not_your_turn", { player });
  }
  const point = state.board.points.find((p) => p.name === name);
  if (!point) return "";
  if (point.piece && point.piece.player === state.to_move) return stuckReason(point);
  if (point.piece) return t("refuse.not_yours", { owner: seatName(point.piece.player), player: seatName(state.to_move) });
  if (selected) {
    return choices.length > 0 && choices.every((mv) => mv.kind === "capture")
      ? t("refuse.capture_landing") : t("refuse.not_landing");
  }
  return t("refuse.pick_piece", { player: seatName(state.to_move) });
}
