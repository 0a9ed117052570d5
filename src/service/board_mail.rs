//! Board mails and error mails: loading a board's game from its stored
//! turns, and rendering what each recipient reads (the board from their
//! side, the move list, the legal-move summary, comments, what happened
//! and what is due), as text and, by the reader's preference, with an
//! HTML part holding the board picture; a finished game's mail carries its
//! PGN. Players who chose the digest get no board mail per turn.

use std::cell::RefCell;

use serde::Serialize;
use shakmaty::{Color, Position, Square};

use super::{Ctx, Failure, MailCtx, Refusal, ServiceError, refuse, threading};
use crate::command::blank::Blanking;
use crate::domain::{BoardChoice, Clock, MailChoice, PlayerId};
use crate::mail::outgoing::{self, Html, Inline, Outgoing};
use crate::render::board::{BoardStyle, draw};
use crate::render::pgn::{self, PgnHeader};
use crate::render::picture::{self, Scene};
use crate::render::summary::{example_turn, legal_summary, turn_due};
use crate::rules::Game;
use crate::rules::game::DrawClaim;
use crate::rules::notation::parse_turn;
use crate::schedule;
use crate::store::boards::{self, Board, OfferKind, StoredTurn};
use crate::store::deadlines as clocks;
use crate::store::players::{self, Player};
use crate::store::preferences;
use crate::store::tournaments;

/// Why a board mail goes out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Occasion {
    /// A new board (`New ...` subject).
    New,
    /// A turn, an offer, a result: to both players and observers.
    Update,
    /// A comment without a move: to everyone but its author.
    Comment,
    /// A reminder to the player to move (`Nag: ...` subject), with its text.
    Nag(String),
}

/// Which occasion wins when a mail touches a board several times.
pub(super) fn rank(occasion: &Occasion) -> u8 {
    match occasion {
        Occasion::Comment => 0,
        Occasion::Nag(_) => 1,
        Occasion::Update => 2,
        Occasion::New => 3,
    }
}

/// How a board mail's subject begins, and any reminder it carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heading {
    Plain,
    New,
    Nag(String),
}

/// A board with its game replayed.
pub struct Loaded {
    pub board: Board,
    pub game: Game,
    pub turns: Vec<StoredTurn>,
}

/// Loads board `number`, refusing politely when it does not exist.
pub fn load(ctx: &Ctx<'_>, number: u32) -> Result<Loaded, Failure> {
    let board = get(ctx, number)?;
    let turns = boards::turns(ctx.conn, number)?;
    let game = replay(&board, &turns, turns.len())?;
    Ok(Loaded { board, game, turns })
}

fn get(ctx: &Ctx<'_>, number: u32) -> Result<Board, Failure> {
    boards::get(ctx.conn, number)?
        .ok_or_else(|| refuse(format!("there is no board {number}"), None))
}

/// Loads board `number` for its board mails: its turns and game as the
/// turn just played left them, if that turn was on this board (see
/// `Later::after_turn`), with its row read again.
fn load_for_mails(ctx: &Ctx<'_>, number: u32) -> Result<Loaded, Failure> {
    match ctx.take_after_turn(number) {
        Some(Loaded { game, turns, .. }) => Ok(Loaded {
            board: get(ctx, number)?,
            game,
            turns,
        }),
        None => load(ctx, number),
    }
}

/// The game of a board after its first `count` turns.
pub fn replay(board: &Board, turns: &[StoredTurn], count: usize) -> Result<Game, ServiceError> {
    let mut game = Game::new(board.variant);
    for turn in turns.iter().take(count) {
        let corrupt = |reason: String| ServiceError::CorruptGame {
            board: board.number,
            reason,
        };
        let moves =
            parse_turn(&turn.text).map_err(|e| corrupt(format!("turn {}: {e}", turn.seq)))?;
        game.play(&moves)
            .map_err(|e| corrupt(format!("turn {}: {e}", turn.seq)))?;
    }
    Ok(game)
}

#[derive(Serialize)]
struct CommentView {
    author: String,
    text: String,
}

/// What a board mail says alike to every reader.
#[derive(Serialize)]
struct SharedView {
    variant: &'static str,
    board: u32,
    headline: String,
    has_comments: bool,
    status: Vec<String>,
    white: String,
    black: String,
    to_move: Option<String>,
    turn_due: String,
    turn_seq: usize,
    moves: String,
    summary: String,
    comments: Vec<CommentView>,
    nag_days: u32,
    forfeit_days: u32,
    example: String,
    /// `bob played Nf6,d5`.
    last_turn: Option<String>,
    /// When the player to move is reminded, and loses on time.
    reminder_at: Option<String>,
    forfeit_at: Option<String>,
    /// `alice is on vacation until 2026-12-01 12:00 UTC.`
    away: Vec<String>,
}

/// What is one reader's own in a board mail; its templates see it over
/// the shared part ([`BoardFacts::shared`]).
#[derive(Serialize)]
struct BoardView {
    new: bool,
    nag: Option<String>,
    board_art: String,
    your_turn: bool,
    recipient: String,
    /// The picture of the HTML part.
    picture: Option<PictureView>,
}

#[derive(Serialize)]
struct PictureView {
    cid: String,
    size: u32,
    alt: String,
}

/// Who reads a board mail.
#[derive(Clone, Copy)]
pub enum Reader<'p> {
    Player(&'p Player),
    Observer,
}

/// What every reader of a board mail reads alike (players, status,
/// comments, move list, the legal-move summary): gathered once per board
/// however many read it, since the summary enumerates every legal turn.
pub struct BoardFacts {
    pub white: Player,
    pub black: Player,
    view: SharedView,
    /// `view` as the templates read it, converted once for all the board's
    /// mails (each reader's text and HTML).
    shared: minijinja::Value,
    /// What the board picture shows (from White's side), worked out once.
    scene: RefCell<Option<Scene>>,
}

impl BoardFacts {
    /// Gathers the facts of a loaded board.
    pub fn gather(ctx: &Ctx<'_>, loaded: &Loaded) -> Result<BoardFacts, ServiceError> {
        let Loaded { board, game, turns } = loaded;
        let white = players::by_id(ctx.conn, board.white)?;
        let black = players::by_id(ctx.conn, board.black)?;
        let state = game.state();
        let finished = board.result.is_some();
        let to_move = (!finished).then(|| match state.turn() {
            Color::White => white.userid.clone(),
            Color::Black => black.userid.clone(),
        });

        let mut status = Vec::new();
        if let Some(result) = &board.result {
            let reason = board.end_reason.as_deref().unwrap_or("");
            status.push(match result.as_str() {
                "-" => format!("The game was called off ({reason})."),
                score => format!("Result: {score} ({reason})."),
            });
        }
        for kind in [OfferKind::Draw, OfferKind::Undo] {
            if let Some(offer) = boards::offer(ctx.conn, board.number, kind)? {
                let by = if offer.by == white.id {
                    &white.userid
                } else {
                    &black.userid
                };
                status.push(match kind {
                    OfferKind::Draw => format!(
                        "{by} offers a draw: send draw or accept to agree, reject to refuse."
                    ),
                    OfferKind::Undo => {
                        format!("{by} asks to take back the last turn: send accept or reject.")
                    }
                });
            }
        }
        if !finished && let Some(claim) = game.draw_claim() {
            let why = match claim {
                DrawClaim::ThreefoldRepetition => "threefold repetition",
                DrawClaim::FiftyTurnRule => "50 turns each without capture or pawn move",
            };
            status.push(format!(
                "A draw may be claimed ({why}): the player to move may send draw."
            ));
        }

        status.extend(ctx.news_of(board.number));
        let since = turns.len().saturating_sub(1) as u32;
        let mut comments = Vec::new();
        // A board shown as it was (`show 101#5`) shows no later comments.
        let until = turns.len() as u32;
        // Nothing the challenger writes reaches a challenged player who
        // has not accepted.
        let unaccepted = boards::unaccepted(ctx.conn, board.number)?;
        let challenger = unaccepted.map(|u| {
            if u.challenged == board.white {
                board.black
            } else {
                board.white
            }
        });
        for comment in boards::comments_since(ctx.conn, board.number, since)?
            .into_iter()
            .filter(|comment| comment.after_seq <= until)
            .filter(|comment| challenger.is_none() || comment.author != challenger)
        {
            let author = match comment.author {
                Some(id) if id == white.id => white.userid.clone(),
                Some(id) if id == black.id => black.userid.clone(),
                _ => "pbem".to_string(),
            };
            comments.push(CommentView {
                author,
                text: comment.text,
            });
        }

        let last_turn = game.turns().last().map(|played| {
            let who = match played.mover {
                Color::White => &white.userid,
                Color::Black => &black.userid,
            };
            format!("{who} played {}", played.text())
        });
        let (mut reminder_at, mut forfeit_at) = (None, None);
        let waiting = super::challenges::waiting_line(ctx, board)?;
        if let Some(line) = &waiting {
            status.push(line.clone());
        }
        // A challenge that waits has no clock yet.
        if !finished && waiting.is_none() {
            let mover = board.player(state.turn());
            // An event's vacation allowance caps what stops this board's
            // clock, as in the sweep: vacations since the event's start
            // count against it.
            let away = match tournaments::vacation_allowance_of(ctx.conn, board.number)? {
                Some((days, since)) => schedule::within_allowance(
                    &clocks::vacations_of(ctx.conn, mover, since)?,
                    since,
                    days,
                ),
                None => clocks::vacations_of(ctx.conn, mover, board.last_turn_at)?,
            };
            let clock = Clock {
                board: board.number,
                to_move: Some(mover),
                last_turn_at: board.last_turn_at,
                nag_days: board.options.nag_days,
                forfeit_days: board.options.forfeit_days,
                nags_sent: 0,
                draw_offered_at: None,
            };
            let now = ctx.now.max(board.last_turn_at);
            reminder_at =
                schedule::next_nag_at(&clock, &away, now).map(crate::render::readable_time);
            forfeit_at = Some(crate::render::readable_time(schedule::forfeit_at(
                &clock, &away, now,
            )));
        }
        let away = [&white, &black]
            .iter()
            .filter_map(|p| {
                p.vacation_until
                    .filter(|until| *until > ctx.now)
                    .map(|until| {
                        format!(
                            "{} is on vacation until {}.",
                            p.userid,
                            crate::render::readable_time(until)
                        )
                    })
            })
            .take(if board.white == board.black { 1 } else { 2 })
            .collect();
        let record = game.record();
        let view = SharedView {
            variant: board.variant.display_name(),
            board: board.number,
            headline: match &board.result {
                Some(result) => result.clone(),
                None => to_move.clone().unwrap_or_default(),
            },
            has_comments: !comments.is_empty(),
            status,
            white: white.userid.clone(),
            black: black.userid.clone(),
            turn_due: turn_due(state, game),
            to_move,
            turn_seq: turns.len() + 1,
            moves: if record.is_empty() {
                "(no moves yet)".to_string()
            } else {
                pgn::wrap(&record, 72)
            },
            summary: if finished {
                String::new()
            } else {
                legal_summary(game)
            },
            comments,
            nag_days: board.options.nag_days,
            forfeit_days: board.options.forfeit_days,
            example: example_turn(game).unwrap_or_default(),
            last_turn,
            reminder_at,
            forfeit_at,
            away,
        };
        Ok(BoardFacts {
            white,
            black,
            shared: minijinja::Value::from(minijinja::value::Serde(&view)),
            view,
            scene: RefCell::new(None),
        })
    }
}

impl BoardFacts {
    /// What the daily digest says of a board besides whose turn it is: the
    /// last turn, the dates before the reminder and the loss on time, and
    /// who is on vacation, as a board mail says them.
    pub fn digest_lines(&self) -> Vec<String> {
        let view = &self.view;
        let mut lines = Vec::new();
        if let Some(last) = &view.last_turn {
            lines.push(format!("Last turn: {last}."));
        }
        match (&view.reminder_at, &view.forfeit_at) {
            (Some(reminder), Some(forfeit)) => lines.push(format!(
                "Move by {reminder} to avoid a reminder, and by {forfeit} not to lose on time."
            )),
            (None, Some(forfeit)) => lines.push(format!("Move by {forfeit} not to lose on time.")),
            _ => {}
        }
        lines.extend(view.away.iter().cloned());
        lines
    }
}

/// The subject and body of a board mail for one reader.
pub fn render_board(
    ctx: &Ctx<'_>,
    loaded: &Loaded,
    facts: &BoardFacts,
    reader: Reader<'_>,
    style: BoardStyle,
    heading: &Heading,
) -> Result<(String, String), ServiceError> {
    let choice = match style {
        BoardStyle::Full => BoardChoice::Ascii,
        BoardStyle::Compact => BoardChoice::Compact,
    };
    let shown = render_shown(ctx, loaded, facts, reader, choice, heading)?;
    Ok((shown.subject, shown.body))
}

/// A board mail's parts for one reader.
pub struct Shown {
    pub subject: String,
    pub body: String,
    pub html: Option<Html>,
}

/// A board mail for one reader in the board style `choice`: the text, and
/// for `html` the HTML part with the board picture.
pub fn render_shown(
    ctx: &Ctx<'_>,
    loaded: &Loaded,
    facts: &BoardFacts,
    reader: Reader<'_>,
    choice: BoardChoice,
    heading: &Heading,
) -> Result<Shown, ServiceError> {
    let Loaded { board, game, .. } = loaded;
    let state = game.state();
    let viewer = match reader {
        Reader::Player(player) => board.color_of(player.id).unwrap_or(Color::White),
        Reader::Observer => Color::White,
    };
    let style = match choice {
        BoardChoice::Compact => BoardStyle::Compact,
        BoardChoice::Ascii | BoardChoice::Html => BoardStyle::Full,
    };
    let mut view = BoardView {
        new: *heading == Heading::New,
        nag: match heading {
            Heading::Nag(text) => Some(text.clone()),
            _ => None,
        },
        board_art: draw(state.pos().board(), viewer, style),
        your_turn: matches!(reader, Reader::Player(p)
            if board.result.is_none() && board.player(state.turn()) == p.id),
        recipient: match reader {
            Reader::Player(player) => player.userid.clone(),
            Reader::Observer => String::new(),
        },
        picture: None,
    };
    // The reader's own part first, then the shared part.
    let context = |view: &BoardView| {
        minijinja::context! { ..minijinja::Value::from(minijinja::value::Serde(view)), ..facts.shared.clone() }
    };
    let rendered = ctx.templates.render("board.txt", context(&view))?;
    let html = if choice == BoardChoice::Html {
        let cid = format!(
            "board-{}-{}-{}@{}",
            board.number,
            facts.view.turn_seq,
            if viewer == Color::White { "w" } else { "b" },
            ctx.config.address.domain
        );
        view.picture = Some(PictureView {
            cid: cid.clone(),
            size: picture::SIZE,
            alt: format!(
                "{} Board {} seen by {}",
                facts.view.variant,
                board.number,
                if viewer == Color::White {
                    "White"
                } else {
                    "Black"
                }
            ),
        });
        let body = ctx.templates.render_html("board.html", context(&view))?;
        Some(Html {
            body,
            images: vec![Inline {
                content_id: cid,
                scene: board_scene(loaded, facts, viewer),
            }],
        })
    } else {
        None
    };
    Ok(Shown {
        subject: rendered.subject,
        body: rendered.body,
        html,
    })
}

/// What the board picture from `viewer`'s side shows (drawn when the mail
/// is sent); the marked squares are worked out once per board mail.
fn board_scene(loaded: &Loaded, facts: &BoardFacts, viewer: Color) -> Scene {
    let mut known = facts.scene.borrow_mut();
    let scene = known.get_or_insert_with(|| {
        let state = loaded.game.state();
        let marked = loaded
            .game
            .turns()
            .last()
            .map(|played| last_turn_squares(played.turn.moves()))
            .unwrap_or_default();
        let check = state
            .in_check()
            .then(|| state.pos().king(state.turn()))
            .flatten();
        Scene {
            board: state.pos().board().clone(),
            viewer: Color::White,
            marked,
            check,
        }
    });
    Scene {
        viewer,
        ..scene.clone()
    }
}

/// The from and to squares of a turn's moves (a castling king's own).
fn last_turn_squares(moves: &[shakmaty::Move]) -> Vec<Square> {
    let mut squares = Vec::new();
    for m in moves {
        match m {
            shakmaty::Move::Castle { king, rook } => {
                let side = shakmaty::CastlingSide::from_queen_side(rook < king);
                squares.push(*king);
                squares.push(Square::from_coords(side.king_to_file(), king.rank()));
            }
            m => {
                squares.extend(m.from());
                squares.push(m.to());
            }
        }
    }
    squares
}

/// The PGN of board `number`; a tournament game names its event and
/// round (`event`), and carries the board number in a `Board` tag.
pub(super) fn board_pgn(
    ctx: &Ctx<'_>,
    number: u32,
    event: Option<(&str, u32)>,
) -> Result<String, Failure> {
    let loaded = load(ctx, number)?;
    let white = players::by_id(ctx.conn, loaded.board.white)?.userid;
    let black = players::by_id(ctx.conn, loaded.board.black)?.userid;
    Ok(pgn_text(ctx, &loaded, white, black, event))
}

/// The PGN of a loaded board (with the Variant tag); also what a finished
/// game's board mail attaches.
pub(super) fn pgn_text(
    ctx: &Ctx<'_>,
    loaded: &Loaded,
    white: String,
    black: String,
    event: Option<(&str, u32)>,
) -> String {
    let header = PgnHeader {
        site: ctx.config.address.to_string(),
        board: loaded.board.number,
        event,
        date: loaded.board.created_at.date(),
        white,
        black,
        result: loaded.board.result.as_deref(),
        variant: loaded.board.variant,
    };
    pgn::pgn_text(header, &loaded.game.record())
}

/// What a finished game's mail attaches: its PGN as `board-<n>.pgn`.
fn pgn_attachment(ctx: &Ctx<'_>, loaded: &Loaded, facts: &BoardFacts) -> outgoing::File {
    let text = pgn_text(
        ctx,
        loaded,
        facts.white.userid.clone(),
        facts.black.userid.clone(),
        None,
    );
    outgoing::File {
        name: format!("board-{}.pgn", loaded.board.number),
        mime: "application/vnd.chess-pgn".to_string(),
        bytes: text.into_bytes(),
    }
}

/// Board mails to the players (each from their side, with their reply
/// token) and the observers.
pub fn board_mails(
    ctx: &Ctx<'_>,
    number: u32,
    occasion: Occasion,
) -> Result<Vec<Outgoing>, ServiceError> {
    if ctx.touch(number, occasion.clone()) {
        return Ok(Vec::new());
    }
    let loaded = match load_for_mails(ctx, number) {
        Ok(loaded) => loaded,
        Err(Failure::Fatal(error)) => return Err(error),
        Err(Failure::Refused(_)) => return Ok(Vec::new()),
    };
    let heading = match &occasion {
        Occasion::New => Heading::New,
        Occasion::Nag(text) => Heading::Nag(text.clone()),
        Occasion::Update | Occasion::Comment => Heading::Plain,
    };
    let to_move = loaded.board.player(loaded.game.state().turn());
    let facts = BoardFacts::gather(ctx, &loaded)?;
    // A finished game (not a declined challenge) brings its PGN.
    let finished = loaded.board.result.as_deref().is_some_and(|r| r != "-")
        && !matches!(occasion, Occasion::Comment);
    let mut pgn = None;
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
            vec![
                pgn.get_or_insert_with(|| pgn_attachment(ctx, &loaded, &facts))
                    .clone(),
            ]
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
                    .with_token(&ctx.key.token(number, player.id)),
            ),
            in_reply_to: None,
            references: Vec::new(),
        };
        threading::thread(ctx, &mut mail, number, is_sender)?;
        mails.push(mail);
        if loaded.board.white == loaded.board.black {
            break;
        }
    }
    for address in boards::observers(ctx.conn, number)? {
        let skip = match occasion {
            Occasion::Comment => ctx
                .answered_sender()
                .is_some_and(|sender| address.eq_ignore_ascii_case(sender)),
            Occasion::Nag(_) => true,
            Occasion::New | Occasion::Update => false,
        };
        if skip {
            continue;
        }
        let shown = render_shown(
            ctx,
            &loaded,
            &facts,
            Reader::Observer,
            BoardChoice::Html,
            &heading,
        )?;
        let attachments = if finished {
            vec![
                pgn.get_or_insert_with(|| pgn_attachment(ctx, &loaded, &facts))
                    .clone(),
            ]
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
        };
        threading::thread(ctx, &mut mail, number, false)?;
        mails.push(mail);
    }
    Ok(mails)
}

#[derive(Serialize)]
struct ErrorView {
    error: String,
    board: Option<u32>,
    variant: &'static str,
    board_text: String,
    quoted: Vec<String>,
    not_quoted: &'static str,
}

/// The error reply for a refused command.
pub fn error_mail(ctx: &MailCtx<'_>, refusal: &Refusal) -> Result<Outgoing, ServiceError> {
    let shown = match refusal.board {
        Some(number) => board_for_sender(ctx, number)?.map(|(_, body)| (number, body)),
        None => None,
    };
    let variant = match shown {
        Some((number, _)) => {
            boards::get(ctx.conn, number)?.map_or("", |board| board.variant.display_name())
        }
        None => "",
    };
    let rendered = ctx.templates.render(
        "error.txt",
        ErrorView {
            error: ctx.shown_refusal(&refusal.message),
            board: shown.as_ref().map(|(number, _)| *number),
            variant,
            board_text: shown.map(|(_, body)| body).unwrap_or_default(),
            quoted: quote_blanked(ctx)?,
            not_quoted: NOT_QUOTED,
        },
    )?;
    Ok(Outgoing {
        to: vec![ctx.sender.to_string()],
        subject: rendered.subject,
        body: rendered.body,
        reply_to: None,
        in_reply_to: Some(ctx.mail.message_id.clone()),
        references: vec![ctx.mail.message_id.clone()],
        ..Outgoing::default()
    })
}

/// Board `number` as the sender sees it (from their side when they play
/// there): its Subject and body; `None` when there is no such board.
pub fn board_for_sender(
    ctx: &MailCtx<'_>,
    number: u32,
) -> Result<Option<(String, String)>, ServiceError> {
    let loaded = match load(ctx, number) {
        Ok(loaded) => loaded,
        Err(Failure::Fatal(error)) => return Err(error),
        Err(Failure::Refused(_)) => return Ok(None),
    };
    let reader = players::by_address(ctx.conn, ctx.sender)?
        .filter(|p| loaded.board.color_of(p.id).is_some());
    let reader = reader.as_ref().map_or(Reader::Observer, Reader::Player);
    let facts = BoardFacts::gather(ctx, &loaded)?;
    let rendered = render_board(
        ctx,
        &loaded,
        &facts,
        reader,
        BoardStyle::Full,
        &Heading::Plain,
    )?;
    Ok(Some(rendered))
}

/// The mail's subject and the sender's own words (the first 60 lines),
/// with every password blanked (see [`crate::command::blank`]).
pub fn quote_blanked(ctx: &MailCtx<'_>) -> Result<Vec<String>, ServiceError> {
    if !ctx.trusted {
        return Ok(Vec::new());
    }
    let lines = ctx.mail.command_lines();
    let subject = ctx.mail.subject.trim_end();
    // The Subject as the commands were read from it: behind the client's
    // `Re:`, which stays in the quote.
    let command = super::strip_reply_prefixes(subject);
    let prefix = &subject[..subject.len() - command.len()];
    let blanking = blanking_of(
        ctx,
        std::iter::once(command).chain(lines.iter().map(String::as_str)),
    )?;
    let mut quoted = vec![format!("Subject: {prefix}{}", blanking.line(command))];
    quoted.extend(lines.iter().take(60).map(|line| blanking.line(line)));
    Ok(quoted)
}

/// What an answer says instead of quoting the mail to a sender that is
/// not trusted (`MailCtx::trusted`).
pub const NOT_QUOTED: &str = "Your mail is not quoted back: pbem quotes a mail only to a registered address of the player it proves.";

/// The blanking of a mail of `lines`, by what its commands' logins proved
/// so far and whose address sent it.
pub fn blanking_of<'a>(
    ctx: &MailCtx<'_>,
    lines: impl IntoIterator<Item = &'a str>,
) -> Result<Blanking, ServiceError> {
    let own = players::by_address(ctx.conn, ctx.sender)?.map(|player| player.userid);
    let by_token = matches!(ctx.reply_token(), Some(Ok((_, player)))
        if players::by_id(ctx.conn, player)?.owns_address(ctx.sender));
    Ok(Blanking::of_mail(lines, logged_in(ctx))
        .with_own_userid(own)
        .with_token(by_token))
}

/// The userids (as written) that logged in with the mail so far.
pub fn logged_in(ctx: &MailCtx<'_>) -> Vec<String> {
    ctx.login_outcomes
        .iter()
        .filter(|(_, good)| *good)
        .map(|(userid, _)| userid.clone())
        .collect()
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
        Occasion::New => true,
        Occasion::Update => turns > challenge.shown,
        Occasion::Comment | Occasion::Nag(_) => false,
    };
    if new_position {
        boards::set_challenge_shown(ctx.conn, board.number, turns)?;
    }
    Ok(new_position)
}
