//! `tournament create`: a new event with its settings, and the details
//! text the creation notice and `tournament show` share.

use super::*;
use crate::domain::BoardNumber;

pub(super) fn create(
    ctx: &mut MailCtx<'_>,
    command: &CreateTournament,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    let director = ctx.speaker(&command.speaker, token, None)?;
    let live = store::live_events_of(ctx.conn, director.id)?;
    if live >= LIVE_EVENTS_PER_DIRECTOR {
        return Err(refuse(
            format!(
                "{} directs {} that are not finished; a director may have at most {LIVE_EVENTS_PER_DIRECTOR} events open or running at a time",
                director.userid,
                crate::render::count(live, "event")
            ),
            None,
        ));
    }
    let variant: Variant = crate::service::variant_named(&command.variant)?;
    let opening = crate::service::starts::chosen_opening(
        variant,
        command.position,
        command.opening.as_ref(),
    )?;
    // Only a check here: without `--position` the array is drawn when the
    // event starts.
    crate::service::starts::chosen_position(variant, command.position)?;
    if store::by_name(ctx.conn, &command.name)?.is_some() {
        return Err(refuse(
            format!(
                "there is already an event \"{}\"; choose another name",
                command.name
            ),
            None,
        ));
    }
    let format = match command.swiss_rounds {
        Some(rounds) => Format::Swiss { rounds },
        None if command.groups.is_some() => Format::Groups {
            groups: command.groups.unwrap_or(2),
            advance: command.advance.unwrap_or(1),
            double: command.double,
            final_stage: if command.knockout_final {
                crate::tournament::groups::FinalStage::Knockout {
                    match_games: command
                        .match_games
                        .unwrap_or(crate::tournament::knockout::DEFAULT_MATCH_GAMES),
                    tie: command.tie.unwrap_or_default(),
                }
            } else {
                crate::tournament::groups::FinalStage::RoundRobin { double: false }
            },
        },
        None if command.knockout => Format::Knockout {
            match_games: command
                .match_games
                .unwrap_or(crate::tournament::knockout::DEFAULT_MATCH_GAMES),
            tie: command.tie.unwrap_or_default(),
        },
        None => Format::RoundRobin {
            double: command.double,
        },
    };
    let cap = match format {
        Format::Swiss { .. } => MAX_SWISS,
        Format::Knockout { .. } => crate::tournament::knockout::MAX_KNOCKOUT,
        // Every group a round robin of at most MAX_ROUND_ROBIN.
        Format::Groups { groups, .. } => groups
            .checked_mul(MAX_ROUND_ROBIN)
            .unwrap_or(crate::tournament::groups::MAX_GROUP_ENTRANTS),
        Format::RoundRobin { .. } => MAX_ROUND_ROBIN,
    };
    let max_entrants = command.max_entrants.unwrap_or(cap);
    if max_entrants > cap {
        return Err(refuse(
            format!(
                "--max={max_entrants}: a {} may have up to {}",
                format.describe(),
                crate::render::count(cap, "player")
            ),
            None,
        ));
    }
    let (nag_days, forfeit_days) = crate::schedule::turn_deadlines(
        command.days_per_turn,
        command.forfeit_days,
        command.nag_days,
        DEFAULT_FORFEIT_DAYS,
        |forfeit| DEFAULT_NAG_DAYS.min(forfeit),
    )
    .map_err(|problem| refuse(problem, None))?;
    let control = crate::service::clocks::chosen_control(
        command.time,
        command.remind,
        command.days_per_turn.is_some() || command.forfeit_days.is_some(),
        command.nag_days.is_some(),
        forfeit_days,
    )
    .map_err(|problem| refuse(problem, None))?;
    let closes_at = match command.closes {
        Some(date) => {
            let at = end_of_day(date, ctx.now);
            if at <= ctx.now {
                return Err(refuse(
                    format!("--closes={date}: that day is over; give a later date"),
                    None,
                ));
            }
            Some(at)
        }
        None => None,
    };
    let tiebreaks = command.tiebreaks.clone().unwrap_or_else(|| {
        if format.is_swiss() {
            Tiebreak::SWISS.to_vec()
        } else {
            Tiebreak::ROUND_ROBIN.to_vec()
        }
    });
    let settings = Settings {
        name: command.name.clone(),
        variant,
        director: director.id,
        format,
        days_per_turn: command.days_per_turn,
        nag_days,
        forfeit_days,
        vacation_days: command.vacation_days,
        max_entrants,
        rated: command.rated,
        closes_at,
        invite_only: command.invite_only,
        tiebreaks,
        round_days: command.round_days,
        min_rating: command.min_rating,
        max_rating: command.max_rating,
        start_position: command.position,
        opening,
    };
    let id = store::insert(ctx.conn, &settings, ctx.now)?;
    if let Some((control, reminders)) = control {
        crate::store::clocks::set_event_control(ctx.conn, id, control, reminders)?;
    }
    if command.public_delay > 0 {
        crate::store::web::set_public_delay(ctx.conn, id, command.public_delay)?;
    }
    let event = store::by_id(ctx.conn, id)?;
    let text = format!(
        "You created the event \"{name}\" and direct it.\n\n{details}\nPlayers enter with:\n  tournament enter {name} <userid> <password>\nWhen enough have entered (at least 3), start it with:\n  tournament start {name} {td} <password>\n(or reply to this mail with \"tournament start {name}\": a reply to a mail pbem sent you needs no userid and password).",
        name = settings.name,
        details = details(ctx, &event)?,
        td = director.userid,
    );
    Ok(vec![answer(
        ctx,
        director.id,
        &subject(&event, "created"),
        &text,
    )?])
}

/// The end of `date` (the start of the next day, UTC); `now` for the last
/// day time can tell.
fn end_of_day(date: time::Date, now: OffsetDateTime) -> OffsetDateTime {
    date.next_day()
        .map_or(now, |day| day.midnight().assume_utc())
}

/// The settings of an event, a line each.
pub(super) fn details(ctx: &MailCtx<'_>, event: &Event) -> Result<String, ServiceError> {
    let s = &event.settings;
    let director = players::by_id(ctx.conn, s.director)?;
    let deadlines = match crate::store::clocks::event_control(ctx.conn, event.id)? {
        Some((control, reminders)) => format!(
            "Time control: {control} ({}), reminders {reminders}",
            control.describe()
        ),
        None => format!(
            "Deadlines: reminder after {}, loss on time after {} without a move",
            crate::render::count(s.nag_days, "day"),
            crate::render::count(s.forfeit_days, "day")
        ),
    };
    let mut out = format!(
        "Event: {}\nDirector: {}\nFormat: {}, {}, {}\n{deadlines}\n",
        s.name,
        director.userid,
        s.format.describe(),
        s.variant.display_name(),
        if s.rated { "rated" } else { "unrated" },
    );
    if s.variant == Variant::Chess960 {
        match crate::service::starts::start_line(s.variant, s.start_position) {
            Some(start) => out.push_str(&format!("Start: every game from {start}\n")),
            None => out.push_str(
                "Start: every game from one Chess960 position, drawn when the event starts\n",
            ),
        }
    }
    if let Some(opening) = &s.opening {
        out.push_str(&format!(
            "Opening: every game starts after {} ({})\n",
            opening.label(),
            opening.numbered()
        ));
    }
    if let Some(days) = s.round_days {
        out.push_str(&format!(
            "Rounds: each round lasts at most {}; then its unfinished games are scored as draws unless the director adjudicates them first\n",
            crate::render::count(days, "day")
        ));
    }
    match (s.min_rating, s.max_rating) {
        (None, None) => {}
        (low, high) => out.push_str(&format!(
            "Ratings: {} to {} ({} rating; unrated players count as {})\n",
            low.map_or("any".to_string(), |r| r.to_string()),
            high.map_or("any".to_string(), |r| r.to_string()),
            s.variant.display_name(),
            crate::ratings::START.shown()
        )),
    }
    let delay = crate::store::web::public_delay(ctx.conn, event.id)?;
    if delay > 0 {
        out.push_str(&format!(
            "Web site: running games are shown {} behind, finished games in full\n",
            crate::render::count(delay, "turn")
        ));
    }
    match s.vacation_days {
        Some(days) => out.push_str(&format!(
            "Vacation: each player's clocks on the event's boards stop for at most {} of vacation in all\n",
            crate::render::count(days, "day")
        )),
        None => out.push_str("Vacation: each player's own yearly allowance\n"),
    }
    out.push_str(&format!(
        "Entry: {}up to {}{}\nTiebreaks: {}\nStatus: {}\n",
        if s.invite_only { "by invitation, " } else { "" },
        crate::render::count(s.max_entrants, "player"),
        s.closes_at
            .map(|at| format!(", closes {}", crate::render::readable_time(at)))
            .unwrap_or_default(),
        s.tiebreaks
            .iter()
            .map(|t| t.heading())
            .collect::<Vec<_>>()
            .join(", "),
        event.status.as_str()
    ));
    Ok(out)
}
