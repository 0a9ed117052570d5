//! Starting a Swiss (its start numbers, and round 1 paired). What happens
//! as games end, and the sweep's round deadlines, are in
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
                "a Swiss of {} needs at least {}; \"{name}\" has {}",
                crate::render::count(rounds, "round"),
                crate::render::count(rounds + 1, "player"),
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
    // The director's round notice is folded into this answer when the
    // director sent the command from one of their addresses (see
    // `answer`); from elsewhere (by password) it goes to them apart.
    let director = players::by_id(ctx.conn, event.settings.director)?;
    let where_pairings = if director.owns_address(ctx.sender) {
        "are below".to_string()
    } else {
        format!(
            "go to {} in a notice of their own",
            director.mail_address()
        )
    };
    let text = format!(
        "\"{name}\" has started: a Swiss of {}. Start numbers by rating:\n{list}\nThe pairings of round 1 {where_pairings}; each player has a mail naming their board, and White its board mail.",
        crate::render::count(rounds, "round")
    );
    Ok(vec![
        ctx.notice_to_sender(&subject(&event, "started"), &text)?,
    ])
}
