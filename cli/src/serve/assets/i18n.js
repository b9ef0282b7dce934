// The board's languages: the texts of one language (GET /i18n/{lang}.json,
// a flat object from key to text with {name} placeholders), the switch
// that keeps the choice (localStorage and the damas_lang cookie, which the
// server reads for the page and the records), and the server's sentences
// said by their code.
"use strict";

const LANGS = { en: "English", es: "Español", pt: "Português" };
let TEXTS = {};
let LANG = "en";

// The text of `key`, its {name} placeholders filled from `params`; the key
// itself when the language lacks it (a test keeps every key in every file).
function t(key, params) {
  let text = Object.prototype.hasOwnProperty.call(TEXTS, key) ? TEXTS[key] : key;
  for (const [name, value] of Object.entries(params || {})) text = text.split("{" + name + "}").join(String(value));
  return text;
}

function has(key) { return Object.prototype.hasOwnProperty.call(TEXTS, key); }

// The language chosen with the switch, else the page's (the server chose
// it from Accept-Language).
function chosenLang() {
  let stored = null;
  try { stored = localStorage.getItem("damas-lang"); } catch (err) { stored = null; }
  if (stored && LANGS[stored]) return stored;
  const page = (document.documentElement.lang || "en").slice(0, 2);
  return LANGS[page] ? page : "en";
}

async function loadLang(lang) {
  const response = await fetch(`/i18n/${lang}.json`);
  if (!response.ok) throw new Error(response.statusText);
  TEXTS = await response.json();
  LANG = lang;
  document.documentElement.lang = lang;
  applyTexts();
}

// The fixed texts of the page: `data-i18n` (text), `data-i18n-aria`
// (aria-label).
function applyTexts() {
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-aria]")) node.setAttribute("aria-label", t(node.dataset.i18nAria));
  document.title = t("page.title");
  const select = document.getElementById("lang");
  if (select) select.value = LANG;
}

function fillLangSwitch(onChange) {
  const select = document.getElementById("lang");
  select.innerHTML = Object.entries(LANGS).map(([code, name]) => `<option value="${code}">${name}</option>`).join("");
  select.value = LANG;
  select.addEventListener("change", async () => {
    const lang = select.value;
    try { localStorage.setItem("damas-lang", lang); } catch (err) { /* private mode: the cookie still keeps it */ }
    document.cookie = `damas_lang=${lang}; path=/; max-age=31536000; SameSite=Lax`;
    await loadLang(lang);
    onChange();
  });
}

// A seat's name in this language ("White" is "Blancas").
function playerWord(name, index) {
  if (!name) return t("player.seat", { n: index + 1 });
  const key = "player." + name;
  return has(key) ? t(key) : name;
}

// An error of the server in this language: by its code, with a player
// named by its seat; the English sentence when the code is not known.
function errorText(err) {
  if (!err) return "";
  const code = err.code;
  if (code && code !== "other" && has("error." + code)) {
    const params = Object.assign({}, err.params || {});
    if (params.player != null) params.player = seatName(params.player);
    // A game of one player count: "2", not "2 to 2".
    if (code === "group_players" && params.min != null && params.min === params.max) {
      return t("error.group_players_exact", params);
    }
    return t("error." + code, params);
  }
  return String(err.message || err);
}

// A notice or warning of the state, by its code.
function codedText(code, params, english) {
  if (!code || code === "other" || !has("error." + code)) return english || "";
  const p = Object.assign({}, params || {});
  if (p.player != null) p.player = seatName(p.player);
  return t("error." + code, p);
}

// A score as the analysis shows it: pawns with a sign, or a proven result.
function scoreText(score) {
  const m = /^(win|loss) in (\d+)$/.exec(score || "");
  return m ? t("analysis." + m[1], { n: m[2] }) : score;
}
