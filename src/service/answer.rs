//! One answer per mail. The commands of a mail run first; their board
//! mails wait (`Ctx::touch`) and go out at the end, one per board and
//! reader, showing the board as the whole mail left it. The sender gets
//! one mail: the board mail alone when one command did one thing, the
//! error mail when one command was refused, and otherwise one mail that
//! lists each command's result, then each notice and each board touched.
//! A folded answer keeps the folded mails' board pictures (under its text
//! in its HTML part) and attachments.

use super::board_mail::{self};
use super::threading::thread;
use super::{MailCtx, Refusal, ServiceError};
use crate::domain::BoardNumber;
use crate::mail::outgoing::{self, Html, Inline, Outgoing};
use crate::render::picture;
use crate::store::players;

/// What became of one command of a mail.
pub struct Outcome {
    /// The line as written, its passwords blanked (`dialogue`).
    pub written: String,
    /// The board it acted on.
    pub board: Option<BoardNumber>,
    pub refusal: Option<Refusal>,
    /// The mails it made besides board mails (notices).
    pub mails: Vec<Outgoing>,
}

impl Outcome {
    pub fn done(written: &str, board: Option<BoardNumber>, mails: Vec<Outgoing>) -> Outcome {
        Outcome {
            written: written.to_string(),
            board,
            refusal: None,
            mails,
        }
    }

    pub fn refused(written: &str, refusal: Refusal) -> Outcome {
        Outcome {
            written: written.to_string(),
            board: refusal.board,
            refusal: Some(refusal),
            mails: Vec::new(),
        }
    }
}

/// Sends the board mails of the boards the mail touched and the one
/// answer to the sender.
pub(super) fn finish(
    ctx: &mut MailCtx<'_>,
    mut outcomes: Vec<Outcome>,
    notes: Vec<String>,
) -> Result<(), ServiceError> {
    ctx.refused |= outcomes.iter().any(|o| o.refusal.is_some());
    // The opponents' conditional moves answer the turns of the mail, after
    // all its commands (so a line may start after the sender's own turn).
    super::conditional::answer_turns(ctx)?;
    let touched = ctx.take_touched();
    // Mails the end of a game made (a tournament's notices) go with the
    // command that ended it: those to the sender are part of the answer.
    let pending = ctx.take_later_mails();
    if !pending.is_empty() {
        match outcomes.iter_mut().rev().find(|o| o.refusal.is_none()) {
            Some(outcome) => outcome.mails.extend(pending),
            None => ctx.out.extend(pending),
        }
    }
    // The sender's own addresses: its own, and those of the players it
    // spoke for from one of their addresses. A player spoken for by
    // password from elsewhere gets its mails apart (someone else may
    // hold the password).
    let mut own_addresses = vec![ctx.sender.to_string()];
    for (player, _) in &ctx.speakers {
        let player = players::by_id(ctx.conn, *player)?;
        // A player without a confirmed address has none ("" is nobody's).
        if player.owns_address(ctx.sender) && !player.mail_address().is_empty() {
            own_addresses.push(player.mail_address().to_string());
        }
    }
    // A mail also to others (a notice of an account change to every
    // registered address) goes out whole: folded into the sender's
    // answer, it would never reach them.
    let is_own = |mail: &Outgoing| {
        !mail.to.is_empty()
            && mail
                .to
                .iter()
                .all(|to| own_addresses.iter().any(|own| own.eq_ignore_ascii_case(to)))
    };
    // The pieces of the sender's answer, each with its board.
    let mut own: Vec<(Option<BoardNumber>, Outgoing)> = Vec::new();
    for (board, occasion) in touched {
        for mail in board_mail::board_mails(ctx, board, occasion)? {
            if is_own(&mail) {
                own.push((Some(board), mail));
            } else {
                ctx.out.push(mail);
            }
        }
    }
    show_current_lines(ctx, &mut outcomes, &own)?;
    let mut refusals = Vec::new();
    let mut results = Vec::new();
    for (index, outcome) in outcomes.iter().enumerate() {
        for mail in &outcome.mails {
            if is_own(mail) {
                own.push((outcome.board, mail.clone()));
            } else {
                let mut mail = mail.clone();
                if let Some(board) = outcome
                    .board
                    .or_else(|| (board_of_subject(&mail.subject)).map(BoardNumber))
                {
                    thread(ctx, &mut mail, board, false)?;
                }
                ctx.out.push(mail);
            }
        }
        let written = ctx.shown_line(&outcome.written);
        let label = if written.is_empty() {
            format!("{}.", index + 1)
        } else {
            format!("{}. {written}:", index + 1)
        };
        match &outcome.refusal {
            Some(refusal) => {
                results.push(format!(
                    "{label} refused: {}",
                    ctx.shown_refusal(&refusal.message)
                ));
                refusals.push(refusal.clone());
            }
            None => results.push(format!("{label} done.")),
        }
    }
    let reply_board = ctx
        .reply_token()
        .and_then(Result::ok)
        .map(|(board, _)| board)
        .filter(|board| *board != BoardNumber(crate::mail::token::NOT_A_BOARD));
    if refusals.is_empty() && notes.is_empty() && own.len() <= 1 {
        for (board, mut mail) in own {
            if let Some(board) = board
                .or_else(|| (board_of_subject(&mail.subject)).map(BoardNumber))
                .or(reply_board)
            {
                // A board shown (`show`) invites a reply like a board mail.
                with_token(ctx, &mut mail, board)?;
                thread(ctx, &mut mail, board, true)?;
            }
            ctx.out.push(mail);
        }
        return Ok(());
    }
    if let ([refusal], [_], true, true) = (
        &refusals[..],
        &outcomes[..],
        own.is_empty(),
        notes.is_empty(),
    ) {
        let mut mail = board_mail::error_mail(ctx, refusal)?;
        if let Some(board) = refusal.board {
            with_token(ctx, &mut mail, board)?;
            thread(ctx, &mut mail, board, true)?;
        }
        ctx.out.push(mail);
        return Ok(());
    }
    let answer = merged(ctx, &outcomes, &results, &refusals, own, &notes)?;
    ctx.out.push(answer);
    Ok(())
}

/// One current list of conditional lines per board and player whose lines
/// an `if` of the mail changed, worked out after every line of the mail and
/// every answer they played. A board mail of that board folded into the
/// answer shows it under the board; otherwise it closes the last `if`
/// notice of that board. Each `if` notice says only what it did to its
/// line, so the answer never repeats a list nor shows one out of date.
fn show_current_lines(
    ctx: &MailCtx<'_>,
    outcomes: &mut [Outcome],
    own: &[(Option<BoardNumber>, Outgoing)],
) -> Result<(), ServiceError> {
    for (board, player, added) in ctx.take_lines_given() {
        if own
            .iter()
            .any(|(b, mail)| *b == Some(board) && mail.reply_to.is_some())
        {
            continue;
        }
        let lines = match board_mail::load(ctx, board) {
            Ok(loaded) => board_mail::own_conditional_lines(ctx, &loaded, player)?,
            Err(super::Failure::Fatal(error)) => return Err(error),
            Err(super::Failure::Refused(_)) => continue,
        };
        let text = match lines.len() {
            0 if added => format!("You have no conditional moves on board {board} now."),
            0 => continue,
            count => {
                let mut text = format!(
                    "Your conditional moves on board {board} now ({count} line{}, only you see them), played at once when your opponent plays a turn that begins one:",
                    if count == 1 { "" } else { "s" }
                );
                for line in lines {
                    text.push_str("\n  ");
                    text.push_str(&line);
                }
                text
            }
        };
        // not a count: a board number.
        let subject = format!("Board {board} conditional moves");
        if let Some(mail) = outcomes
            .iter_mut()
            .rev()
            .filter(|o| o.board == Some(board) && o.refusal.is_none())
            .flat_map(|o| o.mails.iter_mut().rev())
            .find(|mail| mail.subject.ends_with(&subject))
        {
            mail.body = format!("{}\n\n{text}\n", mail.body.trim_end());
        }
    }
    Ok(())
}

/// The sender's one answer to a mail of several commands or notes.
fn merged(
    ctx: &MailCtx<'_>,
    outcomes: &[Outcome],
    results: &[String],
    refusals: &[Refusal],
    own: Vec<(Option<BoardNumber>, Outgoing)>,
    notes: &[String],
) -> Result<Outgoing, ServiceError> {
    let mut boards: Vec<BoardNumber> = Vec::new();
    let mentioned = outcomes
        .iter()
        .map(|o| o.board)
        .chain(own.iter().map(|(b, _)| *b));
    for board in mentioned.flatten() {
        if !boards.contains(&board) {
            boards.push(board);
        }
    }
    let mut body = String::new();
    if outcomes.len() == 1
        && let Some(refusal) = &outcomes[0].refusal
    {
        body.push_str(&ctx.shown_refusal(&refusal.message));
        body.push('\n');
    } else if !outcomes.is_empty() {
        body.push_str(&format!(
            "pbem read {} command{} in your mail:\n",
            outcomes.len(),
            if outcomes.len() == 1 { "" } else { "s" }
        ));
        for result in results {
            body.push_str(&format!("  {result}\n"));
        }
    }
    for note in notes {
        body.push_str(&format!("\n{note}\n"));
    }
    let mut subject = None;
    let mut shown = Vec::new();
    let mut bodies: Vec<&str> = Vec::new();
    // The pictures and attachments of the folded mails stay with the
    // answer: its HTML part is the answer's text with each board picture.
    let mut images: Vec<Inline> = Vec::new();
    let mut attachments: Vec<outgoing::File> = Vec::new();
    for (_, mail) in &own {
        for image in mail.html.iter().flat_map(|html| &html.images) {
            if !images.iter().any(|i| i.content_id == image.content_id) {
                images.push(image.clone());
            }
        }
        for file in &mail.attachments {
            if !attachments.iter().any(|f| f.name == file.name) {
                attachments.push(file.clone());
            }
        }
    }
    for (board, mail) in &own {
        if let Some(board) = board
            && mail.reply_to.is_some()
        {
            shown.push(*board);
        }
        subject.get_or_insert_with(|| mail.subject.clone());
        // The same notice twice (`help` sent again) is shown once.
        if !bodies.contains(&mail.body.as_str()) {
            bodies.push(&mail.body);
            body.push_str(&format!("\n{}\n", mail.body.trim_end()));
        }
    }
    for refusal in refusals {
        if let Some(board) = refusal.board
            && !shown.contains(&board)
            && let Some((subject_line, text)) = board_mail::board_for_sender(ctx, board)?
        {
            shown.push(board);
            subject.get_or_insert(subject_line);
            body.push_str(&format!("\n{}\n", text.trim_end()));
        }
    }
    if !refusals.is_empty() {
        let quoted = board_mail::quote_blanked(ctx)?;
        if quoted.is_empty() {
            body.push_str(&format!("\n{}\n", board_mail::NOT_QUOTED));
        } else {
            body.push_str("\nYour mail, with passwords blanked:\n");
            for line in quoted {
                body.push_str(&format!("> {line}\n"));
            }
        }
    }
    let subject = match (boards.as_slice(), subject) {
        ([_], Some(subject)) if refusals.is_empty() => subject,
        ([_], Some(subject)) => format!("{} Error", board_subject(&subject)),
        _ if refusals.is_empty() => "pbem answer".to_string(),
        _ => "pbem Error".to_string(),
    };
    let html = if images.is_empty() {
        None
    } else {
        // Each picture's alt text names its position, for screen readers;
        // `images` (the Content-IDs alone) stays for templates written
        // before `pictures`.
        let cids: Vec<String> = images.iter().map(|i| i.content_id.clone()).collect();
        let pictures: Vec<minijinja::Value> = images
            .iter()
            .map(|i| {
                minijinja::context! {
                    cid => i.content_id.clone(),
                    alt => crate::render::board::spoken_position(&i.scene.board),
                }
            })
            .collect();
        let text = body.clone();
        Some(Html {
            body: ctx.templates.render_html(
                "answer.html",
                minijinja::context! { text => text, images => cids, pictures => pictures, size => picture::SIZE },
            )?,
            images,
        })
    };
    let mut mail = Outgoing {
        to: vec![ctx.sender.to_string()],
        subject,
        body,
        reply_to: None,
        in_reply_to: Some(ctx.mail.message_id.clone()),
        references: vec![ctx.mail.message_id.clone()],
        html,
        attachments,
        send_after: None,
    };
    if let [board] = boards[..] {
        with_token(ctx, &mut mail, board)?;
        thread(ctx, &mut mail, board, true)?;
    }
    Ok(mail)
}

/// `Chess Board 101` of a board mail's Subject (`New Chess Board 101
/// alice **`): the part that stays the same for the board.
fn board_subject(subject: &str) -> String {
    let words: Vec<&str> = subject.split_whitespace().collect();
    match words.iter().position(|w| *w == "Board") {
        Some(at) if at >= 1 && at + 1 < words.len() => words[at - 1..=at + 1].join(" "),
        _ => subject.to_string(),
    }
}

/// The board a notice's Subject names (`Chess Board 101 vacation`).
fn board_of_subject(subject: &str) -> Option<u32> {
    let words: Vec<&str> = subject.split_whitespace().collect();
    words
        .windows(2)
        .find(|pair| pair[0] == "Board")
        .and_then(|pair| pair[1].parse().ok())
}

/// Gives a mail to the sender the reply token of the player the sender
/// speaks for on `board`, if the sender plays there.
fn with_token(
    ctx: &MailCtx<'_>,
    mail: &mut Outgoing,
    board: BoardNumber,
) -> Result<(), ServiceError> {
    if mail.reply_to.is_some() {
        return Ok(());
    }
    let Some(row) = crate::store::boards::get(ctx.conn, board)? else {
        return Ok(());
    };
    let reader = match players::by_address(ctx.conn, ctx.sender)? {
        Some(player) if row.color_of(player.id).is_some() => Some(player.id),
        _ => ctx
            .speakers
            .iter()
            .map(|(player, _)| *player)
            .find(|player| row.color_of(*player).is_some()),
    };
    if let Some(player) = reader {
        mail.reply_to = Some(
            ctx.config
                .address
                .with_token(&ctx.key.token(board.0, player)),
        );
    }
    Ok(())
}
