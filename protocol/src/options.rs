//! The options as the protocol declares them: the `option name ...` lines
//! of the reply to `ugi`, formatted from the engine's one table
//! ([`damas::options::OPTIONS`]), which also reads and checks `setoption`.

pub use damas::options::{OptionEffect, OptionError, Options, MAX_LIMIT};
use damas::options::{OptionType, OPTIONS};

/// Longest `TablebasePath` accepted, in bytes.
pub const MAX_PATH_LEN: usize = damas::options::MAX_TEXT_LEN;

/// The `option name ...` lines sent in reply to `ugi`, with the values of
/// `options` as the defaults.
pub fn declaration_lines(options: &Options) -> Vec<String> {
    OPTIONS
        .iter()
        .map(|decl| {
            let name = decl.name;
            let default = decl.value_text(options);
            match decl.kind {
                OptionType::Check => format!("option name {name} type check default {default}"),
                OptionType::Spin { min, max } => {
                    format!("option name {name} type spin default {default} min {min} max {max}")
                }
                OptionType::Combo(values) => {
                    let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                    format!("option name {name} type combo default {default}{vars}")
                }
                OptionType::Text => format!("option name {name} type string default {default}"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_list_every_option() {
        let lines = declaration_lines(&Options::default());
        assert_eq!(lines.len(), OPTIONS.len());
        assert_eq!(
            lines[0],
            "option name Game type combo default spanish var spanish var chinese var japanese"
        );
        assert!(lines
            .iter()
            .any(|l| l == "option name Hash type spin default 64 min 1 max 4096"));
        assert!(lines
            .iter()
            .any(|l| l == "option name TablebasePath type string default <empty>"));
    }
}
