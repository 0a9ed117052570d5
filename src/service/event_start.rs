//! Starting an event's games: [`start_games`] is the one way every event
//! start and every new round of any format (the round robin's whole
//! event, each Swiss round) starts its games and tells the entrants.
//!
//! A 30-player double round robin starts 870 games. One board mail to each
//! player of each game came to 1,740 mails; instead each entrant gets one
//! mail listing all their new boards (board number, round, colour,
//! opponent, who moves first, and how to play each: the `move` line, and
//! that a reply to a board mail plays without a password), made from the
//! template `start.txt`. Board mails then go only where the entrant is to
//! move ([`Occasion::Started`]), and not at all to an entrant who chose
//! the daily digest, which lists those boards instead. The mails go with
//! the rest of the mail's answers (or the sweep's), in the same
//! transaction, and are charged as every answer is (`charge`).

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use serde::Serialize;

use super::board_mail::Occasion;
use super::{Ctx, ServiceError};
use crate::domain::{BoardNumber, MailChoice, PlayerId};
use crate::mail::outgoing::Outgoing;
use crate::mail::token::NOT_A_BOARD;
use crate::store::boards::{self, BoardOptions};
use crate::store::players::{self, Player};
use crate::store::tournaments::{self as store, Event};
use crate::store::{deadlines, preferences};

/// A game to start: its round and its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct NewGame {
    pub(super) round: u32,
    pub(super) white: PlayerId,
    pub(super) black: PlayerId,
}

/// A game started: its board, and its line for the director's pairing
/// notice (`  Round  1  board 101  ann - bob`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct StartedGame {
    pub(super) game: NewGame,
    pub(super) board: BoardNumber,
    pub(super) line: String,
}

/// One board in an entrant's start list, as the template reads it.
#[derive(Serialize)]
struct ListedBoard {
    number: u32,
    /// What the list calls the game's place in the event: `round 3`, or
    /// a cup's stage (`quarter-finals playoff`).
    stage: String,
    colour: &'static str,
    opponent: String,
    your_move: bool,
}

/// What the template `start.txt` reads.
#[derive(Serialize)]
struct StartList<'a> {
    event: &'a str,
    heading: &'a str,
    userid: &'a str,
    boards: Vec<ListedBoard>,
    /// Whether the entrant chose the daily digest.
    digest: bool,
    /// The board mails that follow the list.
    board_mails: usize,
    /// pbem's own address, for the `move` lines.
    address: String,
    /// Where the games start, for a Chess960 event.
    start: Option<String>,
    /// The opening every game starts after, for a thematic event:
    /// `B90 Sicilian Defense: Najdorf Variation (1.e4 c5 ...)`.
    opening: Option<String>,
}

/// Starts `games` of `event` (their boards with the event's deadlines and
/// rating, their clocks, their places in the event) and tells the
/// entrants: one mail each listing their new boards, headed by `heading`
/// (`"spring" has started ...`, `Round 3 of "swiss9" is paired.`), then
/// the board mails of the boards where they are to move. Returns the games
/// with their boards, in the order given.
pub(super) fn start_games(
    ctx: &Ctx<'_>,
    event: &Event,
    games: &[NewGame],
    heading: &str,
) -> Result<Vec<StartedGame>, ServiceError> {
    start_games_as(ctx, event, games, heading, None)
}

/// [`start_games`] where the entrants' lists name the games' place in the
/// event by `stage` (a cup's `quarter-finals playoff`) instead of their
/// round.
pub(super) fn start_games_as(
    ctx: &Ctx<'_>,
    event: &Event,
    games: &[NewGame],
    heading: &str,
    stage: Option<&str>,
) -> Result<Vec<StartedGame>, ServiceError> {
    // A Chess960 event without `--position` draws its array once, at the
    // first games it starts; every later round reads it back.
    let mut drawn;
    let event = if event.settings.variant == crate::rules::Variant::Chess960
        && event.settings.start_position.is_none()
    {
        let position = super::starts::random_position();
        store::set_start_position(ctx.conn, event.id, position)?;
        drawn = event.clone();
        drawn.settings.start_position = Some(position);
        &drawn
    } else {
        event
    };
    let mut known: BTreeMap<PlayerId, Player> = BTreeMap::new();
    let mut started = Vec::with_capacity(games.len());
    for game in games {
        let board = start_board(ctx, event, game)?;
        for id in [game.white, game.black] {
            if let Entry::Vacant(entry) = known.entry(id) {
                entry.insert(players::by_id(ctx.conn, id)?);
            }
        }
        let userid = |id: PlayerId| known.get(&id).map_or("", |p| p.userid.as_str());
        let line = format!(
            "  Round {:>2}  board {board}  {} - {}",
            game.round,
            userid(game.white),
            userid(game.black)
        );
        started.push(StartedGame {
            game: *game,
            board,
            line,
        });
    }
    for (id, player) in &known {
        start_list(ctx, event, player, &started, &known, heading, stage)?;
        for game in started.iter().filter(|s| s.game.white == *id) {
            // One board mail per new board (sent once, with its White's
            // list; it goes to whoever moves first, `start_board`).
            ctx.send_later(super::board_mail::board_mails(
                ctx,
                game.board,
                Occasion::Started,
            )?);
        }
    }
    Ok(started)
}

/// Whether White moves first in the event's games: always, but after a
/// thematic opening that ends with White's move.
fn white_first(event: &Event) -> bool {
    event
        .settings
        .opening
        .as_ref()
        .and_then(crate::openings::Opening::game)
        .is_none_or(|game| game.state().turn() == shakmaty::Color::White)
}

/// The board of one new game, White to move (or, after a thematic
/// opening, the side to move), and its place in the event.
fn start_board(ctx: &Ctx<'_>, event: &Event, game: &NewGame) -> Result<BoardNumber, ServiceError> {
    let options = BoardOptions {
        rated: event.settings.rated,
        days_per_turn: event.settings.days_per_turn,
        nag_days: event.settings.nag_days,
        forfeit_days: event.settings.forfeit_days,
        start_position: event.settings.start_position,
        opening: event.settings.opening.clone(),
    };
    let board = boards::insert(
        ctx.conn,
        event.settings.variant,
        game.white,
        game.black,
        options,
        ctx.now,
    )?;
    let first = if white_first(event) {
        game.white
    } else {
        game.black
    };
    deadlines::set_to_move(ctx.conn, board, first)?;
    store::add_game(
        ctx.conn,
        event.id,
        &store::Game {
            round: game.round,
            white: game.white,
            black: game.black,
            board,
            result: None,
            forfeit: false,
        },
    )?;
    Ok(board)
}

/// The mail listing `player`'s boards among `started`, to the player's own
/// address with the player's reply token.
fn start_list(
    ctx: &Ctx<'_>,
    event: &Event,
    player: &Player,
    started: &[StartedGame],
    known: &BTreeMap<PlayerId, Player>,
    heading: &str,
    stage: Option<&str>,
) -> Result<(), ServiceError> {
    let userid = |id: PlayerId| known.get(&id).map_or("", |p| p.userid.as_str());
    let boards: Vec<ListedBoard> = started
        .iter()
        .filter(|s| s.game.white == player.id || s.game.black == player.id)
        .map(|s| {
            let white = s.game.white == player.id;
            ListedBoard {
                number: s.board.0,
                stage: stage.map_or_else(|| format!("round {}", s.game.round), str::to_string),
                colour: if white { "White" } else { "Black" },
                opponent: userid(if white { s.game.black } else { s.game.white }).to_string(),
                your_move: white == white_first(event),
            }
        })
        .collect();
    let digest = preferences::get(ctx.conn, player.id)?.mail == MailChoice::Digest;
    let board_mails = if digest {
        0
    } else {
        boards.iter().filter(|b| b.your_move).count()
    };
    let rendered = ctx.templates.render(
        "start.txt",
        StartList {
            event: &event.settings.name,
            heading,
            userid: &player.userid,
            boards,
            digest,
            board_mails,
            address: ctx.config.address.to_string(),
            start: crate::service::starts::start_line(
                event.settings.variant,
                event.settings.start_position,
            ),
            opening: event
                .settings
                .opening
                .as_ref()
                .map(|opening| format!("{} ({})", opening.label(), opening.numbered())),
        },
    )?;
    // It answers the mail being answered only when that came from the
    // player (the director who plays in the event).
    let answered = ctx
        .answering
        .filter(|answering| player.owns_address(answering.sender))
        .map(|answering| answering.message_id.to_string());
    let mut mail = Outgoing {
        to: vec![player.mail_address().to_string()],
        subject: rendered.subject,
        body: rendered.body,
        references: answered.iter().cloned().collect(),
        in_reply_to: answered,
        ..Outgoing::default()
    };
    with_token(ctx, &mut mail, player);
    ctx.send_later([mail]);
    Ok(())
}

/// Gives a mail to `player`'s own address the player's reply token.
pub(super) fn with_token(ctx: &Ctx<'_>, mail: &mut Outgoing, player: &Player) {
    let own = !mail.to.is_empty()
        && mail
            .to
            .iter()
            .all(|to| !to.is_empty() && player.owns_address(to));
    if own {
        let token = ctx.key.token(NOT_A_BOARD, player.id);
        mail.reply_to = Some(ctx.config.address.with_token(&token));
    }
}
