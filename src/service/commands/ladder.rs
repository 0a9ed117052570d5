//! The act of `ladder create|join|leave|challenge|show` (thin: the rules
//! are `crate::tournament::ladder`, the rows `store::ladders`; a game's end
//! moves the order in `service::ladders`).
//!
//! Decisions the issue left open:
//! * A ladder challenge starts the game at once (joining is consent):
//!   no acceptance, no `decline` (`play` refuses it). The challenger
//!   plays White. The games are rated, with the ladder's days per turn.
//! * Leaving with games open: the player's rung is removed (those below
//!   move up one); the games play on as ordinary games, and their results
//!   no longer change the ladder. Until they end they still count against
//!   the ladder's limits (one open game a pair, `--open` a player), so
//!   that leaving and joining again cannot force a second game on anyone.
//! * A ladder never ends; an owner may make [`LADDERS_PER_OWNER`] of them,
//!   each of at most `tournament::ladder::MAX_LADDER` players.
//! * The two players hear of a result's effect in the board mail of the
//!   game's end; each player between, pushed down one, gets a mail of
//!   their own. Those who move up when a player leaves get none.

use super::{Act, Asked};
use crate::command::{CreateLadder, Ladder as LadderCommand};
use crate::domain::{BoardNumber, PlayerId};
use crate::mail::outgoing::Outgoing;
use crate::rules::Variant;
use crate::service::board_mail::{self, Occasion};
use crate::service::challenges::BOARDS_IN_PROGRESS;
use crate::service::event_rounds::{notice_with_block, with_token};
use crate::service::ladders::rung_of;
use crate::service::{Ctx, Failure, MailCtx, ServiceError, refuse};
use crate::store::boards::{self, BoardOptions};
use crate::store::deadlines;
use crate::store::ladders::{self as store, LadderSettings, Rung, StoredLadder};
use crate::store::players::{self, Player};
use crate::tournament::ladder::{DEFAULT_OPEN, DEFAULT_REACH, Ladder, LadderError};

/// Ladders one player may make (ladders never end).
pub const LADDERS_PER_OWNER: u32 = 5;

impl Act for LadderCommand {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let token = asked.token;
        match self {
            LadderCommand::Create(c) => create(ctx, c, token),
            LadderCommand::Join { name, speaker } => {
                let player = ctx.speaker(speaker, token, None)?;
                join(ctx, name, &player)
            }
            LadderCommand::Leave { name, speaker } => {
                let player = ctx.speaker(speaker, token, None)?;
                leave(ctx, name, &player)
            }
            LadderCommand::Challenge {
                name,
                speaker,
                opponent,
            } => {
                let player = ctx.speaker(speaker, token, None)?;
                challenge(ctx, name, &player, opponent)
            }
            LadderCommand::Show { name } => show(ctx, name),
        }
    }
}

fn subject(name: &str, what: &str) -> String {
    format!("pbem ladder {name}: {what}")
}

/// The answer to the sender, with `player`'s reply token when the sender
/// is one of the player's addresses.
fn answer(
    ctx: &MailCtx<'_>,
    player: &Player,
    subject: &str,
    text: &str,
) -> Result<Outgoing, ServiceError> {
    let mut mail = ctx.notice_to_sender(subject, text)?;
    with_token(ctx, &mut mail, player);
    Ok(mail)
}

/// The ladder called `name`, or a refusal naming it.
fn named(ctx: &MailCtx<'_>, name: &str) -> Result<StoredLadder, Failure> {
    store::by_name(ctx.conn, name)?
        .ok_or_else(|| refuse(format!("there is no ladder \"{name}\""), None))
}

/// A rule's refusal: changes nothing.
fn refused(error: LadderError<Rung>) -> Failure {
    refuse(error.to_string(), None)
}

/// Days each turn of the ladder's games may take: `--days`, or the time
/// control's nominal days per turn (see [`nominal_days`]).
fn days_per_turn(command: &CreateLadder) -> Option<u32> {
    command.days_per_turn.or(command.time.map(nominal_days))
}

/// The days per turn a `--time` control's games are stored with beside
/// their clock (what the sweep's other deadlines, such as a draw offer's
/// lapse, count in): `D` its days, `N/D` D/N, a bank its days; rounded up
/// to whole days, 1 to 365.
fn nominal_days(control: pbem_clock::TimeControl) -> u32 {
    use pbem_clock::TimeControl;
    let hundredths = match control {
        TimeControl::PerTurn { days } => days.hundredths(),
        TimeControl::Blocks { turns, days } => days.hundredths().div_ceil(turns.max(1)),
        TimeControl::Bank { bank, .. } => bank.hundredths(),
    };
    hundredths.div_ceil(100).clamp(1, 365)
}

fn create(
    ctx: &mut MailCtx<'_>,
    command: &CreateLadder,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    let owner = ctx.speaker(&command.speaker, token, None)?;
    let made = store::count_of_owner(ctx.conn, owner.id)?;
    if made >= LADDERS_PER_OWNER {
        return Err(refuse(
            format!(
                "{} has made {}; a player may make at most {LADDERS_PER_OWNER}",
                owner.userid,
                crate::render::count(made, "ladder")
            ),
            None,
        ));
    }
    let variant: Variant = crate::service::variant_named(&command.variant)?;
    if store::by_name(ctx.conn, &command.name)?.is_some() {
        return Err(refuse(
            format!(
                "there is already a ladder \"{}\"; choose another name",
                command.name
            ),
            None,
        ));
    }
    let reach = command.reach.unwrap_or(DEFAULT_REACH);
    let max_open = command.max_open.unwrap_or(DEFAULT_OPEN);
    Ladder::<Rung>::new(reach, max_open).map_err(refused)?;
    let settings = LadderSettings {
        name: command.name.clone(),
        variant,
        owner: owner.id,
        reach,
        max_open,
        days_per_turn: days_per_turn(command),
        time_control: command.time.map(|control| control.to_string()),
    };
    // Checked now, so that every challenge can start its game.
    options(ctx, &settings)?;
    let id = store::insert(ctx.conn, &settings, ctx.now)?;
    let ladder = store::by_id(ctx.conn, id)?;
    let name = &settings.name;
    let text = format!(
        "You created the ladder \"{name}\".\n\n{}\nPlayers join it (at the bottom) with:\n  ladder join {name} <userid> <password>\nand challenge a player above with:\n  ladder challenge {name} <userid> <password> <opponent>",
        details(ctx, &ladder)?
    );
    Ok(vec![answer(ctx, &owner, &subject(name, "created"), &text)?])
}

/// The board options of the ladder's games.
fn options(ctx: &Ctx<'_>, settings: &LadderSettings) -> Result<BoardOptions, Failure> {
    let (nag_days, forfeit_days) = crate::schedule::turn_deadlines(
        settings.days_per_turn,
        None,
        None,
        ctx.config.default_forfeit_days,
        |_| ctx.config.default_nag_days,
    )
    .map_err(|problem| refuse(problem, None))?;
    Ok(BoardOptions {
        rated: true,
        days_per_turn: settings.days_per_turn,
        nag_days,
        forfeit_days,
        // A Chess960 ladder draws each game's array.
        start_position: crate::service::starts::chosen_position(settings.variant, None)?,
        opening: None,
    })
}

/// The ladder's rules, a line each.
fn details(ctx: &Ctx<'_>, ladder: &StoredLadder) -> Result<String, ServiceError> {
    let s = &ladder.settings;
    let owner = players::by_id(ctx.conn, s.owner)?;
    let time = match (&s.time_control, s.days_per_turn) {
        (Some(control), _) => match control.parse::<pbem_clock::TimeControl>() {
            Ok(parsed) => format!("--time={control} ({})", parsed.describe()),
            Err(_) => format!("--time={control}"),
        },
        (None, Some(days)) => format!("{} per turn", crate::render::count(days, "day")),
        _ => format!(
            "the server's default: a loss on time after {} without a move",
            crate::render::count(ctx.config.default_forfeit_days, "day")
        ),
    };
    Ok(format!(
        "Ladder: {}\nOwner: {}\nVariant: {}, rated\nReach: challenge up to {} above\nOpen games: at most {} per player\nTime: {time}\n",
        s.name,
        owner.userid,
        s.variant.display_name(),
        crate::render::count(s.reach, "place"),
        s.max_open,
    ))
}

fn join(ctx: &mut MailCtx<'_>, name: &str, player: &Player) -> Result<Vec<Outgoing>, Failure> {
    let ladder = named(ctx, name)?;
    let mut order = store::order(ctx.conn, &ladder)?;
    let place = order.join(rung_of(player)).map_err(refused)?;
    store::set_order(ctx.conn, ladder.id, order.players())?;
    let name = &ladder.settings.name;
    let text = format!(
        "{} joined the ladder \"{name}\" in place {place}.\n\n{}\nJoining is consent: a player up to {} below may challenge you, and the game starts at once. Challenge a player up to {} above you with:\n  ladder challenge {name} {} <password> <opponent>\nLeave with:\n  ladder leave {name} {} <password>",
        player.userid,
        details(ctx, &ladder)?,
        crate::render::count(ladder.settings.reach, "place"),
        crate::render::count(ladder.settings.reach, "place"),
        player.userid,
        player.userid
    );
    Ok(vec![answer(ctx, player, &subject(name, "joined"), &text)?])
}

fn leave(ctx: &mut MailCtx<'_>, name: &str, player: &Player) -> Result<Vec<Outgoing>, Failure> {
    let ladder = named(ctx, name)?;
    let mut order = store::order(ctx.conn, &ladder)?;
    let games = order.leave(&rung_of(player)).map_err(refused)?;
    store::set_order(ctx.conn, ladder.id, order.players())?;
    store::detach_games_of(ctx.conn, ladder.id, player.id)?;
    let name = &ladder.settings.name;
    let mut text = format!("{} left the ladder \"{name}\".", player.userid);
    if !games.is_empty() {
        let limits = format!(
            "the ladder's limits (one open game a pair, at most {} a player), also if you join again",
            ladder.settings.max_open
        );
        text.push_str(&if games.len() == 1 {
            format!(
                " Your ladder game still open plays on as an ordinary game: its result no longer changes the ladder, but until it ends it counts against {limits}."
            )
        } else {
            format!(
                " Your {} still open play on as ordinary games: their results no longer change the ladder, but until they end they count against {limits}.",
                crate::render::count(games.len(), "ladder game")
            )
        });
    }
    Ok(vec![answer(ctx, player, &subject(name, "left"), &text)?])
}

fn challenge(
    ctx: &mut MailCtx<'_>,
    name: &str,
    challenger: &Player,
    opponent: &str,
) -> Result<Vec<Outgoing>, Failure> {
    let ladder = named(ctx, name)?;
    let mut order = store::order(ctx.conn, &ladder)?;
    let me = rung_of(challenger);
    // An unknown userid reads as a player not on the ladder.
    let defender = players::by_userid(ctx.conn, opponent)?
        .map(|p| rung_of(&p))
        .unwrap_or(Rung {
            player: PlayerId(-1),
            userid: opponent.to_string(),
        });
    order.check_challenge(&me, &defender).map_err(refused)?;
    limits(ctx, &ladder, &me, &defender)?;
    order.challenge(&me, &defender).map_err(refused)?;
    for rung in [&me, &defender] {
        let games = boards::in_progress(ctx.conn, rung.player)?;
        if games >= BOARDS_IN_PROGRESS {
            return Err(refuse(
                format!(
                    "{} has {} in progress, the most a player may have; a new game can start once one of them has ended",
                    rung.userid,
                    crate::render::count(games, "game")
                ),
                None,
            ));
        }
    }
    let options = options(ctx, &ladder.settings)?;
    let board = boards::insert(
        ctx.conn,
        ladder.settings.variant,
        me.player,
        defender.player,
        options,
        ctx.now,
    )?;
    // The ladder's `--time` is the game's clock (stored as it was written,
    // so it reads back; a control that no longer reads gives the days).
    if let Some(control) = ladder
        .settings
        .time_control
        .as_deref()
        .and_then(|text| text.parse::<pbem_clock::TimeControl>().ok())
    {
        crate::store::clocks::set_control(ctx.conn, board, control, Default::default())?;
    }
    deadlines::set_to_move(ctx.conn, board, me.player)?;
    store::add_game(ctx.conn, ladder.id, board, me.player, defender.player)?;
    let place = |rung: &Rung| order.place(rung).unwrap_or(0);
    ctx.tell(
        board,
        format!(
            // "wins" is a verb here, not a count.
            "A game of the ladder \"{}\": {} (place {}) challenged {} (place {}); if {} wins, {} takes place {}.",
            ladder.settings.name,
            me,
            place(&me),
            defender,
            place(&defender),
            me,
            me,
            place(&defender)
        ),
    );
    Ok(board_mail::board_mails(ctx, board, Occasion::New)?)
}

/// The ladder's limits on open games, counted over every unfinished game
/// of the ladder, also those whose player left it (the ladder's own order
/// forgets them): one game a pair, `--open` a player. Changes nothing.
fn limits(
    ctx: &Ctx<'_>,
    ladder: &StoredLadder,
    me: &Rung,
    defender: &Rung,
) -> Result<(), Failure> {
    let games = store::unfinished_games(ctx.conn, ladder.id)?;
    let of = |player: PlayerId| {
        games
            .iter()
            .filter(|(a, b)| *a == player || *b == player)
            .count() as u32
    };
    let pair = games.iter().any(|&(a, b)| {
        (a, b) == (me.player, defender.player) || (b, a) == (me.player, defender.player)
    });
    let limit = ladder.settings.max_open;
    let error = if pair {
        Some(LadderError::AlreadyPlaying {
            opponent: defender.clone(),
        })
    } else if of(me.player) >= limit {
        Some(LadderError::TooManyOpen { limit })
    } else if of(defender.player) >= limit {
        Some(LadderError::OpponentBusy {
            opponent: defender.clone(),
            limit,
        })
    } else {
        None
    };
    match error {
        Some(error) => Err(refused(error)),
        None => Ok(()),
    }
}

fn show(ctx: &mut MailCtx<'_>, name: &str) -> Result<Vec<Outgoing>, Failure> {
    let ladder = named(ctx, name)?;
    let order = store::order(ctx.conn, &ladder)?;
    let mut block = format!("Order:\n{}", order.text());
    let games = store::open_games(ctx.conn, ladder.id)?;
    if !games.is_empty() {
        block.push_str("\nOpen games:\n");
        for game in &games {
            block.push_str(&format!(
                "  board {}  {} (place {}) challenged {} (place {})\n",
                game.board,
                game.challenger,
                order.place(&game.challenger).unwrap_or(0),
                game.defender,
                order.place(&game.defender).unwrap_or(0),
            ));
        }
    }
    let mail = notice_with_block(
        ctx,
        vec![ctx.sender.to_string()],
        &subject(&ladder.settings.name, "show"),
        &details(ctx, &ladder)?,
        &block,
    )?;
    Ok(vec![mail])
}
