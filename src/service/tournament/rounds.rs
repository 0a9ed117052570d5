//! What happens as games end: scoring a game for its event, pairing and
//! starting the next Swiss round, round deadlines, and the end of an event
//! with its final crosstable.

use super::*;

/// Scores the end of board `board` for its event, if it is a tournament
/// board: the director hears of it, and the last game ends the event.
pub(in crate::service) fn game_ended(
    ctx: &Ctx<'_>,
    board: u32,
    score: &str,
    reason: &str,
    forfeit: bool,
) -> Result<(), ServiceError> {
    let Some((event_id, game)) = store::game_of_board(ctx.conn, board)? else {
        return Ok(());
    };
    store::set_game_result(ctx.conn, board, score, forfeit)?;
    let event = store::by_id(ctx.conn, event_id)?;
    let director = players::by_id(ctx.conn, event.settings.director)?;
    let white = players::by_id(ctx.conn, game.white)?.userid;
    let black = players::by_id(ctx.conn, game.black)?.userid;
    let result = match (score, forfeit) {
        ("-", _) => "cancelled".to_string(),
        (score, true) => format!("{score} by forfeit"),
        (score, false) => score.to_string(),
    };
    let games = store::games(ctx.conn, event.id)?;
    let open = games.iter().filter(|g| g.result.is_none()).count();
    let text = format!(
        "Board {board}, round {} of \"{}\": {white} - {black} {result} ({reason}). {open} games of the event are still on.",
        game.round, event.settings.name
    );
    let notice = notice_to(
        ctx,
        &director,
        &subject(&event, &format!("board {board} finished")),
        &text,
    )?;
    ctx.pending.borrow_mut().push(notice);
    if open == 0 {
        next_round_or_end(ctx, event.id)?;
    }
    Ok(())
}

/// When every game has ended: a Swiss with rounds to go pairs the next
/// one; otherwise the event ends.
fn next_round_or_end(ctx: &Ctx<'_>, event_id: i64) -> Result<(), ServiceError> {
    let event = store::by_id(ctx.conn, event_id)?;
    match event.settings.format {
        Format::Swiss { rounds } if event.current_round < rounds => pair_next_round(ctx, &event),
        _ => finish_event(ctx, &event),
    }
}

/// Ends a running event whose games all have results.
pub(super) fn finish_if_done(ctx: &Ctx<'_>, event_id: i64) -> Result<(), ServiceError> {
    let event = store::by_id(ctx.conn, event_id)?;
    if event.status == Status::Running
        && store::games(ctx.conn, event.id)?
            .iter()
            .all(|g| g.result.is_some())
    {
        next_round_or_end(ctx, event.id)?;
    }
    Ok(())
}

/// Marks the event finished and mails the final crosstable to every
/// entrant and the director.
fn finish_event(ctx: &Ctx<'_>, event: &Event) -> Result<(), ServiceError> {
    if event.status != Status::Running {
        return Ok(());
    }
    store::set_status(ctx.conn, event.id, Status::Finished, ctx.now)?;
    let (intro, table) = crosstable_text(ctx, event, "Final crosstable")?;
    let text = format!(
        "\"{}\" is over. Thank you for playing.\n\n{intro}",
        event.settings.name
    );
    let mut readers: Vec<PlayerId> = store::entries(ctx.conn, event.id)?
        .iter()
        .map(|e| e.player)
        .collect();
    if !readers.contains(&event.settings.director) {
        readers.push(event.settings.director);
    }
    for reader in readers {
        let player = players::by_id(ctx.conn, reader)?;
        let mut mail = notice_with_block(
            ctx,
            vec![player.mail_address().to_string()],
            &subject(event, "final crosstable"),
            &text,
            &table,
        )?;
        if !player.owns_address(ctx.sender) {
            mail.in_reply_to = None;
            mail.references.clear();
        }
        with_token(ctx, &mut mail, &player);
        ctx.pending.borrow_mut().push(mail);
    }
    Ok(())
}

/// Sends a board's mails: at the end of the mail when a mail is being
/// answered, or with the sweep's mails.
/// Starts the event's game of `round` between `white` and `black`: its
/// board with the event's deadlines and rating, its clock and its place
/// in the event, and the board mails; returns its line for the pairing
/// notice.
pub(super) fn start_game(
    ctx: &Ctx<'_>,
    event: &Event,
    round: u32,
    white: PlayerId,
    black: PlayerId,
) -> Result<String, ServiceError> {
    let options = BoardOptions {
        rated: event.settings.rated,
        days_per_turn: event.settings.days_per_turn,
        nag_days: event.settings.nag_days,
        forfeit_days: event.settings.forfeit_days,
    };
    let board = boards::insert(
        ctx.conn,
        event.settings.variant,
        white,
        black,
        options,
        ctx.now,
    )?;
    deadlines::set_to_move(ctx.conn, board, white)?;
    store::add_game(
        ctx.conn,
        event.id,
        &store::Game {
            round,
            white,
            black,
            board,
            result: None,
            forfeit: false,
        },
    )?;
    send_board_mails(ctx, board, Occasion::New)?;
    Ok(format!(
        "  Round {round:>2}  board {board}  {} - {}",
        players::by_id(ctx.conn, white)?.userid,
        players::by_id(ctx.conn, black)?.userid
    ))
}

pub(super) fn send_board_mails(
    ctx: &Ctx<'_>,
    board: u32,
    occasion: Occasion,
) -> Result<(), ServiceError> {
    let mails = board_mail::board_mails(ctx, board, occasion)?;
    ctx.pending.borrow_mut().extend(mails);
    Ok(())
}

/// Starts a Swiss: start numbers by rating (highest first, then userid),
/// and round 1 paired.
pub(super) fn start_swiss(
    ctx: &mut Ctx<'_>,
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
    let mut seeded = Vec::with_capacity(entries.len());
    for entry in entries {
        let player = players::by_id(ctx.conn, entry.player)?;
        let rating = rating_of(ctx, player.id, event.settings.variant)?;
        seeded.push((rating, player));
    }
    seeded.sort_by(|(ra, a), (rb, b)| {
        rb.cmp(ra)
            .then_with(|| a.userid.to_lowercase().cmp(&b.userid.to_lowercase()))
    });
    let mut list = String::new();
    for (number, (rating, player)) in seeded.iter().enumerate() {
        store::set_start_number(ctx.conn, event.id, player.id, number as u32 + 1)?;
        store::set_rating(ctx.conn, event.id, player.id, *rating)?;
        list.push_str(&format!(
            "  {:>3}. {:<24} {rating}\n",
            number + 1,
            player.userid
        ));
    }
    store::set_status(ctx.conn, event.id, Status::Running, ctx.now)?;
    let event = store::by_id(ctx.conn, event.id)?;
    pair_next_round(ctx, &event)?;
    let text = format!(
        "\"{name}\" has started: a Swiss of {rounds} rounds. Start numbers by rating:\n{list}\nThe pairings of round 1 follow in a notice of their own; each player has a board mail for the game."
    );
    Ok(vec![
        ctx.notice_to_sender(&subject(&event, "started"), &text)?,
    ])
}

/// Pairs and starts the next round of a Swiss (FIDE Dutch, `pairing::dutch`);
/// withdrawn players are left out (a zero-point bye each). The director
/// gets the pairings; a player who gets the pairing-allocated bye is told.
/// A round that cannot be paired (too few players left who have not met)
/// ends the event with the rounds played: nothing else would ever end it.
fn pair_next_round(ctx: &Ctx<'_>, event: &Event) -> Result<(), ServiceError> {
    let Format::Swiss { rounds } = event.settings.format else {
        return Ok(());
    };
    let name = &event.settings.name;
    let director = players::by_id(ctx.conn, event.settings.director)?;
    let mut round = event.current_round + 1;
    while round <= rounds {
        for entry in store::entries(ctx.conn, event.id)? {
            if entry.withdrawn {
                store::add_bye(ctx.conn, event.id, round, entry.player, ByeKind::Zero)?;
            }
        }
        let results = results(ctx, event)?;
        let trf = crate::tournament::swiss::trf(&results, name, rounds);
        let pairing = match crate::pairing::dutch::pair(&trf) {
            Ok(pairing) => pairing,
            Err(error) => {
                // The round is not played: its byes go again.
                store::remove_byes(ctx.conn, event.id, round)?;
                let played = round - 1;
                let text = format!(
                    "pbem could not pair round {round} of \"{name}\": {error}. The event ends with the {played} round{} played; every player gets the final crosstable.",
                    if played == 1 { "" } else { "s" }
                );
                let mail = notice_to(ctx, &director, &subject(event, "pairing failed"), &text)?;
                ctx.pending.borrow_mut().push(mail);
                break;
            }
        };
        let entries = store::entries(ctx.conn, event.id)?;
        let by_start = |start: u32| -> Option<PlayerId> {
            entries
                .iter()
                .find(|e| e.start_number == Some(start))
                .map(|e| e.player)
        };
        store::set_round(ctx.conn, event.id, round, ctx.now)?;
        let mut lines = Vec::new();
        for (white_start, black_start) in &pairing.pairs {
            let (Some(white), Some(black)) = (by_start(*white_start), by_start(*black_start))
            else {
                continue;
            };
            lines.push(start_game(ctx, event, round, white, black)?);
        }
        if let Some(player) = pairing.bye.and_then(by_start) {
            store::add_bye(ctx.conn, event.id, round, player, ByeKind::Full)?;
            let player = players::by_id(ctx.conn, player)?;
            lines.push(format!("  Round {round:>2}  bye  {}", player.userid));
            let text = format!(
                "{} has the bye in round {round} of \"{name}\": one point, no game this round.",
                player.userid
            );
            let mail = notice_to(
                ctx,
                &player,
                &subject(event, &format!("round {round} bye")),
                &text,
            )?;
            ctx.pending.borrow_mut().push(mail);
        }
        let text = format!(
            "Round {round} of {rounds} of \"{name}\" is paired (FIDE Dutch system):\n{}\n",
            lines.join("\n")
        );
        let mail = notice_to(
            ctx,
            &director,
            &subject(event, &format!("round {round}")),
            &text,
        )?;
        ctx.pending.borrow_mut().push(mail);
        if !pairing.pairs.is_empty() {
            return Ok(());
        }
        // Nobody to play (everyone sits out): on to the next round.
        round += 1;
    }
    let event = store::by_id(ctx.conn, event.id)?;
    finish_event(ctx, &event)
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
