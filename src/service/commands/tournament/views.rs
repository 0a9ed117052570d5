//! Anybody's views of an event: details, entrants, pairings, standings and
//! crosstables, and the list of events.

use super::*;
use crate::domain::BoardNumber;

/// A view of an event for the sender. One larger than
/// [`VIEW_TO_ANYONE_BYTES`] goes only to a proven player's own address (the
/// view's userid and password, or the mail's reply token): an answer to a
/// forgeable From is small. Without a proven player the sender learns how
/// to get it.
pub(super) fn show(
    ctx: &mut MailCtx<'_>,
    event: &Event,
    view: View,
    speaker: &Speaker,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    let reader = match speaker {
        Speaker::Password { .. } => Some(ctx.speaker(speaker, token, None)?),
        Speaker::Token => ctx.replying_player(token)?,
    };
    // What the view shows of the event's games is what its reader may see.
    let who = match &reader {
        Some(reader) => crate::reader::Who::Mail {
            address: ctx.sender,
            player: Some(reader.id),
        },
        None => ctx.who()?,
    };
    let mut mail = view_mail(ctx, event, view, who)?;
    if mail.body.len() <= VIEW_TO_ANYONE_BYTES {
        if let Some(reader) = &reader {
            with_token(ctx, &mut mail, reader);
        }
        return Ok(vec![mail]);
    }
    let name = &event.settings.name;
    let what = view_word(view);
    let size = mail.body.len().div_ceil(1024);
    let Some(reader) = reader.filter(|r| !r.mail_address().is_empty()) else {
        let text = format!(
            "The {what} of \"{name}\" is {size} KiB long: pbem sends so large an answer only to the registered address of a player it knows the mail is from. Ask with your userid and password:\n  tournament {what} {name} <userid> <password>\nor write \"tournament {what} {name}\" in a reply to a mail pbem sent you; it then goes to your registered address."
        );
        return Ok(vec![ctx.notice_to_sender(&subject(event, what), &text)?]);
    };
    if reader.owns_address(ctx.sender) {
        with_token(ctx, &mut mail, &reader);
        return Ok(vec![mail]);
    }
    mail.to = vec![reader.mail_address().to_string()];
    mail.in_reply_to = None;
    mail.references.clear();
    with_token(ctx, &mut mail, &reader);
    let text = format!(
        "The {what} of \"{name}\" ({size} KiB) went to the registered address of {}.",
        reader.userid
    );
    Ok(vec![
        mail,
        ctx.notice_to_sender(&subject(event, what), &text)?,
    ])
}

/// The word of a view's command.
fn view_word(view: View) -> &'static str {
    match view {
        View::Show => "show",
        View::Standings => "standings",
        View::Crosstable => "crosstable",
        View::Pgn => "pgn",
        View::Trf => "trf",
    }
}

/// The mail of a view, to the sender.
fn view_mail(
    ctx: &MailCtx<'_>,
    event: &Event,
    view: View,
    who: crate::reader::Who<'_>,
) -> Result<Outgoing, Failure> {
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
                    "Standings: {name}, {} of {} {} finished.",
                    table.finished_games,
                    table.games,
                    crate::render::noun(table.games, "game"),
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
            // The games as the reader policy lists them for this reader.
            let games = crate::reader::event_games(ctx.conn, event.id, who)?;
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
                let groups = crate::service::event_rounds::groups_text(ctx.conn, event)?;
                let bracket = crate::service::event_rounds::bracket_text(ctx.conn, event)?;
                block = match (groups, bracket) {
                    (Some(groups), _) => groups,
                    (None, Some(bracket)) => format!("Bracket:\n{bracket}"),
                    (None, None) => {
                        let table = Crosstable::compute(&results(ctx, event)?);
                        format!("Standings:\n{}", text::standings(&table))
                    }
                };
            }
            ("show", body, block)
        }
        View::Pgn => {
            let mut pgn = String::new();
            for game in crate::reader::event_games(ctx.conn, event.id, who)? {
                let Some(text) =
                    board_mail::board_pgn(ctx, game.board, Some((name, game.round)), who)?
                else {
                    continue;
                };
                pgn.push_str(&text);
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
    Ok(notice_with_block(
        ctx,
        vec![ctx.sender.to_string()],
        &subject(event, what),
        &body,
        &block,
    )?)
}

/// Finished events listed, the newest first; the rest are counted.
pub const FINISHED_LISTED: u32 = 200;
