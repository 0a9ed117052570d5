//! What a command works with (see the service's module doc): `Ctx`, what
//! acting needs and what the work leaves for the end of the mail, and
//! `MailCtx`, the mail being processed around its `Ctx`, with the logins,
//! the speakers and the answers' trust.

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};

use rusqlite::Connection;
use time::OffsetDateTime;

use super::*;
use crate::command::{self, Command, Line, Speaker};
use crate::domain::{BoardNumber, PlayerId};
use crate::mail::inbound::Inbound;
use crate::mail::outgoing::Outgoing;
use crate::mail::token::TokenKey;
use crate::render::templates::Templates;
use crate::store::players::{self, Player};
use crate::store::{self, boards};

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
        Ok(Outgoing {
            to,
            subject: rendered.subject,
            body: rendered.body,
            reply_to: None,
            references: answered.iter().cloned().collect(),
            in_reply_to: answered,
            ..Outgoing::default()
        })
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
    pub(super) events: tournament::MailEvents,
    /// What the mail's account commands did so far, for their limits.
    pub(super) accounts: account::MailAccounts,
    /// Whether the sender is a confirmed address of the player the mail
    /// proves (or, proving none, of some player): only then does its
    /// answer quote the mail and carry pictures and files. Any other
    /// sender may be forged, so its answers stay small (`small_answers`).
    pub(super) trusted: bool,
    /// Whether a command of the mail was refused (for `/metrics`).
    pub(super) refused: bool,
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
    /// The mail's sender as the reader policy knows readers: its address,
    /// and the player whose address it is (the answer goes back to it).
    pub(super) fn who(&self) -> Result<crate::reader::Who<'a>, ServiceError> {
        Ok(crate::reader::Who::Mail {
            address: self.sender,
            player: players::by_address(self.conn, self.sender)?.map(|p| p.id),
        })
    }

    pub(super) fn run_command(
        &mut self,
        line: &Line,
        token: Option<(BoardNumber, PlayerId)>,
    ) -> Result<Vec<Outgoing>, Failure> {
        if let (Some(variant), Some(number)) = (line.variant, line.command.board())
            && let Some(board) = boards::get(self.conn, BoardNumber(number))?
            && board.variant != variant
        {
            return Err(refuse(
                format!(
                    "board {number} plays {}, not {}",
                    board.variant.display_name(),
                    variant.display_name()
                ),
                Some(BoardNumber(number)),
            ));
        }
        match &line.command {
            Command::Signup(c) => account::signup(self, c),
            Command::Password(c) => account::password(self, c, token),
            Command::Address(c) => account::addresses(self, c, token),
            Command::Vacation(c) => account::vacation(self, c, token),
            Command::Confirm { code } => confirm::confirm(self, code),
            Command::Ratings { variant } => ratings::standings(self, variant.or(line.variant)),
            Command::Rating { userid } => ratings::rating(self, userid),
            Command::Help(topic) => account::help(self, *topic),
            Command::Games(c) => account::games(self, c),
            Command::Challenge(c) => play::challenge(self, c, line.variant, token),
            Command::Move(c) => play::make_move(self, c, token),
            Command::Queue(c) => play::queue(self, c, token),
            Command::If(c) => conditional::give(self, c, token),
            Command::Action(c) => play::action(self, c, token),
            Command::Show(c) => play::show(self, c),
            Command::History { board } => play::history(self, BoardNumber(*board)),
            Command::Pgn { board } => play::pgn(self, BoardNumber(*board)),
            Command::Subscription(c) => play::subscription(self, c),
            Command::Chat(c) => play::chat(self, c, token),
            Command::Extend(c) => extend::extend(self, c, token),
            Command::Set(c) => preferences::set(self, c, token),
            Command::Settings { speaker } => preferences::settings(self, speaker, token),
            Command::Tournament(c) => tournament::run(self, c, token),
            Command::Ladder(c) => ladder::run(self, c, token),
        }
    }

    /// The reply token in the mail's recipients: `None` when there is none,
    /// an error when it does not check out.
    pub(super) fn reply_token(&self) -> Option<Result<(BoardNumber, PlayerId), String>> {
        let token = self
            .mail
            .recipients
            .iter()
            .find_map(|r| self.config.address.token_of(r))?;
        Some(
            self.key
                .verify(token)
                .map(|(board, player)| (BoardNumber(board), player))
                .ok_or_else(|| "the reply address of your mail is not one pbem gave out; please reply to a board mail or use a password".to_string()),
        )
    }

    /// Authenticates the speaker of a command.
    pub(super) fn speaker(
        &mut self,
        speaker: &Speaker,
        token: Option<(BoardNumber, PlayerId)>,
        board: Option<BoardNumber>,
    ) -> Result<Player, Failure> {
        let player = self.speaker_unrecorded(speaker, token, board)?;
        if !self.speakers.contains(&(player.id, board)) {
            self.speakers.push((player.id, board));
        }
        Ok(player)
    }

    pub(super) fn speaker_unrecorded(
        &mut self,
        speaker: &Speaker,
        token: Option<(BoardNumber, PlayerId)>,
        board: Option<BoardNumber>,
    ) -> Result<Player, Failure> {
        match speaker {
            Speaker::Password { userid, password } => self.login(userid, password, board),
            Speaker::Token => {
                let Some((token_board, player_id)) = token else {
                    return Err(refuse(
                        "a command without userid and password must be a reply to a mail pbem sent you: reply to one of pbem's mails from your registered address, or give your userid and password",
                        board,
                    ));
                };
                if board.is_some_and(|b| b != token_board) {
                    return Err(refuse(
                        format!(
                            "this reply belongs to board {token_board}; to act on another board use its own mail or a password"
                        ),
                        board,
                    ));
                }
                let player = players::by_id(self.conn, player_id)?;
                // A reply to an old board mail is stale for the board's
                // commands only: it still proves its player elsewhere.
                if board.is_some()
                    && let Some(refusal) = self.stale.clone()
                {
                    return Err(Failure::Refused(refusal));
                }
                if !player.owns_address(self.sender) {
                    return Err(refuse(
                        format!(
                            "this reply came from {}, which is not an address of {}; reply from your registered address or use your password",
                            self.sender, player.userid
                        ),
                        board,
                    ));
                }
                Ok(player)
            }
        }
    }

    /// Checks a userid and password. The answer is the same for an unknown
    /// userid and a wrong password; after repeated failures from one place
    /// the userid's password logins from there pause (see `limits`), except
    /// in a reply from the player's own address to a mail pbem sent them.
    /// A signup none of whose addresses has confirmed cannot log in: the
    /// right password is told to confirm first (a wrong one is only wrong).
    pub(super) fn login(
        &mut self,
        userid: &str,
        password: &str,
        board: Option<BoardNumber>,
    ) -> Result<Player, Failure> {
        let player = self.login_even_unconfirmed(userid, password, board)?;
        if !player.is_confirmed() {
            return Err(refuse(
                format!(
                    "\"{userid}\" is not confirmed yet: an account exists once an address of it confirms. Reply to the confirmation mail pbem sent to that address (or send \"confirm <code>\" from it), then send this again"
                ),
                board,
            ));
        }
        Ok(player)
    }

    /// [`MailCtx::login`] that also lets in a signup not yet confirmed (for
    /// signing it up again).
    pub(super) fn login_even_unconfirmed(
        &mut self,
        userid: &str,
        password: &str,
        board: Option<BoardNumber>,
    ) -> Result<Player, Failure> {
        let login = (userid.to_string(), password.to_string());
        if !self.logins.contains(&login) {
            if self.logins.len() >= LOGINS_PER_MAIL {
                return Err(refuse(
                    format!(
                        "a mail may log in with at most {LOGINS_PER_MAIL} different userid and password pairs; send the other commands in another mail"
                    ),
                    board,
                ));
            }
            self.logins.push(login);
        }
        let player = players::by_userid_or_reserved(self.conn, userid)?;
        let owner_replies = player
            .as_ref()
            .is_some_and(|player| self.token_speaks_for(player));
        let failed_here = self
            .login_outcomes
            .iter()
            .filter(|(u, good)| !good && u.eq_ignore_ascii_case(userid))
            .count() as u32;
        if !owner_replies
            && let Some(until) =
                limits::paused_until(self.conn, userid, self.sender, failed_here, self.now)?
        {
            return Err(refuse(
                format!(
                    "too many wrong passwords for \"{userid}\": password logins for it from {} pause until {}; the player's password from the player's own address, and a reply from there to a mail pbem sent the player, still work",
                    self.sender,
                    store::time_text(until)
                ),
                board,
            ));
        }
        let good = player
            .as_ref()
            .is_some_and(|player| self.passwords.verify(player, password));
        self.login_outcomes.push((userid.to_string(), good));
        match player {
            Some(player) if good => Ok(player),
            _ => Err(refuse(
                format!("wrong userid or password for \"{userid}\""),
                board,
            )),
        }
    }

    /// Whether the mail carries a reply token of `player` and comes from
    /// one of the player's addresses.
    pub(super) fn token_speaks_for(&self, player: &Player) -> bool {
        matches!(self.reply_token(), Some(Ok((_, id))) if id == player.id)
            && player.owns_address(self.sender)
    }

    /// The player the mail proves: a reply token from the player's own
    /// address, or else the first command with a right password (checked
    /// only for userids whose logins are not paused, and at most
    /// [`LOGINS_PER_MAIL`] of them) of a player whose address confirmed.
    pub(super) fn proven_player(&mut self) -> Result<Option<PlayerId>, ServiceError> {
        if let Some(Ok((_, id))) = self.reply_token() {
            let player = players::by_id(self.conn, id)?;
            if player.owns_address(self.sender) {
                return Ok(Some(player.id));
            }
        }
        let subject = strip_reply_prefixes(&self.mail.subject);
        let mut tried = 0;
        let lines = self.mail.command_lines();
        for line in std::iter::once(subject).chain(lines.iter().map(String::as_str)) {
            let Some(Ok(line)) = command::parse_line(line) else {
                continue;
            };
            let Some((userid, password)) = line.command.credentials() else {
                continue;
            };
            if tried >= LOGINS_PER_MAIL {
                break;
            }
            tried += 1;
            if limits::paused_until(self.conn, userid, self.sender, 0, self.now)?.is_some() {
                continue;
            }
            if let Some(player) = players::by_userid(self.conn, userid)?
                && self.passwords.verify(&player, password)
            {
                return Ok(Some(player.id));
            }
        }
        Ok(None)
    }

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
