//! Perft of the Chinese checkers move generator against published numbers.

use damas::chinese::{divide, perft, perft_parallel, Position, Rules, Variant};

fn start(players: u8) -> Position {
    Position::start(&Rules::for_players(players))
}

#[test]
fn two_players_to_depth_5() {
    let pos = start(2);
    let expected = [14, 196, 4760, 115_600, 3_188_520];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&pos, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn three_players_to_depth_3() {
    let pos = start(3);
    for (d, &n) in [14u64, 196, 2744].iter().enumerate() {
        assert_eq!(perft(&pos, d as u32 + 1), n);
    }
}

#[test]
fn divide_sums_to_perft() {
    let pos = start(2);
    let parts = divide(&pos, 3);
    assert_eq!(parts.len(), 14);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 4760);
}

#[test]
fn parallel_equals_serial() {
    let pos = start(2);
    assert_eq!(perft_parallel(&pos, 4, 2), 115_600);
    let j = Position::start(&Rules {
        players: 3,
        variant: Variant::Japanese,
        ..Rules::default()
    });
    assert_eq!(perft_parallel(&j, 3, 2), perft(&j, 3));
}

#[test]
fn every_player_count_is_symmetric_at_depth_1() {
    // Every seat starts with the same 14 moves (nobody interacts yet).
    for n in 1..=6 {
        assert_eq!(perft(&start(n), 1), 14);
    }
}

#[test]
#[ignore = "slow in debug builds; run with --release -- --ignored"]
fn two_players_depth_6() {
    assert_eq!(perft(&start(2), 6), 87_946_884);
}

#[test]
fn ccerl_rules_from_the_start_give_the_published_counts() {
    // JumpStar's published perft of the CCERL-2P10-v2 start (goal lock,
    // no-move loss and the rest change nothing this early).
    let pos = Position::start(&damas::chinese::Rules::ccerl());
    let counts: Vec<u64> = (1..=5).map(|d| perft(&pos, d)).collect();
    assert_eq!(counts, [14, 196, 4760, 115600, 3188520]);
}

#[test]
#[ignore = "slow in debug builds; run with --release -- --ignored"]
fn ccerl_rules_depth_6() {
    let pos = Position::start(&damas::chinese::Rules::ccerl());
    assert_eq!(perft(&pos, 6), 87946884);
}
