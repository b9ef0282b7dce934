//! The table of every option ([`OPTIONS`]), with the small readers its
//! entries share.

use super::{
    OptionDecl, OptionEffect, OptionError, OptionGroup, OptionType, OptionValue, Options, RuleSet,
};
use super::{MAX_BEAM_WIDTH, MAX_LIMIT, MAX_MOVE_OVERHEAD_MS, MAX_SEED};
use crate::chinese::Rules;
use crate::game::GameKind;
use crate::search::{Style, MAX_HASH_MB, MAX_THREADS};
use crate::spanish::{self, Variant};

const CHINESE: &[GameKind] = &[GameKind::Chinese, GameKind::Japanese];
const ALL_GAMES: &[GameKind] = &GameKind::ALL;
const GAMES: &[&str] = &["spanish", "chinese", "japanese"];
/// The draughts variants the front ends offer: every one a game can be
/// made with, so that a variant is offered everywhere the day it plays.
const VARIANTS: &[&str] = &{
    let mut names = [""; Variant::IMPLEMENTED.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Variant::IMPLEMENTED[i].name();
        i += 1;
    }
    names
};
const STYLES: &[&str] = &["best", "plain", "greedy", "random"];
/// `Rules` presets; `custom` names any other combination and sets nothing.
const RULE_SETS: &[&str] = &[
    RuleSet::Default.name(),
    RuleSet::Ccerl.name(),
    RuleSet::Custom.name(),
];

/// The check of an option whose every value fits any settings.
fn any_value(_: &Options, _: &OptionValue) -> Result<(), OptionError> {
    Ok(())
}

/// `Rules ccerl` is two-player Chinese checkers: refused while `Players`
/// asks for another count, which the preset would otherwise override.
fn ccerl_needs_two_players(settings: &Options, value: &OptionValue) -> Result<(), OptionError> {
    let players = Rules::ccerl().players;
    if rule_set(value) == Some(RuleSet::Ccerl) && settings.players != players {
        return Err(OptionError::CcerlPlayers(settings.players));
    }
    Ok(())
}

fn flag(value: &OptionValue) -> bool {
    matches!(value, OptionValue::Check(true))
}

fn number(value: &OptionValue) -> u64 {
    match value {
        OptionValue::Spin(n) => *n,
        _ => 0,
    }
}

fn choice(value: &OptionValue) -> &'static str {
    match value {
        OptionValue::Combo(c) => c,
        _ => "",
    }
}

/// The preset a `Rules` value names.
fn rule_set(value: &OptionValue) -> Option<RuleSet> {
    choice(value).parse().ok()
}

fn limit(value: &OptionValue) -> Option<u32> {
    u32::try_from(number(value)).ok().filter(|&n| n > 0)
}

fn limit_value(limit: Option<u32>) -> OptionValue {
    OptionValue::Spin(u64::from(limit.unwrap_or(0)))
}

/// A check option of the Chinese checkers rules, one field of [`Rules`].
macro_rules! rule_check {
    ($name:literal, $field:ident, $help:literal) => {
        OptionDecl {
            name: $name,
            kind: OptionType::Check,
            group: OptionGroup::Rule,
            games: CHINESE,
            help: $help,
            effect: OptionEffect::NewGame,
            get: |s| OptionValue::Check(s.rules.$field),
            check: any_value,
            set: |s, v| s.rules.$field = flag(v),
        }
    };
}

/// A round limit of the Chinese checkers rules (0: none).
macro_rules! rule_limit {
    ($name:literal, $field:ident, $help:literal) => {
        OptionDecl {
            name: $name,
            kind: OptionType::Spin {
                min: 0,
                max: MAX_LIMIT,
            },
            group: OptionGroup::Rule,
            games: CHINESE,
            help: $help,
            effect: OptionEffect::NewGame,
            get: |s| limit_value(s.rules.$field),
            check: any_value,
            set: |s, v| s.rules.$field = limit(v),
        }
    };
}

// Spin bounds fit every field, so the narrowing casts below are exact.
/// Every option, in the order the protocol declares them.
pub static OPTIONS: &[OptionDecl] = &[
    OptionDecl {
        name: "Game",
        kind: OptionType::Combo(GAMES),
        group: OptionGroup::Game,
        games: ALL_GAMES,
        help: "the game: spanish, chinese or japanese",
        effect: OptionEffect::NewGame,
        get: |s| OptionValue::Combo(s.game.name()),
        check: any_value,
        set: |s, v| {
            if let Ok(kind) = choice(v).parse() {
                s.game = kind;
            }
        },
    },
    OptionDecl {
        name: "Players",
        kind: OptionType::Spin { min: 1, max: 6 },
        group: OptionGroup::Game,
        games: ALL_GAMES,
        help: "players at the board (Spanish draughts: 2)",
        effect: OptionEffect::NewGame,
        get: |s| OptionValue::Spin(u64::from(s.players)),
        check: any_value,
        set: |s, v| s.players = number(v) as u8,
    },
    OptionDecl {
        name: "Variant",
        kind: OptionType::Combo(VARIANTS),
        group: OptionGroup::Rule,
        games: &[GameKind::Spanish],
        help: "the draughts rule set (the variant played)",
        effect: OptionEffect::NewGame,
        get: |s| OptionValue::Combo(s.draughts.variant().name()),
        check: any_value,
        set: |s, v| {
            if let Some(rules) = choice(v)
                .parse()
                .ok()
                .and_then(|v| spanish::Rules::new(v).ok())
            {
                s.draughts = rules;
            }
        },
    },
    rule_check!(
        "AntiBlocking",
        anti_blocking,
        "a full goal with one own piece finishes"
    ),
    rule_check!(
        "PlayToEnd",
        play_to_end,
        "with 3 or more players, play on until every place is decided"
    ),
    rule_limit!("MoveLimit", move_limit, "move limit in rounds (0: none)"),
    rule_limit!(
        "NoProgressLimit",
        no_progress_limit,
        "rounds without progress before the ranking (0: none)"
    ),
    rule_check!(
        "GoalLock",
        goal_lock,
        "a piece in its goal stays in the goal"
    ),
    rule_check!(
        "NoMoveLoss",
        no_move_loss,
        "a player with no legal move loses instead of passing"
    ),
    rule_check!(
        "RepetitionDraw",
        repetition_draw,
        "the third repetition of a position is a draw"
    ),
    rule_check!(
        "EqualTurns",
        equal_turns,
        "two players: the second gets one more move to finish"
    ),
    // A preset: `ccerl` is the CCERL-2P10-v2 benchmark (two-player Chinese
    // checkers), `default` the library's defaults.
    OptionDecl {
        name: "Rules",
        kind: OptionType::Combo(RULE_SETS),
        group: OptionGroup::Rule,
        games: CHINESE,
        help: "a rule preset: default, ccerl (two-player Chinese checkers: sets Game, needs Players 2) or custom",
        effect: OptionEffect::NewGame,
        get: |s| OptionValue::Combo(s.rule_set().name()),
        check: ccerl_needs_two_players,
        set: |s, v| match rule_set(v) {
            Some(RuleSet::Ccerl) => {
                let ccerl = Rules::ccerl();
                s.game = GameKind::Chinese;
                s.players = ccerl.players;
                s.apply_rules(&ccerl);
            }
            Some(RuleSet::Default) => s.apply_rules(&Rules::default()),
            Some(RuleSet::Custom) | None => {}
        },
    },
    OptionDecl {
        name: "Threads",
        kind: OptionType::Spin {
            min: 1,
            max: MAX_THREADS as u64,
        },
        group: OptionGroup::Search,
        games: ALL_GAMES,
        help: "search threads",
        effect: OptionEffect::None,
        get: |s| OptionValue::Spin(s.threads as u64),
        check: any_value,
        set: |s, v| s.threads = number(v) as usize,
    },
    OptionDecl {
        name: "Hash",
        kind: OptionType::Spin {
            min: 1,
            max: MAX_HASH_MB as u64,
        },
        group: OptionGroup::Host,
        games: ALL_GAMES,
        help: "transposition table size in MiB",
        effect: OptionEffect::ResizeHash,
        get: |s| OptionValue::Spin(s.hash_mb as u64),
        check: any_value,
        set: |s, v| s.hash_mb = number(v) as usize,
    },
    OptionDecl {
        name: "MoveOverhead",
        kind: OptionType::Spin {
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
        },
        group: OptionGroup::Host,
        games: ALL_GAMES,
        help: "milliseconds kept back from every clock",
        effect: OptionEffect::None,
        get: |s| OptionValue::Spin(s.move_overhead_ms),
        check: any_value,
        set: |s, v| s.move_overhead_ms = number(v),
    },
    OptionDecl {
        name: "BeamWidth",
        kind: OptionType::Spin {
            min: 1,
            max: MAX_BEAM_WIDTH,
        },
        group: OptionGroup::Search,
        games: CHINESE,
        help: "moves kept per step by the solitaire beam search",
        effect: OptionEffect::None,
        get: |s| OptionValue::Spin(s.beam_width as u64),
        check: any_value,
        set: |s, v| s.beam_width = number(v) as usize,
    },
    OptionDecl {
        name: "Style",
        kind: OptionType::Combo(STYLES),
        group: OptionGroup::Search,
        games: ALL_GAMES,
        help: "the full engine (best) or a baseline player: plain, greedy, random",
        effect: OptionEffect::None,
        get: |s| OptionValue::Combo(s.style.name()),
        check: any_value,
        set: |s, v| {
            if let Some(style) = Style::ALL.into_iter().find(|st| st.name() == choice(v)) {
                s.style = style;
            }
        },
    },
    OptionDecl {
        name: "Seed",
        kind: OptionType::Spin {
            min: 0,
            max: MAX_SEED,
        },
        group: OptionGroup::Search,
        games: ALL_GAMES,
        help: "seed of the random and greedy players' choices (0: the clock)",
        effect: OptionEffect::None,
        get: |s| OptionValue::Spin(s.seed),
        check: any_value,
        set: |s, v| s.seed = number(v),
    },
    OptionDecl {
        name: "OwnBook",
        kind: OptionType::Check,
        group: OptionGroup::Search,
        games: &[GameKind::Spanish],
        help: "play the opening from the book while the position is in it",
        effect: OptionEffect::None,
        get: |s| OptionValue::Check(s.own_book),
        check: any_value,
        set: |s, v| s.own_book = flag(v),
    },
    OptionDecl {
        name: "TablebasePath",
        kind: OptionType::Text,
        group: OptionGroup::Host,
        games: &[GameKind::Spanish],
        help: "directory of the Spanish draughts endgame tables (<empty>: none)",
        effect: OptionEffect::LoadTablebase,
        get: |s| OptionValue::Text(s.tablebase_path.clone()),
        check: any_value,
        set: |s, v| {
            if let OptionValue::Text(text) = v {
                s.tablebase_path.clone_from(text);
            }
        },
    },
];
