//! What each reader of a board mail reads: the facts of a board gathered
//! once ([`BoardFacts`]), the board from the reader's side, the move list,
//! the legal-move summary, comments, what happened and what is due, as
//! text and, by the reader's preference, with an HTML part holding the
//! board picture (its alt text the position in words) and the text board,
//! for clients that show no pictures.

use std::cell::RefCell;

use serde::Serialize;
use shakmaty::{Color, Position};

use super::Heading;
use super::load::Loaded;
use crate::domain::{BoardChoice, PlayerId};
use crate::mail::outgoing::{Html, Inline};
use crate::reader::Sight;
use crate::render::board::{BoardStyle, draw, legend, spoken_position};
use crate::render::pgn;
use crate::render::picture::{self, Scene};
use crate::render::summary::{example_turn, legal_summary, turn_due};
use crate::rules::game::DrawClaim;
use crate::schedule;
use crate::service::{Ctx, ServiceError};
use crate::store::boards::{self, OfferKind};
use crate::store::players::{self, Player};

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
    /// `Chess960 position 0 (BBQNNRKR)`: where a Chess960 game started.
    start: Option<String>,
    /// `B90 Sicilian Defense: Najdorf Variation (1.e4 ...)`: the opening
    /// a thematic game started after.
    opening: Option<String>,
    to_move: Option<String>,
    turn_due: String,
    turn_seq: usize,
    /// `move 14, White to move (turn #27)`.
    move_and_turn: String,
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
    /// With a time control: `10/50 (10 turns in 50 days, unused time
    /// carried over)`, and both players' clocks.
    control: Option<String>,
    clock_lines: Vec<String>,
}

/// What is one reader's own in a board mail; its templates see it over
/// the shared part ([`BoardFacts::shared`]).
#[derive(Serialize)]
struct BoardView {
    new: bool,
    nag: Option<String>,
    board_art: String,
    /// The line under the board that explains its marks.
    board_legend: &'static str,
    your_turn: bool,
    recipient: String,
    /// What happened to the reader's own conditional moves, and the lines
    /// they still have: the reader's alone (issue 26).
    private_news: Vec<String>,
    own_lines: Vec<String>,
    /// The reader's own notes on the board (`note`): the writer's alone.
    own_notes: Vec<String>,
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
    /// Gathers the facts of a loaded board, as its players read them.
    pub fn gather(ctx: &Ctx<'_>, loaded: &Loaded) -> Result<BoardFacts, ServiceError> {
        Self::gather_as(ctx, loaded, &Sight::PLAYER)
    }

    /// Gathers the facts of a loaded board as a reader with `sight` reads
    /// them (`loaded` already holds only the turns they see): no chat or
    /// comments unless the policy lets them read those, and for a board
    /// seen behind the game, nothing of now (offers, news, clocks,
    /// deadlines), which would tell of the turns held back.
    pub fn gather_as(
        ctx: &Ctx<'_>,
        loaded: &Loaded,
        sight: &Sight,
    ) -> Result<BoardFacts, ServiceError> {
        let mut facts = Self::gather_all(ctx, loaded)?;
        let delayed = sight.delayed() && loaded.board.result.is_none();
        if sight.chat() && !delayed {
            return Ok(facts);
        }
        let view = &mut facts.view;
        if !sight.chat() {
            view.comments.clear();
            view.has_comments = false;
        }
        if delayed {
            view.status.clear();
            view.reminder_at = None;
            view.forfeit_at = None;
            view.clock_lines.clear();
            view.status.push(format!(
                "Shown {} behind while the game runs (its event's public delay).",
                crate::render::count(sight.hidden_turns, "turn")
            ));
        }
        facts.shared = minijinja::Value::from(minijinja::value::Serde(&facts.view));
        Ok(facts)
    }

    fn gather_all(ctx: &Ctx<'_>, loaded: &Loaded) -> Result<BoardFacts, ServiceError> {
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
        let waiting = crate::service::challenges::waiting_line(ctx, board)?;
        if let Some(line) = &waiting {
            status.push(line.clone());
        }
        let mut clock_lines = Vec::new();
        let control = crate::store::clocks::stored_clock(ctx.conn, board.number)?
            .map(|stored| format!("{} ({})", stored.control, stored.control.describe()));
        let timed = if finished {
            None
        } else {
            crate::service::clocks::board_clock(ctx.conn, board, state.turn(), ctx.now)?
        };
        // A challenge that waits has no clock yet.
        if let Some(timed) = timed.filter(|_| waiting.is_none()) {
            clock_lines =
                crate::service::clocks::clock_lines(&timed.clock, &white.userid, &black.userid);
        } else if !finished && waiting.is_none() {
            let (deadlines, away, now) =
                super::deadline::untimed(ctx.conn, board, state.turn(), ctx.now)?;
            reminder_at =
                schedule::next_nag_at(&deadlines, &away, now).map(crate::render::readable_time);
        }
        if waiting.is_none() {
            forfeit_at = super::loses_on_time_at(ctx.conn, board, state.turn(), ctx.now)?
                .map(crate::render::readable_time);
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
            board: board.number.0,
            headline: match &board.result {
                Some(result) => result.clone(),
                None => to_move.clone().unwrap_or_default(),
            },
            has_comments: !comments.is_empty(),
            status,
            white: white.userid.clone(),
            black: black.userid.clone(),
            start: crate::service::starts::start_line(board.variant, board.options.start_position),
            opening: crate::render::opening_line(board.variant, board.options.opening.as_ref()),
            turn_due: turn_due(state, game),
            to_move,
            turn_seq: turns.len() + 1,
            move_and_turn: crate::render::move_and_turn(
                state.turn_number(),
                state.turn() == shakmaty::Color::White,
                turns.len() + 1,
            ),
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
            control,
            clock_lines,
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
        lines.extend(
            view.clock_lines
                .iter()
                .map(|line| format!("Clock: {line}.")),
        );
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
        BoardStyle::List => BoardChoice::List,
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
        BoardChoice::List => BoardStyle::List,
        BoardChoice::Ascii | BoardChoice::Html => BoardStyle::Full,
    };
    let mut view = BoardView {
        new: *heading == Heading::New,
        nag: match heading {
            Heading::Nag(text) => Some(text.clone()),
            _ => None,
        },
        board_art: draw(state.pos().board(), viewer, style),
        board_legend: legend(style),
        your_turn: matches!(reader, Reader::Player(p)
            if board.result.is_none() && board.player(state.turn()) == p.id),
        recipient: match reader {
            Reader::Player(player) => player.userid.clone(),
            Reader::Observer => String::new(),
        },
        private_news: match reader {
            Reader::Player(player) => ctx.private_news_of(board.number, player.id),
            Reader::Observer => Vec::new(),
        },
        own_lines: match reader {
            Reader::Player(player) => own_conditional_lines(ctx, loaded, player.id)?,
            Reader::Observer => Vec::new(),
        },
        own_notes: match reader {
            Reader::Player(player) => own_notes(ctx, board.number, player.id)?,
            Reader::Observer => Vec::new(),
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
                "{} Board {}. {}",
                facts.view.variant,
                board.number,
                spoken_position(state.pos().board())
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
            .map(|played| picture::last_turn_squares(played.turn.moves()))
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

/// The reader's own conditional lines on a board as a record writes them
/// (issue 26), for the reader's board mails and `show` only; none when
/// the board shows another position than the lines are for.
/// `player`'s conditional lines on the board as they stand, numbered from
/// the current position; none when they are not relative to it (or the
/// reader may not read them).
pub fn own_conditional_lines(
    ctx: &Ctx<'_>,
    loaded: &Loaded,
    player: PlayerId,
) -> Result<Vec<String>, ServiceError> {
    let Some(color) = loaded.board.color_of(player) else {
        return Ok(Vec::new());
    };
    let Some(row) = crate::store::conditional::of_player(ctx.conn, loaded.board.number, player)?
        .filter(|row| crate::reader::may_read_conditional(Some(player), row.player))
    else {
        return Ok(Vec::new());
    };
    if loaded.board.result.is_some() || loaded.game.state().turn() == color {
        return Ok(Vec::new());
    }
    if usize::try_from(row.at_turn).ok() != Some(loaded.turns.len()) {
        return Ok(Vec::new());
    }
    Ok(
        pbem_conditional::Tree::from_stored(&row.stored, &loaded.game, color)
            .map(|tree| tree.numbered_lines(&loaded.game))
            .unwrap_or_default(),
    )
}

/// The reader's own notes on a board, each with the turn it was written
/// at, for the reader's board mails and `show` only.
fn own_notes(
    ctx: &Ctx<'_>,
    board: crate::domain::BoardNumber,
    player: PlayerId,
) -> Result<Vec<String>, ServiceError> {
    if !crate::reader::may_read_notes(Some(player), player) {
        return Ok(Vec::new());
    }
    Ok(crate::store::notes::of(ctx.conn, board, player)?
        .into_iter()
        .map(|note| format!("at turn #{}: {}", note.at_turn + 1, note.text))
        .collect())
}
