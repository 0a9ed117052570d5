//! Anybody's views of an event: details, entrants, pairings, standings and
//! crosstables, and the list of events.

use super::*;

/// The event's results, for the crosstable.
pub(in crate::service) fn results(
    ctx: &Ctx<'_>,
    event: &Event,
) -> Result<EventResults, ServiceError> {
    Ok(store::results(ctx.conn, event)?)
}

/// The crosstable's heading (wrapped like any text) and the table with its
/// key (sent as it is: wide tables keep their columns).
pub(super) fn crosstable_text(
    ctx: &Ctx<'_>,
    event: &Event,
    title: &str,
) -> Result<(String, String), ServiceError> {
    let table = Crosstable::compute(&results(ctx, event)?);
    Ok((
        format!(
            "{title}: {} ({}), {} of {} games finished.",
            event.settings.name,
            event.settings.format.describe(),
            table.finished_games,
            table.games,
        ),
        format!(
            "{}\n{}",
            text::crosstable(&table),
            wrap_long_lines(&text::legend(&table), MAX_LINE)
        ),
    ))
}

/// A notice whose `block` (a table, a TRF, a PGN) follows the text
/// unwrapped, so that its lines keep their columns however long.
pub(super) fn notice_with_block(
    ctx: &Ctx<'_>,
    to: Vec<String>,
    subject: &str,
    text: &str,
    block: &str,
) -> Result<Outgoing, ServiceError> {
    let mut mail = ctx.notice(to, subject, text)?;
    if !mail.body.ends_with('\n') {
        mail.body.push('\n');
    }
    mail.body.push('\n');
    mail.body.push_str(block);
    if !mail.body.ends_with('\n') {
        mail.body.push('\n');
    }
    Ok(mail)
}

pub(super) fn show(ctx: &mut Ctx<'_>, event: &Event, view: View) -> Result<Vec<Outgoing>, Failure> {
    let name = &event.settings.name;
    let (what, body, block) = match view {
        View::Crosstable => {
            let (intro, table) = crosstable_text(ctx, event, "Crosstable")?;
            ("crosstable", intro, table)
        }
        View::Standings => {
            let table = Crosstable::compute(&results(ctx, event)?);
            (
                "standings",
                format!(
                    "Standings: {name}, {} of {} games finished.",
                    table.finished_games, table.games,
                ),
                format!(
                    "{}\n{}",
                    text::standings(&table),
                    wrap_long_lines(&text::legend(&table), MAX_LINE)
                ),
            )
        }
        View::Show => {
            let mut body = details(ctx, event)?;
            let entries = store::entries(ctx.conn, event.id)?;
            body.push_str(&format!("\nEntrants ({}):\n", entries.len()));
            for entry in &entries {
                let player = players::by_id(ctx.conn, entry.player)?;
                body.push_str(&format!(
                    "  {}{}{}\n",
                    entry
                        .start_number
                        .map(|n| format!("{n:>2}. "))
                        .unwrap_or_default(),
                    player.userid,
                    if entry.withdrawn { " (withdrawn)" } else { "" }
                ));
            }
            let games = store::games(ctx.conn, event.id)?;
            let mut block = String::new();
            if !games.is_empty() {
                body.push_str("\nGames:\n");
                for game in &games {
                    body.push_str(&format!(
                        "  Round {:>2}  board {}  {} - {}  {}\n",
                        game.round,
                        game.board,
                        players::by_id(ctx.conn, game.white)?.userid,
                        players::by_id(ctx.conn, game.black)?.userid,
                        match (&game.result, game.forfeit) {
                            (None, _) => "in progress".to_string(),
                            (Some(r), false) if r == "-" => "cancelled".to_string(),
                            (Some(r), false) => r.clone(),
                            (Some(r), true) => format!("{r} (forfeit)"),
                        }
                    ));
                }
                let table = Crosstable::compute(&results(ctx, event)?);
                block = format!("Standings:\n{}", text::standings(&table));
            }
            ("show", body, block)
        }
        View::Pgn => {
            let mut pgn = String::new();
            for game in store::games(ctx.conn, event.id)? {
                pgn.push_str(&crate::service::play::board_pgn(
                    ctx,
                    game.board,
                    Some((name, game.round)),
                )?);
                pgn.push('\n');
            }
            if pgn.is_empty() {
                return Err(refuse(format!("\"{name}\" has no games yet"), None));
            }
            ("pgn", format!("The games of \"{name}\" in PGN:"), pgn)
        }
        View::Trf => {
            let Format::Swiss { rounds } = event.settings.format else {
                return Err(refuse(
                    format!("\"{name}\" is a round robin; a TRF is written for Swiss events"),
                    None,
                ));
            };
            if event.status == Status::Open {
                return Err(refuse(format!("\"{name}\" has not started yet"), None));
            }
            let trf = crate::tournament::swiss::trf(&results(ctx, event)?, name, rounds);
            (
                "trf",
                format!("\"{name}\" as a FIDE Tournament Report File (TRF-16 with XXR and XXC):"),
                crate::pairing::trf::write(&trf),
            )
        }
    };
    Ok(vec![notice_with_block(
        ctx,
        vec![ctx.sender.to_string()],
        &subject(event, what),
        &body,
        &block,
    )?])
}

pub(super) fn list(ctx: &mut Ctx<'_>, filter: EventFilter) -> Result<Vec<Outgoing>, Failure> {
    let status = match filter {
        EventFilter::All => None,
        EventFilter::Open => Some(Status::Open),
        EventFilter::Running => Some(Status::Running),
        EventFilter::Finished => Some(Status::Finished),
    };
    let events = store::list(ctx.conn, status)?;
    let mut body = String::new();
    for event in &events {
        let s = &event.settings;
        body.push_str(&format!(
            "  {:<20} {:<9} {:<10} {:<22} {} players\n",
            s.name,
            event.status.as_str(),
            s.variant.display_name(),
            s.format.describe(),
            store::entries(ctx.conn, event.id)?.len()
        ));
    }
    if body.is_empty() {
        body = "No events.\n".into();
    }
    Ok(vec![ctx.notice_to_sender("pbem tournaments", &body)?])
}
