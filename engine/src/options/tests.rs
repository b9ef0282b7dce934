use super::*;
use crate::chinese::Rules;

#[test]
fn every_option_is_settable_to_its_default_and_reads_back() {
    let mut settings = Options::default();
    for decl in OPTIONS {
        let value = decl.value_text(&settings);
        assert!(!value.is_empty(), "{} has no value text", decl.name);
        assert_eq!(value, decl.default_text());
        let before = settings.clone();
        settings.set(decl.name, &value).expect("default accepted");
        assert_eq!(settings, before, "{} changed on its own default", decl.name);
        assert!(!decl.games.is_empty() && !decl.help.is_empty());
    }
}

#[test]
fn every_value_a_spin_or_combo_accepts_reads_back_as_set() {
    for decl in OPTIONS.iter().filter(|d| d.name != "Rules") {
        let values: Vec<String> = match decl.kind {
            OptionType::Check => vec!["true".into(), "false".into()],
            OptionType::Spin { min, max } => vec![min.to_string(), max.to_string()],
            OptionType::Combo(values) => values.iter().map(|v| v.to_string()).collect(),
            OptionType::Text => vec!["/tmp/tables".into(), "<empty>".into()],
        };
        for value in values {
            let mut settings = Options::default();
            settings.set(decl.name, &value).expect("accepted");
            assert_eq!(decl.value_text(&settings), value, "{}", decl.name);
        }
    }
}

#[test]
fn bad_values_change_nothing() {
    let mut settings = Options::default();
    let before = settings.clone();
    for (name, value) in [
        ("Hash", "999999999"),
        ("Hash", "-1"),
        ("Threads", "0"),
        ("Game", "chess"),
        ("AntiBlocking", "maybe"),
        ("Players", "7"),
        ("MoveLimit", "1000001"),
        ("TablebasePath", "a\u{7}b"),
    ] {
        assert!(
            matches!(settings.set(name, value), Err(OptionError::BadValue { .. })),
            "{name} {value}"
        );
    }
    assert!(matches!(
        settings.set("Nope", "1"),
        Err(OptionError::Unknown(_))
    ));
    assert_eq!(settings, before);
}

#[test]
fn rule_options_write_the_rules_and_presets_are_recognised() {
    let mut settings = Options::default();
    settings.set("game", "Chinese").expect("valid");
    settings.set("MoveLimit", "0").expect("valid");
    assert_eq!(settings.rules.move_limit, None);
    assert_eq!(settings.rule_set(), RuleSet::Custom);
    settings.set("Rules", "default").expect("valid");
    assert_eq!(settings.rule_set(), RuleSet::Default);
    settings.set("Rules", "ccerl").expect("valid");
    assert_eq!(settings.rule_set(), RuleSet::Ccerl);
    assert_eq!(settings.spec(), Ok(GameSpec::Chinese(Rules::ccerl())));
    settings.set("Players", "3").expect("valid");
    assert_eq!(settings.rule_set(), RuleSet::Custom, "CCERL is two players");
}

#[test]
fn players_may_come_before_game_and_the_combination_is_checked() {
    let mut settings = Options::default();
    settings.set("Players", "3").expect("valid");
    let err = settings
        .spec()
        .expect_err("Spanish draughts with 3 players");
    assert_eq!(
        err.to_string(),
        "Spanish draughts is played by 2 players, but Players is 3; set Game or Players"
    );
    settings.set("Game", "chinese").expect("valid");
    assert_eq!(settings.spec().map(|s| s.players()), Ok(3));
    settings.set("Game", "spanish").expect("valid");
    settings.set("Players", "2").expect("valid");
    assert_eq!(settings.spec(), Ok(GameSpec::default()));
}

#[test]
fn the_seed_reaches_the_search_and_zero_means_the_clock() {
    let mut settings = Options::default();
    assert_eq!(settings.engine_options().seed, None);
    settings.set("Seed", "7").expect("valid");
    assert_eq!(settings.engine_options().seed, Some(7));
    settings.set("seed", "0").expect("valid");
    assert_eq!(settings.engine_options().seed, None);
    assert!(settings.set("Seed", "2147483648").is_err());
}

#[test]
fn rule_options_apply_to_their_own_game() {
    let rules: Vec<&str> = OPTIONS
        .iter()
        .filter(|d| d.group == OptionGroup::Rule && d.applies_to(GameKind::Chinese))
        .map(|d| d.name)
        .collect();
    assert_eq!(
        rules,
        [
            "AntiBlocking",
            "PlayToEnd",
            "MoveLimit",
            "NoProgressLimit",
            "GoalLock",
            "NoMoveLoss",
            "RepetitionDraw",
            "EqualTurns",
            "Rules"
        ]
    );
    let draughts: Vec<&str> = OPTIONS
        .iter()
        .filter(|d| d.group == OptionGroup::Rule && d.applies_to(GameKind::Spanish))
        .map(|d| d.name)
        .collect();
    assert_eq!(draughts, ["Variant"]);
}

#[test]
fn the_combo_names_are_the_registry_and_style_names() {
    let values = |name: &str| match find(name).map(|d| d.kind) {
        Some(OptionType::Combo(values)) => values.to_vec(),
        other => panic!("{name}: {other:?}"),
    };
    let games: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(values("Game"), games);
    let styles: Vec<&str> = Style::ALL.iter().map(|s| s.name()).collect();
    assert_eq!(values("Style"), styles);
}

#[test]
fn the_move_overhead_default_leaves_a_loaded_machine_its_margin() {
    let settings = Options::default();
    assert_eq!(settings.move_overhead_ms, 50);
    assert_eq!(settings.value("MoveOverhead").as_deref(), Some("50"));
}

#[test]
fn numbers_are_read_strictly_and_a_refusal_changes_nothing() {
    let mut settings = Options::default();
    settings.set("Hash", "128").expect("valid");
    let before = settings.clone();
    for (name, value) in [
        ("Hash", "+5"),
        ("Hash", "05"),
        ("Hash", "0x10"),
        ("Hash", "5.0"),
        ("Hash", "1e3"),
        ("Hash", "1_000"),
        ("Hash", "\u{665}"),
        ("Hash", "12 8"),
        ("Hash", ""),
        ("Threads", "01"),
        ("Threads", "+1"),
        ("MoveOverhead", "-0"),
        ("Seed", "00"),
        ("Players", "+3"),
        ("MoveLimit", "018446744073709551616"),
        ("Hash", "4097"),
        ("Hash", "0"),
    ] {
        let err = settings.set(name, value).expect_err(value);
        assert!(
            matches!(err, OptionError::BadValue { .. }),
            "{name} {value}: {err}"
        );
        assert_eq!(settings, before, "{name} {value}");
    }
    assert_eq!(
        settings.set("Hash", "+5").map_err(|e| e.to_string()),
        Err("option 'Hash' does not accept '+5' (an integer from 1 to 4096)".into())
    );
    // Spaces around the number are no part of it.
    settings.set("Hash", "  256\t").expect("valid");
    assert_eq!(settings.hash_mb, 256);
    settings.set("Seed", "0").expect("valid");
}

#[test]
fn ccerl_is_refused_while_players_asks_for_more_than_two() {
    for players in ["1", "3", "6"] {
        let mut settings = Options::default();
        settings.set("Game", "chinese").expect("valid");
        settings.set("Players", players).expect("valid");
        let before = settings.clone();
        let err = settings.set("Rules", "ccerl").expect_err("refused");
        assert_eq!(
            err.to_string(),
            format!(
                "Rules ccerl is two-player Chinese checkers, but Players is {players}; \
                 set Players to 2 first"
            )
        );
        assert_eq!(settings, before, "nothing changed");
        settings.set("Players", "2").expect("valid");
        settings.set("Rules", "ccerl").expect("valid");
        assert_eq!(settings.spec(), Ok(GameSpec::Chinese(Rules::ccerl())));
    }
    // From Spanish draughts at its two players, the preset sets the game.
    let mut settings = Options::default();
    settings.set("Rules", "ccerl").expect("valid");
    assert_eq!(settings.rule_set(), RuleSet::Ccerl);
}

#[test]
fn the_variant_entry_names_the_playable_draughts_rule_sets() {
    use crate::spanish::{Rules, Variant};
    let mut settings = Options::default();
    assert_eq!(settings.value("Variant").as_deref(), Some("spanish"));
    let decl = find("Variant").expect("declared");
    let names: Vec<&str> = Variant::IMPLEMENTED.iter().map(|v| v.name()).collect();
    assert!(matches!(decl.kind, OptionType::Combo(values) if values == names.as_slice()));
    for variant in Variant::ALL {
        let mut settings = Options::default();
        let set = settings.set("Variant", &variant.name().to_uppercase());
        if variant.is_implemented() {
            assert_eq!(set, Ok(OptionEffect::NewGame), "{variant}");
            assert_eq!(settings.value("Variant"), Some(variant.to_string()));
            assert_eq!(
                settings.spec(),
                Ok(GameSpec::Draughts(Rules::new(variant).expect("playable")))
            );
        } else {
            // Named variants not playable yet are no value of the combo.
            assert!(set.is_err(), "{variant}");
            assert_eq!(settings.value("Variant").as_deref(), Some("spanish"));
        }
    }
    assert!(settings.set("Variant", "checkers").is_err());
    assert_eq!(settings.value("Variant").as_deref(), Some("spanish"));
}
