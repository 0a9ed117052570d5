//! Entering and leaving an event, and the director's invitations
//! (rating limits checked on entry).

use super::*;

pub(super) fn enter(
    ctx: &mut MailCtx<'_>,
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
                crate::render::readable_time(closes)
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
                "\"{name}\" is full: it takes {}",
                crate::render::count(event.settings.max_entrants, "player")
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
        return Ok(vec![answer(
            ctx,
            player.id,
            &subject(&event, "entered"),
            &text,
        )?]);
    }
    store::add_entry(ctx.conn, event.id, player.id, None, ctx.now)?;
    let text = format!(
        "{} entered \"{name}\" ({} so far). The games start when the director starts the event; leave before then with:\n  tournament leave {name} {} <password>",
        player.userid,
        crate::render::count(entries.len() + 1, "player"),
        player.userid
    );
    Ok(vec![answer(
        ctx,
        player.id,
        &subject(&event, "entered"),
        &text,
    )?])
}

/// A player's rating in `variant` as the event seeds and limits by it
/// (the start rating before any rated game).
pub(super) fn rating_of(
    ctx: &MailCtx<'_>,
    player: PlayerId,
    variant: Variant,
) -> Result<i32, ServiceError> {
    Ok(crate::store::ratings::current(ctx.conn, player, variant)?
        .unwrap_or(crate::ratings::START)
        .shown())
}

pub(super) fn leave(
    ctx: &mut MailCtx<'_>,
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
    Ok(vec![answer(
        ctx,
        player.id,
        &subject(&event, "left"),
        &text,
    )?])
}

/// Invites the players `names` names. Whether a userid names a player is
/// never told: the director's answer is the same for an unknown userid as
/// for a player invited or entered before (neither is mailed). Each player
/// gets one invitation per event, however often one mail or many name them.
pub(super) fn invite(
    ctx: &mut MailCtx<'_>,
    event: &Event,
    names: &[String],
) -> Result<Vec<Outgoing>, Failure> {
    let name = &event.settings.name;
    if event.status != Status::Open {
        return Err(refuse(
            format!(
                "\"{name}\" is {}: invitations are for events still open",
                event.status.as_str()
            ),
            None,
        ));
    }
    // The names this mail has not named yet, each once.
    let mut new: Vec<(i64, String)> = Vec::new();
    for userid in names {
        let key = (event.id, userid.to_ascii_lowercase());
        if !ctx.events.invited.contains(&key) && !new.contains(&key) {
            new.push(key);
        }
    }
    if ctx.events.invited.len() + new.len() > INVITES_PER_MAIL {
        return Err(refuse(
            format!(
                "a mail may invite at most {INVITES_PER_MAIL} players in all; this one named {} before this line; send the others in another mail",
                ctx.events.invited.len()
            ),
            None,
        ));
    }
    let most = event
        .settings
        .max_entrants
        .saturating_mul(INVITES_PER_PLACE);
    let held = store::invitations(ctx.conn, event.id)?;
    if u64::from(held) + new.len() as u64 > u64::from(most) {
        return Err(refuse(
            format!(
                "\"{name}\" may hold at most {} ({INVITES_PER_PLACE} per place), and {held} {} made",
                crate::render::count(most, "invitation"),
                if held == 1 { "is" } else { "are" }
            ),
            None,
        ));
    }
    let entries = store::entries(ctx.conn, event.id)?;
    let details = details(ctx, event)?;
    let mut mails = Vec::new();
    for (_, userid) in &new {
        let Some(player) = players::by_userid(ctx.conn, userid)? else {
            continue;
        };
        if player.id == event.settings.director
            || entries.iter().any(|e| e.player == player.id)
            || store::is_invited(ctx.conn, event.id, player.id)?
        {
            continue;
        }
        store::invite(ctx.conn, event.id, player.id)?;
        let text = format!(
            "You are invited to the event \"{name}\".\n\n{details}\nEnter with:\n  tournament enter {name} {} <password>\n(or reply to this mail with \"tournament enter {name}\").",
            player.userid
        );
        mails.push(notice_to(
            ctx,
            &player,
            &subject(event, "invitation"),
            &text,
        )?);
    }
    let list: Vec<&str> = names.iter().map(String::as_str).collect();
    mails.push(answer(
        ctx,
        event.settings.director,
        &subject(event, "invited"),
        &format!(
            "Invited to \"{name}\": {}.\nEach of these userids that names a player not yet invited to \"{name}\" or entered in it gets an invitation by mail; pbem does not say which userids name players.",
            list.join(", ")
        ),
    )?);
    ctx.events.invited.extend(new);
    Ok(mails)
}
