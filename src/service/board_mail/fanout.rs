//! The fan-out: a board's mails to its players (each from their side,
//! with their reply token) and its observers, by each reader's
//! preferences, and what a challenged player who has not accepted gets.
//! Observers read the board as the reader policy shows it to subscribers
//! (`crate::reader`): a running game of an event with a `--public-delay`
//! reaches them that many turns behind, as the delayed view moves.

use super::load::{Loaded, load_for_mails, replay};
use super::pgn::pgn_attachment;
use super::views::{BoardFacts, Reader, render_shown};
use super::{Heading, Occasion};
use crate::domain::{BoardChoice, BoardNumber, MailChoice, PlayerId};
use crate::mail::outgoing::Outgoing;
use crate::service::{Ctx, Failure, ServiceError, threading};
use crate::store::boards::{self, Board};
use crate::store::preferences;

/// Board mails to the players (each from their side, with their reply
/// token) and the observers.
pub fn board_mails(
    ctx: &Ctx<'_>,
    number: BoardNumber,
    occasion: Occasion,
) -> Result<Vec<Outgoing>, ServiceError> {
    if ctx.touch(number, occasion.clone()) {
        return Ok(Vec::new());
    }
    let (loaded, turn_played) = match load_for_mails(ctx, number) {
        Ok(loaded) => loaded,
        Err(Failure::Fatal(error)) => return Err(error),
        Err(Failure::Refused(_)) => return Ok(Vec::new()),
    };
    let heading = match &occasion {
        Occasion::New | Occasion::Started => Heading::New,
        Occasion::Nag(text) => Heading::Nag(text.clone()),
        Occasion::Update | Occasion::Comment => Heading::Plain,
    };
    let to_move = loaded.board.player(loaded.game.state().turn());
    let facts = BoardFacts::gather(ctx, &loaded)?;
    // A finished game (not a declined challenge) brings its PGN.
    let finished = loaded.board.result.as_deref().is_some_and(|r| r != "-")
        && !matches!(occasion, Occasion::Comment);
    let mut pgn: Option<crate::mail::outgoing::File> = None;
    let mut mails = Vec::new();
    for player in [&facts.white, &facts.black] {
        let is_sender = ctx
            .answered_sender()
            .is_some_and(|sender| player.owns_address(sender));
        let chosen = preferences::get(ctx.conn, player.id)?;
        // The digest stands in for the mails of a game going on; the
        // sender's own answer, new boards, reminders and results still come.
        let digest = chosen.mail == MailChoice::Digest
            && !is_sender
            && loaded.board.result.is_none()
            && matches!(occasion, Occasion::Update | Occasion::Comment);
        let skip = match occasion {
            Occasion::Comment => is_sender,
            Occasion::Nag(_) => player.id != to_move,
            Occasion::Started => player.id != to_move || chosen.mail == MailChoice::Digest,
            Occasion::New | Occasion::Update => false,
        };
        if skip
            || digest
            || !mails_player(
                ctx,
                &loaded.board,
                player.id,
                &occasion,
                loaded.turns.len() as u32,
            )?
        {
            continue;
        }
        let shown = render_shown(
            ctx,
            &loaded,
            &facts,
            Reader::Player(player),
            chosen.board,
            &heading,
        )?;
        let attachments = if finished && chosen.pgn {
            vec![match &pgn {
                Some(file) => file.clone(),
                None => pgn.insert(pgn_attachment(ctx, &loaded, &facts)?).clone(),
            }]
        } else {
            Vec::new()
        };
        let mut mail = Outgoing {
            to: vec![player.mail_address().to_string()],
            subject: shown.subject,
            body: shown.body,
            html: shown.html,
            attachments,
            reply_to: Some(
                ctx.config
                    .address
                    .with_token(&ctx.key.token(number.0, player.id)),
            ),
            in_reply_to: None,
            references: Vec::new(),
            send_after: None,
        };
        threading::thread(ctx, &mut mail, number, is_sender)?;
        mails.push(mail);
        if loaded.board.white == loaded.board.black {
            break;
        }
    }
    let observers = boards::observers(ctx.conn, number)?;
    if observers.is_empty() {
        return Ok(mails);
    }
    let Some(sight) = crate::reader::subscribers(ctx.conn, number)? else {
        return Ok(mails);
    };
    // Behind the game, a subscriber's view moves only with a turn played
    // beyond those held back; then it shows the board as it was.
    let delayed = if sight.delayed() && loaded.board.result.is_none() {
        let moved = turn_played
            && matches!(occasion, Occasion::Update)
            && sight.turns_shown(loaded.turns.len()) > 0;
        if !moved {
            return Ok(mails);
        }
        let shown = sight.turns_shown(loaded.turns.len());
        let behind = Loaded {
            board: loaded.board.clone(),
            game: replay(&loaded.board, &loaded.turns, shown)?,
            turns: loaded.turns[..shown].to_vec(),
        };
        let facts = BoardFacts::gather_as(ctx, &behind, &sight)?;
        Some((behind, facts))
    } else {
        None
    };
    let (loaded, facts) = match &delayed {
        Some((behind, facts)) => (behind, facts),
        None => (&loaded, &facts),
    };
    for address in observers {
        let skip = match occasion {
            Occasion::Comment => ctx
                .answered_sender()
                .is_some_and(|sender| address.eq_ignore_ascii_case(sender)),
            Occasion::Nag(_) => true,
            Occasion::New | Occasion::Started | Occasion::Update => false,
        };
        if skip {
            continue;
        }
        let shown = render_shown(
            ctx,
            loaded,
            facts,
            Reader::Observer,
            BoardChoice::Html,
            &heading,
        )?;
        let attachments = if finished {
            vec![match &pgn {
                Some(file) => file.clone(),
                None => pgn.insert(pgn_attachment(ctx, loaded, facts)?).clone(),
            }]
        } else {
            Vec::new()
        };
        let mut mail = Outgoing {
            to: vec![address],
            subject: shown.subject,
            body: shown.body,
            html: shown.html,
            attachments,
            reply_to: None,
            in_reply_to: None,
            references: Vec::new(),
            send_after: None,
        };
        threading::thread(ctx, &mut mail, number, false)?;
        mails.push(mail);
    }
    Ok(mails)
}

/// Whether a board mail for `occasion` goes to player `reader` of a board
/// showing `turns` turns. A challenged player who has not accepted gets
/// the mail of each position once (the challenge, the challenger's first
/// turn) and the mail of the board's end; never a chat, comment, offer
/// or reminder. Records what the mail shows.
pub(super) fn mails_player(
    ctx: &Ctx<'_>,
    board: &Board,
    reader: PlayerId,
    occasion: &Occasion,
    turns: u32,
) -> Result<bool, ServiceError> {
    let Some(challenge) = boards::unaccepted(ctx.conn, board.number)? else {
        return Ok(true);
    };
    if challenge.challenged != reader {
        return Ok(true);
    }
    if board.is_finished() {
        return Ok(*occasion == Occasion::Update);
    }
    let new_position = match occasion {
        Occasion::New | Occasion::Started => true,
        Occasion::Update => turns > challenge.shown,
        Occasion::Comment | Occasion::Nag(_) => false,
    };
    if new_position {
        boards::set_challenge_shown(ctx.conn, board.number, turns)?;
    }
    Ok(new_position)
}
