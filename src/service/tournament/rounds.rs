//! Starting a Swiss (its start numbers, and round 1 paired), and the
//! sweep's round deadlines. What happens as games end is in
//! `service::event_rounds`.

use super::*;

/// Starts a Swiss: start numbers by rating (highest first, then userid),
/// and round 1 paired.
pub(super) fn start_swiss(
    ctx: &mut MailCtx<'_>,
    event: &Event,
    entries: &[store::Entry],
    rounds: u32,
) -> Result<Vec<Outgoing>, Failure> {
    let name = &event.settings.name;
    if entries.len() as u32 <= rounds {
        return Err(refuse(
            format!(
                "a Swiss of {rounds} rounds needs at least {} players; \"{name}\" has {}",
                rounds + 1,
                entries.len()
            ),
            None,
        ));
    }
    let variant = event.settings.variant;
    let list = seed_by_rating(ctx, event, entries, |player| {
        rating_of(ctx, player, variant)
    })?;
    let event = store::by_id(ctx.conn, event.id)?;
    pair_next_round(ctx, &event)?;
    let text = format!(
        "\"{name}\" has started: a Swiss of {rounds} rounds. Start numbers by rating:\n{list}\nThe pairings of round 1 follow in a notice of their own; each player has a mail naming their board, and White its board mail."
    );
    Ok(vec![
        ctx.notice_to_sender(&subject(&event, "started"), &text)?,
    ])
}

/// The sweep's part: a Swiss round past its deadline has its unfinished
/// games scored as draws (the event's rule; the director may adjudicate
/// them before), which pairs the next round.
pub(in crate::service) fn round_deadlines(ctx: &Ctx<'_>) -> Result<usize, ServiceError> {
    let mut scored = 0;
    for id in store::rounds_started_before(ctx.conn, ctx.now)? {
        let event = store::by_id(ctx.conn, id)?;
        let (Some(days), Some(started)) = (event.settings.round_days, event.round_started_at)
        else {
            continue;
        };
        if started + time::Duration::days(i64::from(days)) > ctx.now {
            continue;
        }
        let reason = format!(
            "the {days} days of round {} passed: scored as a draw by the event's rule",
            event.current_round
        );
        for game in store::games(ctx.conn, id)? {
            if game.round == event.current_round && game.result.is_none() {
                end_game(
                    ctx,
                    game.board,
                    Ending::Played {
                        score: "1/2-1/2",
                        reason: &reason,
                    },
                )?;
                send_board_mails(ctx, game.board, Occasion::Update)?;
                scored += 1;
            }
        }
    }
    Ok(scored)
}
