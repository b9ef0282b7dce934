//! The board's languages: English, Spanish and Portuguese. The texts live
//! in one data file per language (`assets/i18n/*.json`, flat objects from
//! key to text with `{name}` placeholders), served to the page and read
//! here for what the server writes itself (the records' names). The
//! language of a request is the `lang` query parameter, else the page's
//! `damas_lang` cookie (set by its language switch), else the best match
//! of `Accept-Language`, else English.

use std::collections::HashMap;
use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// A language of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Es,
    Pt,
}

const EN_JSON: &str = include_str!("assets/i18n/en.json");
const ES_JSON: &str = include_str!("assets/i18n/es.json");
const PT_JSON: &str = include_str!("assets/i18n/pt.json");

impl Lang {
    /// Every language, English (the fallback) first.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Es, Lang::Pt];

    /// The language's code (`en`, `es`, `pt`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
            Lang::Pt => "pt",
        }
    }

    /// The language a tag names (`es`, `es-AR`, `PT-br`), if it is one of
    /// the board's.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?;
        Lang::ALL
            .into_iter()
            .find(|lang| primary.eq_ignore_ascii_case(lang.code()))
    }

    /// The language's data file as served.
    pub fn json(self) -> &'static str {
        match self {
            Lang::En => EN_JSON,
            Lang::Es => ES_JSON,
            Lang::Pt => PT_JSON,
        }
    }

    fn texts(self) -> &'static HashMap<String, String> {
        static TEXTS: OnceLock<[HashMap<String, String>; 3]> = OnceLock::new();
        let all = TEXTS.get_or_init(|| {
            // The files are the crate's own, checked by the tests below: a
            // broken one reads as empty (every text then falls back).
            Lang::ALL.map(|lang| serde_json::from_str(lang.json()).unwrap_or_default())
        });
        &all[self as usize]
    }

    /// The text of `key` with `{name}` placeholders filled from `params`;
    /// English when this language lacks it, the key itself when English
    /// does too.
    pub fn text(self, key: &str, params: &[(&str, &str)]) -> String {
        let template = self
            .texts()
            .get(key)
            .or_else(|| Lang::En.texts().get(key))
            .map_or(key, String::as_str);
        params
            .iter()
            .fold(template.to_string(), |text, (name, value)| {
                text.replace(&format!("{{{name}}}"), value)
            })
    }
}

/// The best of the board's languages in an `Accept-Language` value
/// (`es-AR,es;q=0.9,en;q=0.8`): the highest quality wins, the earlier on a
/// tie; English when none is one of the board's.
pub fn negotiate(accept_language: &str) -> Lang {
    let mut best: Option<(Lang, f32)> = None;
    for item in accept_language.split(',').take(32) {
        let mut parts = item.split(';');
        let Some(lang) = parts.next().and_then(Lang::from_tag) else {
            continue;
        };
        let quality = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .map_or(1.0, |q| q.trim().parse::<f32>().unwrap_or(0.0));
        if quality > 0.0 && best.is_none_or(|(_, q)| quality > q) {
            best = Some((lang, quality));
        }
    }
    best.map_or(Lang::En, |(lang, _)| lang)
}

/// The language of a request: `asked` (a `lang` parameter), else the
/// `damas_lang` cookie, else `Accept-Language`.
pub fn of_request(headers: &HeaderMap, asked: Option<&str>) -> Lang {
    if let Some(lang) = asked.and_then(Lang::from_tag) {
        return lang;
    }
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .find_map(|pair| pair.trim().strip_prefix("damas_lang="))
        .and_then(Lang::from_tag);
    if let Some(lang) = cookie {
        return lang;
    }
    headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|value| value.to_str().ok())
        .map_or(Lang::En, negotiate)
}

/// The page in the request's language: its `<html lang>` says which, and
/// its script loads that language's texts.
pub fn page(html: &str, headers: &HeaderMap) -> String {
    let lang = of_request(headers, None);
    html.replacen(
        "<html lang=\"en\">",
        &format!("<html lang=\"{}\">", lang.code()),
        1,
    )
}

/// `GET /i18n/{lang}.json`: a language's texts.
pub async fn texts(Path(file): Path<String>) -> Response {
    let lang = file
        .strip_suffix(".json")
        .filter(|code| code.len() == 2)
        .and_then(Lang::from_tag);
    match lang {
        Some(lang) => (
            [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
            lang.json(),
        )
            .into_response(),
        None => ApiError::no_page().into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::messages::Code;
    use axum::http::HeaderValue;

    fn keys(lang: Lang) -> Vec<String> {
        let map: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(lang.json()).expect("the file is a JSON object");
        for (key, value) in &map {
            assert!(
                value.as_str().is_some_and(|t| !t.trim().is_empty()),
                "{}: {key} is not a text",
                lang.code()
            );
        }
        let mut keys: Vec<String> = map.keys().cloned().collect();
        keys.sort();
        keys
    }

    /// `{name}` placeholders of a text, sorted.
    fn placeholders(text: &str) -> Vec<String> {
        let mut found: Vec<String> = text
            .split('{')
            .skip(1)
            .filter_map(|part| part.split_once('}').map(|(name, _)| name.to_string()))
            .collect();
        found.sort();
        found
    }

    #[test]
    fn every_language_has_every_key_and_no_other() {
        let english = keys(Lang::En);
        assert!(english.len() > 100, "{} keys", english.len());
        for lang in [Lang::Es, Lang::Pt] {
            let other = keys(lang);
            let missing: Vec<&String> = english.iter().filter(|k| !other.contains(k)).collect();
            let extra: Vec<&String> = other.iter().filter(|k| !english.contains(k)).collect();
            assert!(missing.is_empty(), "{} lacks {missing:?}", lang.code());
            assert!(extra.is_empty(), "{} has extra {extra:?}", lang.code());
            for key in &english {
                assert_eq!(
                    placeholders(&Lang::En.text(key, &[])),
                    placeholders(&lang.text(key, &[])),
                    "{}: the placeholders of {key}",
                    lang.code()
                );
            }
        }
    }

    #[test]
    fn every_key_the_page_uses_is_in_the_files() {
        let english = keys(Lang::En);
        let mut used = Vec::new();
        for source in [
            include_str!("assets/app.js"),
            include_str!("assets/moves.js"),
            include_str!("assets/i18n.js"),
            include_str!("assets/setup.js"),
            include_str!("assets/group.js"),
        ] {
            // Literal keys only: `t("reason." + code)` is checked by the
            // tests of the codes.
            for (at, _) in source.match_indices("t(\"") {
                let before = source[..at].chars().next_back().unwrap_or(' ');
                if before.is_alphanumeric() || before == '_' || before == '.' {
                    continue;
                }
                let part = &source[at + 3..];
                if let Some((key, rest)) = part.split_once('"') {
                    if rest.starts_with([')', ',']) {
                        used.push(key.to_string());
                    }
                }
            }
        }
        for part in include_str!("assets/index.html")
            .split("data-i18n=\"")
            .skip(1)
        {
            if let Some((key, _)) = part.split_once('"') {
                used.push(key.to_string());
            }
        }
        assert!(used.len() > 40, "{} keys used", used.len());
        let missing: Vec<&String> = used.iter().filter(|k| !english.contains(k)).collect();
        assert!(missing.is_empty(), "not in en.json: {missing:?}");
    }

    #[test]
    fn the_seed_sites_terms_are_used() {
        let spanish = Lang::Es.json();
        for term in [
            "Antibloqueo",
            "Jugar hasta el final",
            "Rotar el primer turno",
            "Mostrar jugadas legales",
        ] {
            assert!(spanish.contains(term), "es: {term}");
        }
        let portuguese = Lang::Pt.json();
        for term in [
            "Antibloqueio",
            "Jogar até o fim",
            "Alternar quem começa",
            "Mostrar jogadas legais",
        ] {
            assert!(portuguese.contains(term), "pt: {term}");
        }
    }

    #[test]
    fn accept_language_picks_the_best_board_language() {
        assert_eq!(negotiate("es-AR,es;q=0.9,en;q=0.8"), Lang::Es);
        assert_eq!(negotiate("pt-BR"), Lang::Pt);
        assert_eq!(negotiate("fr-FR,fr;q=0.9,pt;q=0.5,es;q=0.4"), Lang::Pt);
        assert_eq!(negotiate("en-US,es;q=0.9"), Lang::En);
        assert_eq!(negotiate("de, *;q=0.1"), Lang::En);
        assert_eq!(negotiate("es;q=0, pt;q=0.2"), Lang::Pt);
        assert_eq!(negotiate(""), Lang::En);
        assert_eq!(negotiate(";;;,q=,es;q=x"), Lang::En);
    }

    #[test]
    fn a_parameter_beats_the_cookie_which_beats_the_header() {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("pt"));
        assert_eq!(of_request(&headers, None), Lang::Pt);
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=b; damas_lang=es"),
        );
        assert_eq!(of_request(&headers, None), Lang::Es);
        assert_eq!(of_request(&headers, Some("en")), Lang::En);
        assert_eq!(of_request(&headers, Some("xx")), Lang::Es);
        assert_eq!(of_request(&HeaderMap::new(), None), Lang::En);
    }

    #[test]
    fn texts_fill_their_placeholders_and_fall_back() {
        assert_eq!(
            Lang::Es.text("record.engine", &[("level", "4"), ("ms", "500")]),
            "damas nivel 4 500 ms"
        );
        assert_eq!(Lang::Pt.text("no.such.key", &[]), "no.such.key");
    }

    /// Every code has its text in every language file.
    #[test]
    fn every_code_is_translated() {
        for lang in Lang::ALL {
            let texts: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(lang.json()).expect("JSON");
            for code in Code::ALL {
                let key = format!("error.{}", code.name());
                assert!(
                    texts.get(&key).is_some_and(serde_json::Value::is_string),
                    "{}.json lacks {key}",
                    lang.code()
                );
            }
        }
        let names: std::collections::HashSet<&str> =
            Code::ALL.iter().map(|code| code.name()).collect();
        assert_eq!(names.len(), Code::ALL.len(), "every name once");
    }
}
