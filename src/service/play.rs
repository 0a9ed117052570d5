//! Board commands: `challenge`, `move`, `queue`, `resign`, `draw`,
//! `accept`, `reject`, `undo`, `decline`, `show`, `history`, `pgn`,
//! `subscribe`, `unsubscribe`, `chat`.

use shakmaty::Color;

use super::board_mail::{self, BoardFacts, Heading, Loaded, Occasion, Reader, load, render_shown};
use super::challenges;
use super::ending::{Ending, end_game};
use super::reading::COMMENT_CHARS;
use super::{Failure, MailCtx, refuse};
use crate::command::{
    Action, BoardAction, Challenge, Chat, ColorChoice, MoveTurn, Queue, Show, Speaker, Subscriber,
    Subscription,
};
use crate::domain::{BoardChoice, BoardNumber, PlayerId};
use crate::mail::outgoing::Outgoing;
use crate::reader::Sight;
use crate::rules::notation::parse_turn;
use crate::rules::{PlayError, Variant};
use crate::schedule;
use crate::store::boards::{self, BoardOptions, OfferKind, StoredTurn};
use crate::store::ladders;
use crate::store::players::{self, Player};
use crate::store::preferences;
use crate::store::{CachedStatements, deadlines, parse_time, time_text, tournaments};

pub(super) fn challenge(
    ctx: &mut MailCtx<'_>,
    command: &Challenge,
    variant: Option<Variant>,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    let challenger = ctx.speaker(&command.speaker, token, None)?;
    let Some(opponent) = players::by_userid(ctx.conn, &command.opponent)? else {
        return Err(refuse(
            format!("there is no player \"{}\" to challenge", command.opponent),
            None,
        ));
    };
    if opponent.id == challenger.id {
        return Err(refuse("you cannot challenge yourself", None));
    }
    let challenger_white = match command.color {
        ColorChoice::White => true,
        ColorChoice::Black => false,
        ColorChoice::Random => {
            let mut byte = [0u8; 1];
            getrandom::fill(&mut byte).ok();
            byte[0] & 1 == 0
        }
    };
    let (white, black) = if challenger_white {
        (challenger.id, opponent.id)
    } else {
        (opponent.id, challenger.id)
    };
    let (nag_days, forfeit_days) = schedule::turn_deadlines(
        command.days_per_turn,
        command.forfeit_days,
        command.nag_days,
        ctx.config.default_forfeit_days,
        |_| ctx.config.default_nag_days,
    )
    .map_err(|problem| refuse(problem, None))?;
    let control = super::clocks::chosen_control(
        command.time,
        command.remind,
        command.days_per_turn.is_some() || command.forfeit_days.is_some(),
        command.nag_days.is_some(),
        forfeit_days,
    )
    .map_err(|problem| refuse(problem, None))?;
    let options = BoardOptions {
        rated: command.rated,
        days_per_turn: command.days_per_turn,
        nag_days,
        forfeit_days,
    };
    let variant = variant.unwrap_or(Variant::Chess);
    // The same challenge written again in one mail makes no second board.
    let colours = (white, black, command.color == ColorChoice::Random);
    if let Some(number) =
        boards::same_challenge(ctx.conn, &ctx.mail.message_id, colours, variant, options)?
    {
        return Ok(board_mail::board_mails(ctx, number, Occasion::New)?);
    }
    challenges::check_bounds(ctx, &challenger, &opponent)?;
    let number = boards::insert(ctx.conn, variant, white, black, options, ctx.now)?;
    if let Some((control, reminders)) = control {
        crate::store::clocks::set_control(ctx.conn, number, control, reminders)?;
    }
    boards::set_challenge(ctx.conn, number, opponent.id, &ctx.mail.message_id)?;
    if command.private {
        crate::store::web::set_private(ctx.conn, number.0)?;
    }
    deadlines::set_to_move(ctx.conn, number, white)?;
    Ok(board_mail::board_mails(ctx, number, Occasion::New)?)
}

/// Loads a board the speaker plays on, refusing finished boards.
pub(super) fn my_active_board(
    ctx: &mut MailCtx<'_>,
    number: BoardNumber,
    player: &Player,
) -> Result<(Loaded, Color), Failure> {
    let loaded = load(ctx, number)?;
    let Some(color) = loaded.board.color_of(player.id) else {
        return Err(refuse(
            format!("{} does not play on board {number}", player.userid),
            Some(number),
        ));
    };
    if let Some(result) = &loaded.board.result {
        return Err(refuse(
            format!("board {number} is finished ({result})"),
            Some(number),
        ));
    }
    Ok((loaded, color))
}

pub(super) fn make_move(
    ctx: &mut MailCtx<'_>,
    command: &MoveTurn,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    let number = BoardNumber(command.board);
    let player = ctx.speaker(&command.speaker, token, Some(number))?;
    let (mut loaded, color) = my_active_board(ctx, number, &player)?;
    let due = loaded.turns.len() as u32 + 1;
    if let Some(guard) = command.guard
        && guard != due
    {
        return Err(refuse(
            format!(
                "this mail is for turn #{guard}, but turn #{due} is being played; nothing was changed"
            ),
            Some(number),
        ));
    }
    if loaded.game.state().turn() != color {
        return Err(refuse(
            format!("it is not your turn on board {number}; your opponent is to move"),
            Some(number),
        ));
    }
    // The challenged player's first turn accepts the challenge.
    challenges::accept_if_waiting(ctx, &loaded.board, &player)?;
    play_turn(ctx, &mut loaded, player.id, &command.turn)?;
    // A turn answers the opponent's standing offers by ignoring them.
    for (kind, what) in [
        (OfferKind::Draw, "draw offer"),
        (OfferKind::Undo, "request to take back the last turn"),
    ] {
        if boards::offer(ctx.conn, number, kind)?.is_some_and(|offer| offer.by != player.id) {
            ctx.tell(
                number,
                format!("{} played on: the {what} lapsed.", player.userid),
            );
        }
        boards::clear_offer(ctx.conn, number, kind)?;
    }
    play_queued(ctx, &mut loaded)?;
    ctx.keep_after_turn(loaded);
    Ok(board_mail::board_mails(ctx, number, Occasion::Update)?)
}

/// Judges and stores one turn; records the result if the game ended.
pub(super) fn play_turn(
    ctx: &MailCtx<'_>,
    loaded: &mut Loaded,
    player: PlayerId,
    written: &str,
) -> Result<(), Failure> {
    let number = loaded.board.number;
    let moves = parse_turn(written).map_err(|e| refuse(e.to_string(), Some(number)))?;
    let (text, notes) = match loaded.game.play(&moves) {
        Ok(played) => (played.text(), played.notes.clone()),
        Err(PlayError::Illegal(error)) => return Err(refuse(error.to_string(), Some(number))),
        Err(PlayError::GameOver(end)) => {
            return Err(refuse(
                format!("the game is over ({})", end.score()),
                Some(number),
            ));
        }
    };
    let seq = loaded.turns.len() as u32 + 1;
    boards::append_turn(
        ctx.conn,
        number,
        seq,
        &text,
        player,
        Some(&ctx.mail.message_id),
        ctx.now,
    )?;
    // How pbem read a move the text left open (plain move or en passant).
    for note in &notes {
        boards::add_comment(ctx.conn, number, None, seq, note, ctx.now)?;
    }
    // The turn as stored, without reading the board's turns again.
    loaded.turns.push(StoredTurn {
        seq,
        text,
        player,
        played_at: parse_time(&time_text(ctx.now))?,
    });
    deadlines::set_to_move(
        ctx.conn,
        number,
        loaded.board.player(loaded.game.state().turn()),
    )?;
    if let Some(end) = loaded.game.end() {
        end_game(
            ctx,
            number,
            Ending::Played {
                score: end.score(),
                reason: end.reason.describe(),
            },
        )?;
        loaded.board.result = Some(end.score().to_string());
    }
    Ok(())
}

/// Plays the queued turn of the player now to move, if there is one and
/// it is legal; a queued turn that is not is dropped with a comment.
pub(super) fn play_queued(ctx: &MailCtx<'_>, loaded: &mut Loaded) -> Result<(), Failure> {
    if loaded.board.result.is_some() {
        return Ok(());
    }
    let number = loaded.board.number;
    let next = loaded.board.player(loaded.game.state().turn());
    let Some(queued) = boards::queued_turn(ctx.conn, number, next)? else {
        return Ok(());
    };
    boards::clear_queued_turn(ctx.conn, number, next)?;
    let seq = loaded.turns.len() as u32;
    ctx.conn.execute_cached("SAVEPOINT queued", [])?;
    match play_turn(ctx, loaded, next, &queued) {
        Ok(()) => {
            ctx.conn.execute_cached("RELEASE queued", [])?;
            let note = format!("The queued turn {queued} was played.");
            boards::add_comment(ctx.conn, number, None, seq + 1, &note, ctx.now)?;
        }
        Err(Failure::Refused(refusal)) => {
            ctx.conn
                .execute_batch("ROLLBACK TO queued; RELEASE queued")?;
            *loaded = load(ctx, number)?;
            let note = format!(
                "The queued turn {queued} was not played: {}",
                refusal.message
            );
            boards::add_comment(ctx.conn, number, None, seq, &note, ctx.now)?;
        }
        Err(fatal) => return Err(fatal),
    }
    Ok(())
}

pub(super) fn queue(
    ctx: &mut MailCtx<'_>,
    command: &Queue,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    let number = BoardNumber(command.board);
    let player = ctx.speaker(&command.speaker, token, Some(number))?;
    let (loaded, color) = my_active_board(ctx, number, &player)?;
    if loaded.game.state().turn() == color {
        return Err(refuse(
            format!(
                "it is your turn on board {number}: send the turn with move instead of queueing it"
            ),
            Some(number),
        ));
    }
    parse_turn(&command.turn).map_err(|e| refuse(e.to_string(), Some(number)))?;
    // A turn queued by the challenged player accepts the challenge too.
    challenges::accept_if_waiting(ctx, &loaded.board, &player)?;
    boards::set_queued_turn(ctx.conn, number, player.id, &command.turn, ctx.now)?;
    let mut text = format!(
        "Queued on board {number}: {} will be played after your opponent's next turn, if it is legal then.",
        command.turn
    );
    // A queued turn answers whatever is played: it replaces conditional moves.
    if crate::store::conditional::clear(ctx.conn, number, player.id)? {
        text.push_str(" Your conditional moves on this board were dropped: the queued turn takes their place.");
    }
    let subject = format!(
        "{} Board {number} queued",
        loaded.board.variant.display_name()
    );
    Ok(vec![ctx.notice_to_sender(&subject, &text)?])
}

pub(super) fn action(
    ctx: &mut MailCtx<'_>,
    command: &BoardAction,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    // A bare action in a token reply names no board: the token's board.
    let number = if command.board == 0 {
        token.map_or(BoardNumber(0), |(board, _)| board)
    } else {
        BoardNumber(command.board)
    };
    // `accept` or `decline` in a reply to the challenge's board mail
    // answers the challenge even when the challenger has played since:
    // neither depends on the position.
    let answers_challenge = matches!(command.action, Action::Accept | Action::Decline)
        && command.speaker == Speaker::Token
        && match (boards::get(ctx.conn, number)?, token) {
            (Some(board), Some((_, by))) => challenges::waiting_for(ctx, &board)? == Some(by),
            _ => false,
        };
    let player = if answers_challenge {
        let stale = ctx.stale.take();
        let player = ctx.speaker(&command.speaker, token, Some(number));
        ctx.stale = stale;
        player?
    } else {
        ctx.speaker(&command.speaker, token, Some(number))?
    };
    let (mut loaded, color) = my_active_board(ctx, number, &player)?;
    // The challenged player's `accept` accepts the challenge (not an offer
    // the challenger made meanwhile); any other action but `decline`
    // accepts it too, as a turn does, and then acts.
    match command.action {
        Action::Decline => {}
        Action::Accept => {
            if challenges::accept_if_waiting(ctx, &loaded.board, &player)? {
                drop(loaded);
                return Ok(board_mail::board_mails(ctx, number, Occasion::Update)?);
            }
        }
        Action::Resign | Action::Draw | Action::Reject | Action::Undo => {
            challenges::accept_if_waiting(ctx, &loaded.board, &player)?;
        }
    }
    let opponent = loaded.board.player(!color);
    let offer_by_opponent = |kind| -> Result<bool, Failure> {
        Ok(boards::offer(ctx.conn, number, kind)?.is_some_and(|offer| offer.by == opponent))
    };
    match command.action {
        Action::Resign => {
            let score = if color == Color::White { "0-1" } else { "1-0" };
            end_game(
                ctx,
                number,
                Ending::Played {
                    score,
                    reason: &format!("{} resigned", player.userid),
                },
            )?;
        }
        Action::Draw => {
            if offer_by_opponent(OfferKind::Draw)? {
                end_game(ctx, number, DRAW_BY_AGREEMENT)?;
            } else if let (true, Some(claim)) = (
                loaded.game.state().turn() == color,
                loaded.game.draw_claim(),
            ) {
                let reason = match claim {
                    crate::rules::game::DrawClaim::ThreefoldRepetition => {
                        "draw claimed: threefold repetition"
                    }
                    crate::rules::game::DrawClaim::FiftyTurnRule => "draw claimed: 50-move rule",
                };
                end_game(
                    ctx,
                    number,
                    Ending::Played {
                        score: "1/2-1/2",
                        reason,
                    },
                )?;
            } else {
                drop_conditional_lines(ctx, number, "a draw was offered")?;
                boards::set_offer(
                    ctx.conn,
                    number,
                    OfferKind::Draw,
                    player.id,
                    loaded.turns.len() as u32,
                    ctx.now,
                )?;
            }
        }
        Action::Undo => {
            if loaded.turns.is_empty() {
                return Err(refuse(
                    format!("board {number} has no turn to take back"),
                    Some(number),
                ));
            }
            boards::set_offer(
                ctx.conn,
                number,
                OfferKind::Undo,
                player.id,
                loaded.turns.len() as u32,
                ctx.now,
            )?;
        }
        Action::Accept | Action::Reject => {
            let kind = if offer_by_opponent(OfferKind::Draw)? {
                OfferKind::Draw
            } else if offer_by_opponent(OfferKind::Undo)? {
                OfferKind::Undo
            } else {
                return Err(refuse(
                    format!("your opponent has no standing offer on board {number}"),
                    Some(number),
                ));
            };
            boards::clear_offer(ctx.conn, number, kind)?;
            let what = match kind {
                OfferKind::Draw => "draw offer",
                OfferKind::Undo => "request to take back the last turn",
            };
            let verb = if command.action == Action::Accept {
                "accepted"
            } else {
                "rejected"
            };
            let by = players::by_id(ctx.conn, opponent)?.userid;
            ctx.tell(
                number,
                format!("{} {verb} the {what} of {by}.", player.userid),
            );
            if command.action == Action::Accept {
                match kind {
                    OfferKind::Draw => end_game(ctx, number, DRAW_BY_AGREEMENT)?,
                    OfferKind::Undo => {
                        boards::remove_last_turn(ctx.conn, number, ctx.now)?;
                        loaded = load(ctx, number)?;
                        let to_move = loaded.board.player(loaded.game.state().turn());
                        deadlines::set_to_move(ctx.conn, number, to_move)?;
                    }
                }
            }
        }
        Action::Decline => {
            if let Some((event, _)) = tournaments::game_of_board(ctx.conn, number)? {
                let event = tournaments::by_id(ctx.conn, event)?;
                return Err(refuse(
                    format!(
                        "board {number} is a game of the event \"{}\" and cannot be declined; resign it, or ask the director",
                        event.settings.name
                    ),
                    Some(number),
                ));
            }
            if let Some(ladder) = ladders::ladder_name_of_board(ctx.conn, number)? {
                return Err(refuse(
                    format!(
                        "board {number} is a game of the ladder \"{ladder}\" and cannot be declined: joining the ladder was consent; resign it instead"
                    ),
                    Some(number),
                ));
            }
            if loaded.turns.iter().any(|turn| turn.player == player.id) {
                return Err(refuse(
                    format!("you already moved on board {number}; resign instead of declining"),
                    Some(number),
                ));
            }
            end_game(
                ctx,
                number,
                Ending::Declined {
                    reason: &format!("declined by {}", player.userid),
                },
            )?;
        }
    }
    drop(loaded);
    Ok(board_mail::board_mails(ctx, number, Occasion::Update)?)
}

/// Loads a board for `show`, `history`, `pgn` or `subscribe` as the
/// reader policy (`crate::reader`) lets the sender read it: a `--private`
/// game or a challenge nobody accepted only for its two players (to anyone
/// else it is no board at all), a running game of an event with a
/// `--public-delay` as many turns behind for all but its players and a
/// director who does not play.
fn load_to_read(ctx: &mut MailCtx<'_>, number: BoardNumber) -> Result<(Loaded, Sight), Failure> {
    let Some(sight) = crate::reader::board(ctx.conn, number, ctx.who()?)? else {
        return Err(refuse(format!("there is no board {number}"), None));
    };
    let mut loaded = load(ctx, number)?;
    let shown = sight.turns_shown(loaded.turns.len());
    if shown < loaded.turns.len() {
        loaded.game = board_mail::replay(&loaded.board, &loaded.turns, shown)?;
        loaded.turns.truncate(shown);
    }
    Ok((loaded, sight))
}

pub(super) fn show(ctx: &mut MailCtx<'_>, command: &Show) -> Result<Vec<Outgoing>, Failure> {
    let number = BoardNumber(command.board);
    let (mut loaded, sight) = load_to_read(ctx, number)?;
    if let Some(turn) = command.turn {
        // `#k` is the position when turn #k was to be played, as board
        // mails number turns.
        let due = loaded.turns.len() + 1;
        if turn == 0 || turn as usize > due {
            return Err(refuse(
                format!(
                    "board {number} is at turn #{due}; show {number}#k shows the position at turn #k, for k from 1 to {due}"
                ),
                Some(number),
            ));
        }
        let count = turn as usize - 1;
        loaded.game = board_mail::replay(&loaded.board, &loaded.turns, count)?;
        loaded.turns.truncate(count);
    }
    let reader = players::by_address(ctx.conn, ctx.sender)?
        .filter(|p| loaded.board.color_of(p.id).is_some());
    // `show ... compact` asks for the compact board; otherwise a player
    // gets the board style they chose, anyone else the picture too.
    let choice = match &reader {
        _ if command.compact => BoardChoice::Compact,
        Some(player) => preferences::get(ctx.conn, player.id)?.board,
        None => BoardChoice::Html,
    };
    // Chat and comments only for the players and the subscribers.
    let facts = BoardFacts::gather_as(ctx, &loaded, &sight)?;
    let shown = render_shown(
        ctx,
        &loaded,
        &facts,
        reader.as_ref().map_or(Reader::Observer, Reader::Player),
        choice,
        &Heading::Plain,
    )?;
    Ok(vec![Outgoing {
        to: vec![ctx.sender.to_string()],
        subject: shown.subject,
        body: shown.body,
        reply_to: None,
        in_reply_to: Some(ctx.mail.message_id.clone()),
        references: vec![ctx.mail.message_id.clone()],
        html: shown.html,
        ..Outgoing::default()
    }])
}

pub(super) fn history(
    ctx: &mut MailCtx<'_>,
    number: BoardNumber,
) -> Result<Vec<Outgoing>, Failure> {
    let (loaded, _) = load_to_read(ctx, number)?;
    let mut lines = Vec::new();
    for (turn, stored) in loaded.game.turns().iter().zip(&loaded.turns) {
        lines.push(format!(
            "{:<16} {}",
            turn.numbered(),
            crate::render::readable_time(stored.played_at)
        ));
    }
    if lines.is_empty() {
        lines.push("No turns yet.".to_string());
    }
    let subject = format!(
        "{} Board {number} history",
        loaded.board.variant.display_name()
    );
    Ok(vec![ctx.notice_to_sender(&subject, &lines.join("\n"))?])
}

pub(super) fn pgn(ctx: &mut MailCtx<'_>, number: BoardNumber) -> Result<Vec<Outgoing>, Failure> {
    let (loaded, _) = load_to_read(ctx, number)?;
    let white = players::by_id(ctx.conn, loaded.board.white)?.userid;
    let black = players::by_id(ctx.conn, loaded.board.black)?.userid;
    let pgn = board_mail::pgn_text(ctx, &loaded, white, black, None);
    let subject = format!("{} Board {number} pgn", loaded.board.variant.display_name());
    Ok(vec![ctx.notice_to_sender(&subject, &pgn)?])
}

/// `subscribe`/`unsubscribe`: by password, the player's registered (so
/// confirmed) address follows the board or stops; an address written out
/// may only unsubscribe itself.
pub(super) fn subscription(
    ctx: &mut MailCtx<'_>,
    command: &Subscription,
) -> Result<Vec<Outgoing>, Failure> {
    let number = BoardNumber(command.board);
    let loaded = match command.subscribe {
        true => load_to_read(ctx, number)?.0,
        false => load(ctx, number)?,
    };
    let addresses = match &command.subscriber {
        Subscriber::Player(speaker) => {
            let player = ctx.speaker(speaker, None, Some(number))?;
            if command.subscribe {
                vec![player.mail_address().to_string()]
            } else {
                player.addresses.clone()
            }
        }
        Subscriber::Address(address) => {
            if !address.eq_ignore_ascii_case(ctx.sender) {
                return Err(refuse(
                    format!(
                        "an address can only unsubscribe itself: write from {address}, or give your userid and password"
                    ),
                    Some(number),
                ));
            }
            vec![address.clone()]
        }
    };
    let variant = loaded.board.variant.display_name();
    let (subject, text) = if command.subscribe {
        let Some(address) = addresses.first().filter(|a| !a.is_empty()) else {
            return Err(refuse(
                "you have no confirmed address yet to send the board's mails to",
                Some(number),
            ));
        };
        boards::add_observer(ctx.conn, number, address)?;
        (
            format!("{variant} Board {number} subscribed"),
            format!("{address} now receives every mail of board {number}."),
        )
    } else {
        let mut removed = false;
        for address in &addresses {
            removed |= boards::remove_observer(ctx.conn, number, address)?;
        }
        if !removed {
            return Err(refuse(
                format!("{} does not follow board {number}", addresses.join(", ")),
                Some(number),
            ));
        }
        (
            format!("{variant} Board {number} unsubscribed"),
            format!(
                "{} no longer receives the mails of board {number}.",
                addresses.join(", ")
            ),
        )
    };
    Ok(vec![ctx.notice_to_sender(&subject, &text)?])
}

/// The longest chat message (one line of a mail).
pub const MAX_CHAT_CHARS: usize = 1_000;

pub(super) fn chat(
    ctx: &mut MailCtx<'_>,
    command: &Chat,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    let number = BoardNumber(command.board);
    if command.text.chars().count() > MAX_CHAT_CHARS {
        return Err(refuse(
            format!("a chat message may have up to {MAX_CHAT_CHARS} characters"),
            Some(number),
        ));
    }
    let player = ctx.speaker(&command.speaker, token, Some(number))?;
    let loaded = load(ctx, number)?;
    if loaded.board.color_of(player.id).is_none() {
        return Err(refuse(
            format!("{} does not play on board {number}", player.userid),
            Some(number),
        ));
    }
    // A challenge is no way to write to a stranger.
    if let Some(challenge) = boards::unaccepted(ctx.conn, number)?
        && challenge.challenged != player.id
    {
        let challenged = players::by_id(ctx.conn, challenge.challenged)?.userid;
        return Err(refuse(
            format!(
                "{challenged} has not accepted the challenge of board {number}; chat reaches {challenged} once {challenged} has accepted it"
            ),
            Some(number),
        ));
    }
    // Chat is a comment under the board: the other player and the
    // observers read it in the board mail it brings.
    let text: String = command.text.chars().take(COMMENT_CHARS).collect();
    boards::add_comment(
        ctx.conn,
        number,
        Some(player.id),
        loaded.turns.len() as u32,
        &text,
        ctx.now,
    )?;
    Ok(board_mail::board_mails(ctx, number, Occasion::Comment)?)
}

/// Drops every conditional line on board `number` (issue 26), telling
/// each owner alone.
fn drop_conditional_lines(
    ctx: &MailCtx<'_>,
    number: BoardNumber,
    why: &str,
) -> Result<(), Failure> {
    for row in crate::store::conditional::of_board(ctx.conn, number)? {
        crate::store::conditional::clear(ctx.conn, number, row.player)?;
        ctx.tell_player(
            number,
            row.player,
            format!("Your conditional moves on board {number} were dropped: {why}."),
        );
    }
    Ok(())
}

/// The end of a game drawn by accepting an offer.
const DRAW_BY_AGREEMENT: Ending<'static> = Ending::Played {
    score: "1/2-1/2",
    reason: "draw by agreement",
};
