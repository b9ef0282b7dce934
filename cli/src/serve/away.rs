//! The away rule of groups: a member whose device has had no live stream
//! open and made no request for `--away-secs` is away, and the engine
//! plays their seat at the group's level; when the same device (the same
//! token) is back, the seat is theirs again from their next turn
//! (docs/SERVE.md, "The away rule").

use std::sync::Arc;
use std::time::{Duration, Instant};

use damas::Game;

use super::messages::Message;
use super::session::{Seat, SeatKind};
use super::store::{lock, schedule, SharedGroup, Store};

/// Every `tick`: hands the seats of members gone to the engine, and gives
/// them back to those who came back.
pub async fn keep(store: Arc<Store>, tick: Duration) {
    let mut interval = tokio::time::interval(tick);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        let now = Instant::now();
        for shared in store.groups() {
            check(&store, &shared, now);
        }
    }
}

/// The away rule for one group's game in play.
fn check(store: &Arc<Store>, shared: &SharedGroup, now: Instant) {
    let mut group = lock(shared);
    let Some(game) = group.game.and_then(|game| store.peek(game)) else {
        return;
    };
    // The group's level: its engines', or the one that plays a person's
    // turn when the clock runs out.
    let engine = group
        .settings
        .engines
        .first()
        .copied()
        .unwrap_or(store.limits.timeout_seat);
    let grace = store.limits.away;
    let mut changed = false;
    {
        let mut session = lock(&game);
        if session.game.is_over() || session.is_closed() {
            return;
        }
        let owners = session
            .binding
            .as_ref()
            .map(|b| b.owners.clone())
            .unwrap_or_default();
        for (seat, owner) in owners.iter().enumerate() {
            let Some(member) = owner.and_then(|m| group.members.get_mut(m - 1)) else {
                continue;
            };
            let index = owner.unwrap_or(1) - 1;
            let present = member.present(now, grace);
            let player = damas::Player::new(seat);
            let human = session.seats[seat].kind == SeatKind::Human;
            // Newly away, or still away when a new game gave the seat
            // back to a person.
            if !present && (!member.away || human) {
                member.away = true;
                if session.seats[seat].kind == SeatKind::Human {
                    let _ = session.set_seat(seat, engine, now);
                }
                session.notice = player.map(Message::PlayerAway);
            } else if present && member.away {
                // The engine finishes the turn it is thinking for them.
                let on_it =
                    session.thinking() && session.game.to_move().map(|p| p.index()) == Some(seat);
                if on_it {
                    continue;
                }
                member.away = false;
                if session.seats[seat].kind == SeatKind::Engine {
                    let _ = session.set_seat(seat, Seat::HUMAN, now);
                }
                session.notice = player.map(Message::PlayerBack);
            } else {
                continue;
            }
            let away = member.away;
            if let Some(binding) = &mut session.binding {
                if let Some(slot) = binding.away.get_mut(index) {
                    *slot = away;
                }
            }
            changed = true;
        }
    }
    if changed {
        group.pulse.bump();
        // A failure is said, and tried again by the keeper.
        let _ = store.persist(&game);
        let _ = store.store_group(&mut group);
        drop(group);
        schedule(store, &game);
    }
}
