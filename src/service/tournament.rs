//! Tournament commands by mail (thin: the pairing and the scoring are in
//! `crate::tournament`, the rows in `store::tournaments`): creating an
//! event, entering and leaving it, the director's start, invitations,
//! withdrawals, rulings and broadcasts, and anybody's views of it. And
//! [`game_ended`], which `ending::end_game` calls for every game that
//! ends, in the same transaction: it scores the game for its event, tells
//! the director, and ends the event (the final crosstable to every entrant
//! and the director) when its last game ends.

use std::collections::HashMap;

use time::OffsetDateTime;

use super::board_mail::{self, Occasion};
use super::ending::{Ending, end_game};
use super::{Ctx, Failure, ServiceError, refuse};
use crate::command::{CreateTournament, EventFilter, Ruling, Tournament, View, Withdrawal};
use crate::mail::outgoing::Outgoing;
use crate::render::templates::{MAX_LINE, wrap_long_lines};
use crate::rules::Variant;
use crate::store::boards::{self, BoardOptions};
use crate::store::deadlines;
use crate::store::players::{self, Player, PlayerId};
use crate::store::tournaments::{self as store, Event, Settings, Status};
use crate::tournament::{
    ByeKind, Crosstable, EventResults, Format, MAX_ROUND_ROBIN, MAX_SWISS, Tiebreak, berger, text,
};

/// Reminder and loss-on-time days of tournament boards unless the event
/// says otherwise (PROTOCOL.md).
const DEFAULT_NAG_DAYS: u32 = 1;
const DEFAULT_FORFEIT_DAYS: u32 = 7;

pub(super) fn run(ctx: &mut Ctx<'_>, command: &Tournament) -> Result<Vec<Outgoing>, Failure> {
    match command {
        Tournament::Create(c) => create(ctx, c),
        Tournament::Enter { name, speaker } => {
            let player = ctx.speaker(speaker, None, None)?;
            enter(ctx, name, &player)
        }
        Tournament::Leave { name, speaker } => {
            let player = ctx.speaker(speaker, None, None)?;
            leave(ctx, name, &player)
        }
        Tournament::Invite {
            name,
            director,
            players,
        } => {
            let director = ctx.speaker(director, None, None)?;
            let event = directed(ctx, name, &director)?;
            invite(ctx, &event, players)
        }
        Tournament::Start { name, director } => {
            let director = ctx.speaker(director, None, None)?;
            let event = directed(ctx, name, &director)?;
            start(ctx, &event)
        }
        Tournament::Withdraw {
            name,
            director,
            player,
            how,
        } => {
            let director = ctx.speaker(director, None, None)?;
            let event = directed(ctx, name, &director)?;
            withdraw(ctx, &event, player, *how)
        }
        Tournament::Adjudicate {
            name,
            director,
            board,
            ruling,
            reason,
        } => {
            let director = ctx.speaker(director, None, None)?;
            let event = directed(ctx, name, &director)?;
            adjudicate(ctx, &event, *board, *ruling, reason)
        }
        Tournament::Broadcast {
            name,
            director,
            text,
        } => {
            let director = ctx.speaker(director, None, None)?;
            let event = directed(ctx, name, &director)?;
            broadcast(ctx, &event, &director, text)
        }
        Tournament::View { name, view } => {
            let event = named(ctx, name)?;
            show(ctx, &event, *view)
        }
        Tournament::List(filter) => list(ctx, *filter),
    }
}

/// The event called `name`, or a refusal naming it.
fn named(ctx: &Ctx<'_>, name: &str) -> Result<Event, Failure> {
    store::by_name(ctx.conn, name)?
        .ok_or_else(|| refuse(format!("there is no event \"{name}\""), None))
}

/// The event called `name`, when `director` directs it.
fn directed(ctx: &Ctx<'_>, name: &str, director: &Player) -> Result<Event, Failure> {
    let event = named(ctx, name)?;
    if event.settings.director != director.id {
        return Err(refuse(
            format!(
                "{} is not the director of the event \"{name}\"; only its director may do that",
                director.userid
            ),
            None,
        ));
    }
    Ok(event)
}

fn subject(event: &Event, what: &str) -> String {
    format!("pbem tournament {}: {what}", event.settings.name)
}

/// A notice to someone other than the sender: it answers no mail of theirs.
fn notice_to(
    ctx: &Ctx<'_>,
    player: &Player,
    subject: &str,
    text: &str,
) -> Result<Outgoing, ServiceError> {
    let mut mail = ctx.notice(vec![player.mail_address().to_string()], subject, text)?;
    if !player.owns_address(ctx.sender) {
        mail.in_reply_to = None;
        mail.references.clear();
    }
    Ok(mail)
}

fn create(ctx: &mut Ctx<'_>, command: &CreateTournament) -> Result<Vec<Outgoing>, Failure> {
    let director = ctx.speaker(&command.speaker, None, None)?;
    let variant: Variant = command.variant.parse().map_err(|_| {
        refuse(
            format!(
                "\"{}\" is not a variant; send \"help variants\" for the list",
                command.variant
            ),
            None,
        )
    })?;
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
        None => Format::RoundRobin {
            double: command.double,
        },
    };
    let cap = if format.is_swiss() {
        MAX_SWISS
    } else {
        MAX_ROUND_ROBIN
    };
    let max_entrants = command.max_entrants.unwrap_or(cap);
    if max_entrants > cap {
        return Err(refuse(
            format!(
                "--max={max_entrants}: a {} may have up to {cap} players",
                format.describe()
            ),
            None,
        ));
    }
    let forfeit_days = match (command.forfeit_days, command.days_per_turn) {
        (Some(_), Some(_)) => {
            return Err(refuse(
                "give --days or --forfeit, not both: they both set the time for a turn",
                None,
            ));
        }
        (Some(days), None) | (None, Some(days)) => days,
        (None, None) => DEFAULT_FORFEIT_DAYS,
    };
    let nag_days = command.nag_days.unwrap_or(match command.days_per_turn {
        Some(days) => (days / 3).max(1),
        None => DEFAULT_NAG_DAYS.min(forfeit_days),
    });
    if forfeit_days < nag_days {
        return Err(refuse(
            format!(
                "--forfeit={forfeit_days} must not be shorter than the reminder time of {nag_days} days"
            ),
            None,
        ));
    }
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
    };
    let id = store::insert(ctx.conn, &settings, ctx.now)?;
    let event = store::by_id(ctx.conn, id)?;
    let text = format!(
        "You created the event \"{name}\" and direct it.\n\n{details}\nPlayers enter with:\n  tournament enter {name} <userid> <password>\nWhen enough have entered (at least 3), start it with:\n  tournament start {name} {td} <password>",
        name = settings.name,
        details = details(ctx, &event)?,
        td = director.userid,
    );
    Ok(vec![
        ctx.notice_to_sender(&subject(&event, "created"), &text)?,
    ])
}

/// The end of `date` (the start of the next day, UTC); `now` for the last
/// day time can tell.
fn end_of_day(date: time::Date, now: OffsetDateTime) -> OffsetDateTime {
    date.next_day()
        .map_or(now, |day| day.midnight().assume_utc())
}

/// The settings of an event, a line each.
fn details(ctx: &Ctx<'_>, event: &Event) -> Result<String, ServiceError> {
    let s = &event.settings;
    let director = players::by_id(ctx.conn, s.director)?;
    let mut out = format!(
        "Event: {}\nDirector: {}\nFormat: {}, {}, {}\nDeadlines: reminder after {} days, loss on time after {} days without a move\n",
        s.name,
        director.userid,
        s.format.describe(),
        s.variant.display_name(),
        if s.rated { "rated" } else { "unrated" },
        s.nag_days,
        s.forfeit_days
    );
    if let Some(days) = s.round_days {
        out.push_str(&format!(
            "Rounds: each round lasts at most {days} days; then its unfinished games are scored as draws unless the director adjudicates them first\n"
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
    match s.vacation_days {
        Some(days) => out.push_str(&format!(
            "Vacation: each player's clocks on the event's boards stop for at most {days} days of vacation in all\n"
        )),
        None => out.push_str("Vacation: each player's own yearly allowance\n"),
    }
    out.push_str(&format!(
        "Entry: {}up to {} players{}\nTiebreaks: {}\nStatus: {}\n",
        if s.invite_only { "by invitation, " } else { "" },
        s.max_entrants,
        s.closes_at
            .map(|at| format!(", closes {}", super::deadlines::readable(at)))
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

fn enter(ctx: &mut Ctx<'_>, name: &str, player: &Player) -> Result<Vec<Outgoing>, Failure> {
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
                super::deadlines::readable(closes)
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
fn rating_of(ctx: &Ctx<'_>, player: PlayerId, variant: Variant) -> Result<i32, ServiceError> {
    Ok(crate::store::ratings::current(ctx.conn, player, variant)?
        .unwrap_or(crate::ratings::START)
        .shown())
}

fn leave(ctx: &mut Ctx<'_>, name: &str, player: &Player) -> Result<Vec<Outgoing>, Failure> {
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

fn invite(ctx: &mut Ctx<'_>, event: &Event, names: &[String]) -> Result<Vec<Outgoing>, Failure> {
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

fn start(ctx: &mut Ctx<'_>, event: &Event) -> Result<Vec<Outgoing>, Failure> {
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
    let mut lines = Vec::new();
    for (round, pairs) in rounds.iter().enumerate() {
        let round = round as u32 + 1;
        for pair in pairs {
            let white = seats[pair.white as usize - 1];
            let black = seats[pair.black as usize - 1];
            lines.push(start_game(ctx, event, round, white, black)?);
        }
    }
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
        "\"{name}\" has started: {} games, all at once. Each player has a board mail for each game.\n\nStart numbers (drawn by lot):\n{starting}\nPairings (Berger tables):\n{}\n",
        lines.len(),
        lines.join("\n")
    );
    Ok(vec![
        ctx.notice_to_sender(&subject(event, "started"), &text)?,
    ])
}

fn entrant(ctx: &Ctx<'_>, event: &Event, userid: &str) -> Result<Player, Failure> {
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

fn withdraw(
    ctx: &mut Ctx<'_>,
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
        "{} is withdrawn from \"{name}\": {ended} unfinished games are lost by forfeit{}.",
        player.userid,
        match how {
            Withdrawal::ForfeitAll =>
                format!(", and {rescored} finished games are scored as forfeits too"),
            Withdrawal::KeepPlayed => ", finished games stand".to_string(),
        }
    );
    let mut mails = vec![ctx.notice_to_sender(&subject(event, "withdrawal"), &text)?];
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

fn adjudicate(
    ctx: &mut Ctx<'_>,
    event: &Event,
    board: u32,
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
    Ok(vec![
        ctx.notice_to_sender(&subject(event, "adjudicated"), &text)?,
    ])
}

fn broadcast(
    ctx: &mut Ctx<'_>,
    event: &Event,
    director: &Player,
    message: &str,
) -> Result<Vec<Outgoing>, Failure> {
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
    mails.push(ctx.notice_to_sender(&subject, &format!("Sent to {told} players:\n\n{text}"))?);
    Ok(mails)
}

/// The event's results, for the crosstable.
pub(super) fn results(ctx: &Ctx<'_>, event: &Event) -> Result<EventResults, ServiceError> {
    Ok(store::results(ctx.conn, event)?)
}

/// The crosstable's heading (wrapped like any text) and the table with its
/// key (sent as it is: wide tables keep their columns).
fn crosstable_text(
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
fn notice_with_block(
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

fn show(ctx: &mut Ctx<'_>, event: &Event, view: View) -> Result<Vec<Outgoing>, Failure> {
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
                pgn.push_str(&super::play::board_pgn(
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

fn list(ctx: &mut Ctx<'_>, filter: EventFilter) -> Result<Vec<Outgoing>, Failure> {
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

/// Scores the end of board `board` for its event, if it is a tournament
/// board: the director hears of it, and the last game ends the event.
pub(super) fn game_ended(
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
fn finish_if_done(ctx: &Ctx<'_>, event_id: i64) -> Result<(), ServiceError> {
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
        ctx.pending.borrow_mut().push(mail);
    }
    Ok(())
}

/// How long a vacation may stop the clock of a board of an event with a
/// vacation allowance (see `schedule::within_allowance`).
pub(super) fn vacation_allowances(
    ctx: &Ctx<'_>,
) -> Result<HashMap<u32, (u32, OffsetDateTime)>, ServiceError> {
    Ok(store::vacation_allowances(ctx.conn)?)
}

/// Sends a board's mails: at the end of the mail when a mail is being
/// answered, or with the sweep's mails.
/// Starts the event's game of `round` between `white` and `black`: its
/// board with the event's deadlines and rating, its clock and its place
/// in the event, and the board mails; returns its line for the pairing
/// notice.
fn start_game(
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

fn send_board_mails(ctx: &Ctx<'_>, board: u32, occasion: Occasion) -> Result<(), ServiceError> {
    let mails = board_mail::board_mails(ctx, board, occasion)?;
    ctx.pending.borrow_mut().extend(mails);
    Ok(())
}

/// Starts a Swiss: start numbers by rating (highest first, then userid),
/// and round 1 paired.
fn start_swiss(
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
                let text = format!(
                    "pbem could not pair round {round} of \"{name}\": {error}. The event waits; the director may withdraw players or adjudicate."
                );
                let mail = notice_to(ctx, &director, &subject(event, "pairing failed"), &text)?;
                ctx.pending.borrow_mut().push(mail);
                return Ok(());
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
pub(super) fn round_deadlines(ctx: &Ctx<'_>) -> Result<usize, ServiceError> {
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
