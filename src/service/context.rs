//! What a command works with (see the service's module doc): `Ctx`, what
//! acting needs and what the work leaves for the end of the mail, and
//! `MailCtx`, the mail being processed around its `Ctx`, with the logins,
//! the speakers and the answers' trust.

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};

use rusqlite::Connection;
use time::OffsetDateTime;

use super::kernel::{Refusal, ServiceConfig, ServiceError};
use super::passwords::PasswordCheck;
use super::{account, board_mail, commands};
use crate::command::{self};
use crate::domain::{BoardNumber, PlayerId};
use crate::mail::inbound::Inbound;
use crate::mail::outgoing::Outgoing;
use crate::mail::token::TokenKey;
use crate::render::templates::Templates;

/// What a command needs to act, and what its work leaves for the end of
/// the mail (or of the sweep's item); see the module doc. Built by
/// [`Ctx::new`] alone.
pub(super) struct Ctx<'a> {
    pub(super) conn: &'a Connection,
    pub(super) config: &'a ServiceConfig,
    pub(super) templates: &'a Templates,
    pub(super) key: &'a TokenKey,
    pub(super) now: OffsetDateTime,
    /// The mail the work answers; `None` when the server acts on its own
    /// (the deadline sweep, the digest): then no mail is answered, and
    /// board mails go out at once.
    pub(super) answering: Option<Answering<'a>>,
    /// The mails made so far.
    pub(super) out: Vec<Outgoing>,
    /// What the work leaves for the end of the mail. Work below the
    /// commands (ending a game, an event's next round) holds the context
    /// shared and still adds to it, hence the cell; it is borrowed only
    /// inside the methods below, never across a call.
    pub(super) later: RefCell<Later>,
}

/// The mail being answered, as the work below the commands sees it: what
/// its answers thread to, and who sent it.
#[derive(Clone, Copy)]
pub(super) struct Answering<'a> {
    pub(super) message_id: &'a str,
    pub(super) sender: &'a str,
}

/// What waits for the end of the mail.
#[derive(Default)]
pub(super) struct Later {
    /// Boards whose board mails wait for the end of the mail (one mail per
    /// board and reader however many commands touched it); `None` when
    /// board mails go out at once (the deadline sweep).
    pub(super) boards: Option<Vec<(BoardNumber, board_mail::Occasion)>>,
    /// What happened on a board, said in its next board mail ("bob
    /// rejected the draw offer.").
    pub(super) news: Vec<(BoardNumber, String)>,
    /// What happened on a board that only one of its players may read
    /// (their conditional moves), said in that player's next board mail.
    pub(super) private_news: Vec<(BoardNumber, PlayerId, String)>,
    /// The boards and players whose conditional lines an `if` of the mail
    /// changed (`true` when a line was added): their one current list is
    /// shown once, after all the lines of the mail were handled.
    pub(super) lines_given: Vec<(BoardNumber, PlayerId, bool)>,
    /// Mails that the end of a game made (a tournament's notices and final
    /// crosstables): sent with the mail's answer (those to the sender
    /// folded into it), or by the sweep.
    pub(super) mails: Vec<Outgoing>,
    /// The board as the turn just played left it, while no other command
    /// has run since: the board mails at the end of the mail take its
    /// turns and game from here instead of reading and replaying them
    /// again (only its row is read again, which the turn changed).
    pub(super) after_turn: Option<board_mail::Loaded>,
}

impl<'a> Ctx<'a> {
    /// The one way to make a context: for a mail (`answering` it), or for
    /// the server acting on its own (`None`).
    pub(super) fn new(
        conn: &'a Connection,
        config: &'a ServiceConfig,
        templates: &'a Templates,
        key: &'a TokenKey,
        now: OffsetDateTime,
        answering: Option<Answering<'a>>,
    ) -> Ctx<'a> {
        let later = Later {
            boards: answering.map(|_| Vec::new()),
            ..Later::default()
        };
        Ctx {
            conn,
            config,
            templates,
            key,
            now,
            answering,
            out: Vec::new(),
            later: RefCell::new(later),
        }
    }

    /// The sender of the mail answered; `None` when the server acts on its
    /// own.
    pub(super) fn answered_sender(&self) -> Option<&'a str> {
        self.answering.map(|answering| answering.sender)
    }

    /// Notes that `board` needs board mails for `occasion` at the end of
    /// the mail; `false` when board mails go out at once instead.
    pub(super) fn touch(&self, board: BoardNumber, occasion: board_mail::Occasion) -> bool {
        let mut later = self.later.borrow_mut();
        let Some(boards) = later.boards.as_mut() else {
            return false;
        };
        match boards.iter_mut().find(|(b, _)| *b == board) {
            Some((_, existing)) => {
                if board_mail::rank(&occasion) > board_mail::rank(existing) {
                    *existing = occasion;
                }
            }
            None => boards.push((board, occasion)),
        }
        true
    }

    /// The boards touched so far, taken: their board mails go out now.
    pub(super) fn take_touched(&self) -> Vec<(BoardNumber, board_mail::Occasion)> {
        self.later.borrow_mut().boards.take().unwrap_or_default()
    }

    /// Says what happened on `board` in its next board mail.
    pub(super) fn tell(&self, board: BoardNumber, news: String) {
        self.later.borrow_mut().news.push((board, news));
    }

    /// What happened on `board`, for its board mail.
    pub(super) fn news_of(&self, board: BoardNumber) -> Vec<String> {
        self.later
            .borrow()
            .news
            .iter()
            .filter(|(b, _)| *b == board)
            .map(|(_, news)| news.clone())
            .collect()
    }

    /// Says what happened on `board` to `player` alone, in their next
    /// board mail (never to the opponent or an observer).
    pub(super) fn tell_player(&self, board: BoardNumber, player: PlayerId, news: String) {
        self.later
            .borrow_mut()
            .private_news
            .push((board, player, news));
    }

    /// What happened on `board` that `player` alone reads.
    pub(super) fn private_news_of(&self, board: BoardNumber, player: PlayerId) -> Vec<String> {
        self.later
            .borrow()
            .private_news
            .iter()
            .filter(|(b, p, _)| *b == board && *p == player)
            .map(|(_, _, news)| news.clone())
            .collect()
    }

    /// Notes that an `if` of the mail changed `player`'s lines on `board`
    /// (`added`: a line was given, not only cleared).
    pub(super) fn lines_given(&self, board: BoardNumber, player: PlayerId, added: bool) {
        let mut later = self.later.borrow_mut();
        match later
            .lines_given
            .iter_mut()
            .find(|(b, p, _)| *b == board && *p == player)
        {
            Some((_, _, was_added)) => *was_added |= added,
            None => later.lines_given.push((board, player, added)),
        }
    }

    /// The boards and players whose lines the mail changed, taken.
    pub(super) fn take_lines_given(&self) -> Vec<(BoardNumber, PlayerId, bool)> {
        std::mem::take(&mut self.later.borrow_mut().lines_given)
    }

    /// The boards touched so far, left in place.
    pub(super) fn touched_boards(&self) -> Vec<BoardNumber> {
        self.later
            .borrow()
            .boards
            .iter()
            .flatten()
            .map(|(board, _)| *board)
            .collect()
    }

    /// Mails that go with the mail's answer, or with the sweep's mails.
    pub(super) fn send_later(&self, mails: impl IntoIterator<Item = Outgoing>) {
        self.later.borrow_mut().mails.extend(mails);
    }

    pub(super) fn take_later_mails(&self) -> Vec<Outgoing> {
        std::mem::take(&mut self.later.borrow_mut().mails)
    }

    /// How many mails wait, to take back those of a refused command
    /// ([`Ctx::truncate_later_mails`]).
    pub(super) fn later_mails_len(&self) -> usize {
        self.later.borrow().mails.len()
    }

    pub(super) fn truncate_later_mails(&self, len: usize) {
        self.later.borrow_mut().mails.truncate(len);
    }

    /// Keeps the board as the turn just played left it, for its board
    /// mails.
    pub(super) fn keep_after_turn(&self, loaded: board_mail::Loaded) {
        self.later.borrow_mut().after_turn = Some(loaded);
    }

    /// Forgets the board kept after a turn: another command runs.
    pub(super) fn forget_after_turn(&self) {
        self.later.borrow_mut().after_turn = None;
    }

    /// The board kept after a turn, if it is board `number`.
    pub(super) fn take_after_turn(&self, number: BoardNumber) -> Option<board_mail::Loaded> {
        self.later
            .borrow_mut()
            .after_turn
            .take_if(|loaded| loaded.board.number == number)
    }

    /// A plain notice; it answers the mail answered, if any.
    pub(super) fn notice(
        &self,
        to: Vec<String>,
        subject: &str,
        text: &str,
    ) -> Result<Outgoing, ServiceError> {
        let rendered = self.templates.render(
            "notice.txt",
            minijinja::context! { subject => subject, text => text },
        )?;
        let answered = self
            .answering
            .map(|answering| answering.message_id.to_string());
        let reply_to = self.player_reply_to(&to)?;
        Ok(Outgoing {
            to,
            subject: rendered.subject,
            body: rendered.body,
            reply_to,
            references: answered.iter().cloned().collect(),
            in_reply_to: answered,
            ..Outgoing::default()
        })
    }

    /// The reply address of a notice to `to`: when every recipient is a
    /// confirmed address of one player, that player's reply token (of no
    /// board), so that a reply to any notice speaks for the player without
    /// a password; otherwise none (a notice that also goes to a stranger,
    /// or to several players, invites no reply).
    fn player_reply_to(&self, to: &[String]) -> Result<Option<String>, ServiceError> {
        let mut player: Option<PlayerId> = None;
        for address in crate::mail::outgoing::deliverable(to) {
            match crate::store::players::address_owner(self.conn, &address)? {
                Some(owner) if player.is_none_or(|p| p == owner) => player = Some(owner),
                _ => return Ok(None),
            }
        }
        Ok(player.map(|id| {
            self.config
                .address
                .with_token(&self.key.token(crate::mail::token::NOT_A_BOARD, id))
        }))
    }
}

/// One mail being processed: who sent it, what it proved so far, and its
/// per-mail bounds, around the [`Ctx`] its commands act with (which it
/// dereferences to, so a command passes itself to the work below).
pub(super) struct MailCtx<'a> {
    pub(super) ctx: Ctx<'a>,
    pub(super) mail: &'a Inbound,
    pub(super) sender: &'a str,
    pub(super) passwords: &'a mut PasswordCheck,
    /// The distinct userid/password pairs this mail logged in with.
    pub(super) logins: Vec<(String, String)>,
    /// The players this mail spoke for, each with the board it acted on.
    pub(super) speakers: Vec<(PlayerId, Option<BoardNumber>)>,
    /// Set when the mail replies to a board mail whose position the board
    /// has moved on from: the refusal of every command it speaks by token.
    pub(super) stale: Option<Refusal>,
    /// Each password check of this mail, by userid as written, and whether
    /// it succeeded (for the throttle; see `limits`).
    pub(super) login_outcomes: Vec<(String, bool)>,
    /// What this mail did with tournament commands so far, for their
    /// per-mail bounds (one start, one broadcast, invitations).
    pub(super) events: commands::tournament::MailEvents,
    /// What the mail's account commands did so far, for their limits.
    pub(super) accounts: account::MailAccounts,
    /// Whether the sender is a confirmed address of the player the mail
    /// proves (or, proving none, of some player): only then does its
    /// answer quote the mail and carry pictures and files. Any other
    /// sender may be forged, so its answers stay small (`small_answers`).
    pub(super) trusted: bool,
    /// Whether a command of the mail was refused (for `/metrics`).
    pub(super) refused: bool,
    /// Whether the mail's commands are all game actions (at least one;
    /// see `Definition::game_action`): then pbem's total ceiling holds
    /// its mails back instead of refusing it (see `charge`).
    pub(super) game_actions_only: bool,
    /// The lines of the mail read as reply forms (`draw`, `if d6 Nc4`, a
    /// turn): they hold no password, and are quoted blanked of the
    /// mail's passwords only.
    pub(super) replies: Vec<String>,
    /// The challenges this mail made so far, each with its board: a line
    /// written again (every option the same) makes no second board.
    pub(super) challenges: Vec<(commands::challenge::Made, BoardNumber)>,
    /// Each command of the mail by its word and board, for the log (see
    /// `journal`).
    pub(super) journal: Vec<String>,
}

impl<'a> Deref for MailCtx<'a> {
    type Target = Ctx<'a>;

    fn deref(&self) -> &Ctx<'a> {
        &self.ctx
    }
}

impl DerefMut for MailCtx<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.ctx
    }
}

impl<'a> MailCtx<'a> {
    /// The one way to make a mail's context: nothing proven yet.
    pub(super) fn new(
        ctx: Ctx<'a>,
        mail: &'a Inbound,
        sender: &'a str,
        passwords: &'a mut PasswordCheck,
    ) -> MailCtx<'a> {
        MailCtx {
            ctx,
            mail,
            sender,
            passwords,
            logins: Vec::new(),
            speakers: Vec::new(),
            stale: None,
            login_outcomes: Vec::new(),
            events: commands::tournament::MailEvents::default(),
            accounts: account::MailAccounts::default(),
            trusted: false,
            refused: false,
            game_actions_only: false,
            replies: Vec::new(),
            challenges: Vec::new(),
            journal: Vec::new(),
        }
    }

    /// The mail's sender as the reader policy knows readers: its address,
    /// and the player whose address it is (the answer goes back to it).
    pub(super) fn who(&self) -> Result<crate::reader::Who<'a>, ServiceError> {
        Ok(crate::reader::Who::Mail {
            address: self.sender,
            player: crate::store::players::by_address(self.conn, self.sender)?.map(|p| p.id),
        })
    }
}

impl MailCtx<'_> {
    /// A command line (its passwords already blanked) as the sender's
    /// answer names it: whole to a trusted sender; to any other only its
    /// leading command
    /// words and numbers (`move 101`), so that no text of the mail reaches
    /// an address that may be forged.
    pub(super) fn shown_line(&self, blanked: &str) -> String {
        if self.trusted {
            return blanked.to_string();
        }
        blanked
            .split_whitespace()
            .take_while(|word| {
                command::is_command_word(word)
                    || word.parse::<crate::rules::Variant>().is_ok()
                    || word.trim_start_matches('#').parse::<u32>().is_ok()
            })
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// What a refusal says to the sender: the whole message to a trusted
    /// sender, to any other its first [`UNTRUSTED_REFUSAL_CHARS`]
    /// characters (a refusal may name words of the mail).
    pub(super) fn shown_refusal(&self, message: &str) -> String {
        if self.trusted || message.chars().count() <= UNTRUSTED_REFUSAL_CHARS {
            return message.to_string();
        }
        let mut shown: String = message.chars().take(UNTRUSTED_REFUSAL_CHARS).collect();
        shown.push_str("...");
        shown
    }

    /// A short error, without quoting (size and rate limits).
    pub(super) fn short_error(&mut self, text: &str) -> Result<(), ServiceError> {
        let rendered = self.templates.render(
            "notice.txt",
            minijinja::context! { subject => "pbem Error", text => text },
        )?;
        let error = Outgoing {
            to: vec![self.sender.to_string()],
            subject: rendered.subject,
            body: rendered.body,
            reply_to: None,
            in_reply_to: Some(self.mail.message_id.clone()),
            references: vec![self.mail.message_id.clone()],
            ..Outgoing::default()
        };
        self.out.push(error);
        Ok(())
    }

    /// A plain notice to the sender.
    pub(super) fn notice_to_sender(
        &self,
        subject: &str,
        text: &str,
    ) -> Result<Outgoing, ServiceError> {
        self.notice(vec![self.sender.to_string()], subject, text)
    }
}

/// The most characters of a refusal shown to a sender that is not trusted.
const UNTRUSTED_REFUSAL_CHARS: usize = 200;

/// The largest answer an untrusted sender gets, in bytes of text.
pub const SMALL_ANSWER_BYTES: usize = 16 * 1024;
