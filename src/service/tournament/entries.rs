//! Entering and leaving an event, and the director's invitations
//! (rating limits checked on entry).

use super::*;

pub(super) fn enter(
    ctx: &mut Ctx<'_>,
    name: &str,
    player: &Player,
) -> Result<Vec<Outgoing>, Failure> {
    let event = named(ctx, name)?;
    let late = match (event.status, event.settings.format) {
        (Status::Open, _) => false,
        // A Swiss takes late entries until half its rounds.
        (Status::Running, Format::Swiss { rounds }) if event.current_round <= rounds / 2 => true,
        (Status::Running, Format::Swiss { rounds }) => {
            return Err(refuse(
                format!(
                    "entry to \"{name}\" is closed: late entries are taken until round {} of {rounds}, and round {} is being played",
                    rounds / 2,
                    event.current_round
                ),
                None,
            ));
        }
        _ => {
            return Err(refuse(
                format!(
                    "entry to \"{name}\" is closed: the event is {}",
                    event.status.as_str()
                ),
                None,
            ));
        }
    };
    if let Some(closes) = event.settings.closes_at
        && ctx.now >= closes
    {
        return Err(refuse(
            format!(
                "entry to \"{name}\" closed on {}",
                crate::service::deadlines::readable(closes)
            ),
            None,
        ));
    }
    if event.settings.invite_only
        && event.settings.director != player.id
        && !store::is_invited(ctx.conn, event.id, player.id)?
    {
        return Err(refuse(
            format!(
                "\"{name}\" is by invitation only, and {} is not invited",
                player.userid
            ),
            None,
        ));
    }
    let rating = rating_of(ctx, player.id, event.settings.variant)?;
    let variant = event.settings.variant.display_name();
    if let Some(low) = event.settings.min_rating
        && i64::from(rating) < i64::from(low)
    {
        return Err(refuse(
            format!(
                "\"{name}\" takes players rated {low} or more in {variant}; {} is rated {rating}",
                player.userid
            ),
            None,
        ));
    }
    if let Some(high) = event.settings.max_rating
        && i64::from(rating) > i64::from(high)
    {
        return Err(refuse(
            format!(
                "\"{name}\" takes players rated {high} or less in {variant}; {} is rated {rating}",
                player.userid
            ),
            None,
        ));
    }
    let entries = store::entries(ctx.conn, event.id)?;
    if entries.iter().any(|e| e.player == player.id) {
        return Err(refuse(
            format!("{} has already entered \"{name}\"", player.userid),
            None,
        ));
    }
    if entries.len() as u32 >= event.settings.max_entrants {
        return Err(refuse(
            format!(
                "\"{name}\" is full: it takes {} players",
                event.settings.max_entrants
            ),
            None,
        ));
    }
    if late {
        let number = entries.len() as u32 + 1;
        store::add_entry(ctx.conn, event.id, player.id, Some(number), ctx.now)?;
        store::set_rating(ctx.conn, event.id, player.id, rating)?;
        for round in 1..=event.current_round {
            store::add_bye(ctx.conn, event.id, round, player.id, ByeKind::Zero)?;
        }
        let text = format!(
            "{} entered \"{name}\" late, as number {number}: rounds 1 to {} count as zero-point byes, and the pairings take {} from round {} on.",
            player.userid,
            event.current_round,
            player.userid,
            event.current_round + 1
        );
        return Ok(vec![
            ctx.notice_to_sender(&subject(&event, "entered"), &text)?,
        ]);
    }
    store::add_entry(ctx.conn, event.id, player.id, None, ctx.now)?;
    let text = format!(
        "{} entered \"{name}\" ({} players so far). The games start when the director starts the event; leave before then with:\n  tournament leave {name} {} <password>",
        player.userid,
        entries.len() + 1,
        player.userid
    );
    Ok(vec![
        ctx.notice_to_sender(&subject(&event, "entered"), &text)?,
    ])
}

/// A player's rating in `variant` as the event seeds and limits by it
/// (the start rating before any rated game).
pub(super) fn rating_of(
    ctx: &Ctx<'_>,
    player: PlayerId,
    variant: Variant,
) -> Result<i32, ServiceError> {
    Ok(crate::store::ratings::current(ctx.conn, player, variant)?
        .unwrap_or(crate::ratings::START)
        .shown())
}

pub(super) fn leave(
    ctx: &mut Ctx<'_>,
    name: &str,
    player: &Player,
) -> Result<Vec<Outgoing>, Failure> {
    let event = named(ctx, name)?;
    if event.status != Status::Open {
        return Err(refuse(
            format!(
                "\"{name}\" has started: a player can no longer leave it; the director may withdraw a player"
            ),
            None,
        ));
    }
    if !store::remove_entry(ctx.conn, event.id, player.id)? {
        return Err(refuse(
            format!("{} has not entered \"{name}\"", player.userid),
            None,
        ));
    }
    let text = format!("{} left \"{name}\".", player.userid);
    Ok(vec![ctx.notice_to_sender(&subject(&event, "left"), &text)?])
}

pub(super) fn invite(
    ctx: &mut Ctx<'_>,
    event: &Event,
    names: &[String],
) -> Result<Vec<Outgoing>, Failure> {
    if event.status != Status::Open {
        return Err(refuse(
            format!(
                "\"{}\" is {}: invitations are for events still open",
                event.settings.name,
                event.status.as_str()
            ),
            None,
        ));
    }
    let mut invited = Vec::new();
    for userid in names {
        let Some(player) = players::by_userid(ctx.conn, userid)? else {
            return Err(refuse(format!("there is no player \"{userid}\""), None));
        };
        if invited.iter().any(|p: &Player| p.id == player.id) {
            continue;
        }
        store::invite(ctx.conn, event.id, player.id)?;
        invited.push(player);
    }
    let name = &event.settings.name;
    let mut mails = Vec::new();
    for player in &invited {
        let text = format!(
            "You are invited to the event \"{name}\".\n\n{}\nEnter with:\n  tournament enter {name} {} <password>",
            details(ctx, event)?,
            player.userid
        );
        mails.push(notice_to(
            ctx,
            player,
            &subject(event, "invitation"),
            &text,
        )?);
    }
    let list: Vec<&str> = invited.iter().map(|p| p.userid.as_str()).collect();
    mails.push(ctx.notice_to_sender(
        &subject(event, "invited"),
        &format!("Invited to \"{name}\": {}.", list.join(", ")),
    )?);
    Ok(mails)
}
