//! The director's commands on a running event: the start (lots, start
//! numbers, the first round), withdrawals, adjudications and broadcasts.

use super::*;
use crate::domain::BoardNumber;

/// Draws lots: a random order of `count` items (Fisher-Yates on the
/// system's randomness).
fn lots(count: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    for i in (1..count).rev() {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).ok();
        let j = (u64::from_le_bytes(bytes) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

pub(super) fn start(ctx: &mut MailCtx<'_>, event: &Event) -> Result<Vec<Outgoing>, Failure> {
    let name = &event.settings.name;
    if event.status != Status::Open {
        return Err(refuse(
            format!("\"{name}\" is {} already", event.status.as_str()),
            None,
        ));
    }
    let entries = store::entries(ctx.conn, event.id)?;
    if entries.len() < 3 {
        return Err(refuse(
            format!(
                "\"{name}\" needs at least 3 players to start; it has {}",
                entries.len()
            ),
            None,
        ));
    }
    let double = match event.settings.format {
        Format::RoundRobin { double } => double,
        Format::Swiss { rounds } => return start_swiss(ctx, event, &entries, rounds),
        Format::Knockout { .. } | Format::Groups { .. } => {
            let variant = event.settings.variant;
            return crate::service::event_rounds::start_cup(ctx, event, &entries, |ctx, player| {
                rating_of(ctx, player, variant)
            });
        }
    };
    let order = lots(entries.len());
    let mut seats: Vec<PlayerId> = Vec::with_capacity(entries.len());
    for (number, &index) in order.iter().enumerate() {
        let player = entries[index].player;
        store::set_start_number(ctx.conn, event.id, player, number as u32 + 1)?;
        seats.push(player);
    }
    let count = seats.len() as u32;
    let rounds = if double {
        berger::double(count)
    } else {
        berger::single(count)
    };
    let mut games = Vec::new();
    for (round, pairs) in rounds.iter().enumerate() {
        for pair in pairs {
            games.push(NewGame {
                round: round as u32 + 1,
                white: seats[pair.white as usize - 1],
                black: seats[pair.black as usize - 1],
            });
        }
    }
    let heading = format!(
        "\"{name}\" has started: a {}, all its games at once.",
        event.settings.format.describe()
    );
    let lines: Vec<String> = start_games(ctx, event, &games, &heading)?
        .into_iter()
        .map(|started| started.line)
        .collect();
    store::set_status(ctx.conn, event.id, Status::Running, ctx.now)?;
    let mut starting = String::new();
    for (number, player) in seats.iter().enumerate() {
        starting.push_str(&format!(
            "  {:>2}. {}\n",
            number + 1,
            players::by_id(ctx.conn, *player)?.userid
        ));
    }
    let text = format!(
        "\"{name}\" has started: {}, all at once. Each player has one mail listing their boards, and the board mail of each board where they move first.\n\nStart numbers (drawn by lot):\n{starting}\nPairings (Berger tables):\n{}\n",
        crate::render::count(lines.len(), "game"),
        lines.join("\n")
    );
    Ok(vec![answer(
        ctx,
        event.settings.director,
        &subject(event, "started"),
        &text,
    )?])
}

fn entrant(ctx: &MailCtx<'_>, event: &Event, userid: &str) -> Result<Player, Failure> {
    let player = players::by_userid(ctx.conn, userid)?;
    let entries = store::entries(ctx.conn, event.id)?;
    match player {
        Some(player) if entries.iter().any(|e| e.player == player.id) => Ok(player),
        _ => Err(refuse(
            format!(
                "\"{userid}\" is not an entrant of \"{}\"",
                event.settings.name
            ),
            None,
        )),
    }
}

pub(super) fn withdraw(
    ctx: &mut MailCtx<'_>,
    event: &Event,
    userid: &str,
    how: Withdrawal,
) -> Result<Vec<Outgoing>, Failure> {
    let name = &event.settings.name;
    if event.status != Status::Running {
        return Err(refuse(
            format!(
                "\"{name}\" is {}: a player is withdrawn from a running event (before the start, the player leaves)",
                event.status.as_str()
            ),
            None,
        ));
    }
    let player = entrant(ctx, event, userid)?;
    if store::entries(ctx.conn, event.id)?
        .iter()
        .any(|e| e.player == player.id && e.withdrawn)
    {
        return Err(refuse(
            format!("{} is already withdrawn from \"{name}\"", player.userid),
            None,
        ));
    }
    store::set_withdrawn(ctx.conn, event.id, player.id, ctx.now)?;
    let reason = format!("{} withdrew from the event {name}", player.userid);
    let games: Vec<store::Game> = store::games(ctx.conn, event.id)?
        .into_iter()
        .filter(|g| g.white == player.id || g.black == player.id)
        .collect();
    let lost_by = |game: &store::Game| {
        if game.white == player.id {
            "0-1"
        } else {
            "1-0"
        }
    };
    // Finished games first, so that a table the last forfeit completes
    // already counts them as forfeits.
    let mut rescored = 0;
    if how == Withdrawal::ForfeitAll {
        for game in games
            .iter()
            .filter(|g| g.result.as_deref().is_some_and(|r| r != "-"))
        {
            store::set_game_result(ctx.conn, game.board, lost_by(game), true)?;
            rescored += 1;
        }
    }
    let mut ended = 0;
    for game in games.iter().filter(|g| g.result.is_none()) {
        end_game(
            ctx,
            game.board,
            Ending::Forfeit {
                score: lost_by(game),
                reason: &reason,
            },
        )?;
        send_board_mails(ctx, game.board, Occasion::Update)?;
        ended += 1;
    }
    let text = format!(
        "{} is withdrawn from \"{name}\": {} lost by forfeit{}.",
        player.userid,
        are(ended, "unfinished game"),
        match how {
            Withdrawal::ForfeitAll =>
                format!(
                    ", and {} scored as forfeits too",
                    are(rescored, "finished game")
                ),
            Withdrawal::KeepPlayed => ", finished games stand".to_string(),
        }
    );
    let mut mails = vec![answer(
        ctx,
        event.settings.director,
        &subject(event, "withdrawal"),
        &text,
    )?];
    if !player.owns_address(ctx.sender) {
        mails.push(notice_to(
            ctx,
            &player,
            &subject(event, "withdrawal"),
            &text,
        )?);
    }
    // The event may be over now.
    finish_if_done(ctx, event.id)?;
    Ok(mails)
}

pub(super) fn adjudicate(
    ctx: &mut MailCtx<'_>,
    event: &Event,
    board: BoardNumber,
    ruling: Ruling,
    reason: &str,
) -> Result<Vec<Outgoing>, Failure> {
    let name = &event.settings.name;
    let game = match store::game_of_board(ctx.conn, board)? {
        Some((id, game)) if id == event.id => game,
        _ => {
            return Err(refuse(
                format!("board {board} is not a game of \"{name}\""),
                None,
            ));
        }
    };
    if let Some(result) = &game.result {
        return Err(refuse(
            format!("board {board} is finished already ({result})"),
            None,
        ));
    }
    // A director who plays in the event does not rule on a game they play: it
    // ends over the board, on time, or by the round deadline's rule.
    if [game.white, game.black].contains(&event.settings.director) {
        return Err(refuse(
            format!(
                "board {board} is your own game, and a director may not rule on a game they play; \
                 it ends over the board (resign, draw), on time, or as the event's rule scores unfinished games"
            ),
            None,
        ));
    }
    let reason = format!("adjudicated by the director: {reason}");
    let ending = match ruling {
        Ruling::Cancel => Ending::Declined { reason: &reason },
        _ => Ending::Played {
            score: ruling.score(),
            reason: &reason,
        },
    };
    end_game(ctx, board, ending)?;
    send_board_mails(ctx, board, Occasion::Update)?;
    let text = format!(
        "Board {board} of \"{name}\": {} ({reason}).",
        ruling.score()
    );
    Ok(vec![answer(
        ctx,
        event.settings.director,
        &subject(event, "adjudicated"),
        &text,
    )?])
}

pub(super) fn broadcast(
    ctx: &mut MailCtx<'_>,
    event: &Event,
    director: &Player,
    message: &str,
) -> Result<Vec<Outgoing>, Failure> {
    let name = &event.settings.name;
    if event.status == Status::Finished {
        return Err(refuse(
            format!("\"{name}\" is finished: broadcasts are for open or running events"),
            None,
        ));
    }
    if ctx.events.broadcast {
        return Err(refuse(
            "one broadcast per mail: send the next one in another mail",
            None,
        ));
    }
    let recent = store::broadcasts_since(ctx.conn, event.id, ctx.now - time::Duration::days(1))?;
    if recent >= BROADCASTS_PER_DAY {
        return Err(refuse(
            format!(
                "\"{name}\" had {} in the last 24 hours: at most {BROADCASTS_PER_DAY} broadcasts a day per event; send this one later",
                crate::render::count(recent, "broadcast")
            ),
            None,
        ));
    }
    store::record_broadcast(ctx.conn, event.id, ctx.now)?;
    let mut mails = Vec::new();
    let mut told = 0;
    let subject = subject(event, "message from the director");
    let text = format!(
        "{} writes to the players of \"{}\":\n\n{message}",
        director.userid, event.settings.name
    );
    for entry in store::entries(ctx.conn, event.id)? {
        let player = players::by_id(ctx.conn, entry.player)?;
        if player.id == director.id {
            continue;
        }
        mails.push(notice_to(ctx, &player, &subject, &text)?);
        told += 1;
    }
    mails.push(answer(
        ctx,
        director.id,
        &subject,
        &format!("Sent to {}:\n\n{text}", crate::render::count(told, "player")),
    )?);
    ctx.events.broadcast = true;
    Ok(mails)
}

/// `1 unfinished game is`, `2 unfinished games are`.
fn are(n: u32, singular: &str) -> String {
    let verb = if n == 1 { "is" } else { "are" };
    format!("{} {verb}", crate::render::count(n, singular))
}
