//! The play-by-email service: one inbound mail in; its effects on the store
//! and its replies in the outbox out, committed in one transaction.
//!
//! The flow of [`Service::handle`]: skip a mail already processed (by
//! Message-ID); never answer automatic mail or our own; enforce the size and
//! per-sender rate limits; read the commands from the Subject and the body;
//! run each command in a savepoint of its own, so a refused command changes
//! nothing while the others still act; queue every reply; mark the mail
//! processed; commit. The service never knows which transport brought the
//! mail or will carry the replies.
//!
//! What a command works with comes in two parts:
//!
//! * `Ctx`: what acting needs. The transaction, the configuration, the
//!   templates, the reply-token key, the time; the mails made so far
//!   (`out`); and what the work leaves for the end of the mail (`later`:
//!   the boards whose board mails wait, the news for them, the mails a
//!   game's end made, the board a turn left). `answering` names the mail
//!   answered (its Message-ID and sender) for threading, or is `None` when
//!   the server acts on its own. The work below the commands (`board_mail`,
//!   `ending`, `event_rounds`, `challenges`, `threading`) and the deadline
//!   sweep take only a `Ctx`; `Ctx::new` is the one place one is made.
//! * `MailCtx`: the mail being processed, around its `Ctx`: the mail and
//!   its sender, whether the sender is trusted, the logins and their
//!   outcomes, the players it spoke for, a stale reply's refusal, and the
//!   per-mail bounds of account and event commands. Only `handle_in` makes
//!   one. The commands take a `MailCtx`, which dereferences to its `Ctx`,
//!   so a command hands itself to the work below.
//!
//! A new mail command is its word in `command::table`, its variant and
//! parser in `command` (and its place among the bare words a reply may
//! give, in `service::reading`), a function here in the module of its kind
//! taking `&mut MailCtx`, and its arm in `MailCtx::run_command`; what it
//! must remember across one mail's commands is a field of `MailCtx`.

mod account;
mod answer;
mod board_mail;
mod challenges;
pub mod charge;
mod confirm;
mod deadlines;
mod dialogue;
mod ending;
mod event_rounds;
mod limits;
mod passwords;
mod play;
mod preferences;
mod prune;
mod queue;
mod ratings;
pub(crate) use ratings::variant_sections;
mod reading;
mod threading;
mod tournament;

use crate::caught::panic_text;
use crate::domain::{BoardNumber, PlayerId};
use std::cell::RefCell;
use std::ops::{Deref, DerefMut};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;

use rusqlite::Connection;
use time::OffsetDateTime;

use crate::command::{self, Command, Line, Speaker};
use crate::mail::ServerAddress;
use crate::mail::inbound::{Authenticated, Inbound};
use crate::mail::outgoing::{self, Outgoing};
use crate::mail::token::TokenKey;
use crate::render::templates::{TemplateError, Templates};
use crate::store::players::{self, Player};
use crate::store::{self, CachedStatements, Store, StoreError, boards, mailbox};
use charge::Payer;
use queue::{Replies, queue_all};

pub use deadlines::SweepReport;
pub use passwords::PasswordCheck;
pub use prune::Pruned;

/// Settings of the service.
#[derive(Clone, Debug)]
pub struct ServiceConfig {
    /// The server's own address; replies come from it.
    pub address: ServerAddress,
    /// Mails larger than this get one short error.
    pub max_mail_bytes: usize,
    /// Mails from one sender per hour before further ones are ignored
    /// (unless they prove their player: see `handle_in`).
    pub mails_per_sender_per_hour: u32,
    /// Mails from one domain per (clock) hour, the same way.
    pub mails_per_domain_per_hour: u32,
    /// Mails from anybody per (clock) hour, the same way.
    pub mails_per_hour: u32,
    /// Mails that prove one player (by password or reply token) per clock
    /// hour: over the sender's ceiling, such a mail is charged to its
    /// player's own budget instead, which has this ceiling.
    pub mails_per_player_per_hour: u32,
    /// The ceilings on the mail pbem sends (see `charge`).
    pub sent: charge::SentCeilings,
    /// The shortest password `signup` and `password` accept.
    pub min_password_length: usize,
    /// The authserv-id of the operator's mail server, whose
    /// `Authentication-Results` headers pbem believes (see
    /// `mail::inbound`); `None` to believe none.
    pub trusted_authserv_id: Option<String>,
    /// Where operators keep edited templates; `None` for the built-in ones.
    pub templates_dir: Option<PathBuf>,
    /// The reply-token secret; `None` to use (and on first start create)
    /// the one stored in the database.
    pub token_secret: Option<String>,
    pub default_nag_days: u32,
    pub default_forfeit_days: u32,
    /// Vacation days each player may take per calendar year.
    pub vacation_days_per_year: u32,
}

impl Default for ServiceConfig {
    fn default() -> ServiceConfig {
        ServiceConfig {
            address: ServerAddress {
                local: "pbem".into(),
                domain: "localhost".into(),
            },
            max_mail_bytes: 256 * 1024,
            mails_per_sender_per_hour: 120,
            mails_per_domain_per_hour: 1_000,
            mails_per_hour: 10_000,
            mails_per_player_per_hour: 120,
            sent: charge::SentCeilings::default(),
            min_password_length: 8,
            trusted_authserv_id: None,
            templates_dir: None,
            token_secret: None,
            default_nag_days: 7,
            default_forfeit_days: 21,
            vacation_days_per_year: 30,
        }
    }
}

/// A failure that stops a mail from being processed at all; the mail stays
/// in the inbox and is tried again.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error("cannot build a reply: {0}")]
    Build(#[from] outgoing::BuildError),
    #[error("the stored game of board {board} no longer replays: {reason}")]
    CorruptGame { board: BoardNumber, reason: String },
    #[error("no randomness for the reply-token secret: {0}")]
    Random(String),
    #[error("{0}")]
    Builder(String),
    #[error(
        "the configured token secret is too weak: give 64 random hex digits (openssl rand -hex 32), or a text of at least 32 characters of which at least 10 differ"
    )]
    WeakSecret,
}

impl ServiceError {
    /// Whether the failure belongs to the one mail being handled (it would
    /// fail the same way on every try), rather than to the database or the
    /// configuration (which an operator fixes, and the mail then goes
    /// through).
    fn is_about_one_mail(&self) -> bool {
        match self {
            ServiceError::Build(_) | ServiceError::CorruptGame { .. } => true,
            ServiceError::Store(StoreError::Corrupt(_)) => true,
            ServiceError::Store(StoreError::Sqlite(rusqlite::Error::SqliteFailure(error, _))) => {
                error.code == rusqlite::ErrorCode::ConstraintViolation
            }
            _ => false,
        }
    }
}

impl From<rusqlite::Error> for ServiceError {
    fn from(error: rusqlite::Error) -> ServiceError {
        ServiceError::Store(StoreError::Sqlite(error))
    }
}

/// What became of a mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handled {
    /// Processed; this many replies were queued.
    Processed { replies: usize },
    /// Already processed before (same Message-ID): nothing done.
    Duplicate,
    /// Automatic mail, our own mail, or mail without a sender: recorded,
    /// never answered.
    Ignored,
}

/// A command refused: the sender gets this message, and nothing changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub message: String,
    /// The board it is about, to show it again in the error mail.
    pub board: Option<BoardNumber>,
}

/// Why a command did not complete.
#[derive(Debug)]
enum Failure {
    Refused(Refusal),
    Fatal(ServiceError),
}

impl<E: Into<ServiceError>> From<E> for Failure {
    fn from(error: E) -> Failure {
        Failure::Fatal(error.into())
    }
}

fn refuse(message: impl Into<String>, board: Option<BoardNumber>) -> Failure {
    Failure::Refused(Refusal {
        message: message.into(),
        board,
    })
}

/// The service.
pub struct Service {
    store: Store,
    config: ServiceConfig,
    templates: Templates,
    key: TokenKey,
    passwords: PasswordCheck,
}

impl Service {
    pub fn new(store: Store, config: ServiceConfig) -> Result<Service, ServiceError> {
        let key = match &config.token_secret {
            Some(secret) => TokenKey::from_text(secret).ok_or(ServiceError::WeakSecret)?,
            None => stored_key(&store)?,
        };
        let mut service = Service {
            templates: Templates::new(config.templates_dir.as_deref()),
            store,
            config,
            key,
            passwords: PasswordCheck::default(),
        };
        service.backfill_to_move()?;
        Ok(service)
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn config(&self) -> &ServiceConfig {
        &self.config
    }

    /// The reply token for `player` on `board` (what board mails carry).
    pub fn token(&self, board: u32, player: PlayerId) -> String {
        self.key.token(board, player)
    }

    /// Processes one raw mail at time `now`.
    pub fn handle(&mut self, raw: &[u8], now: OffsetDateTime) -> Result<Handled, ServiceError> {
        let mut handled = self.handle_batch(&[raw], now)?;
        Ok(handled.pop().expect("one result per mail"))
    }

    /// Processes several mails in one transaction: each mail has all or
    /// nothing of its effects, and the batch costs one commit (one disk
    /// flush) instead of one per mail. On an error nothing of the batch is
    /// committed, and the mails are all tried again.
    pub fn handle_batch(
        &mut self,
        raws: &[&[u8]],
        now: OffsetDateTime,
    ) -> Result<Vec<Handled>, ServiceError> {
        let mails: Vec<Inbound> = raws.iter().map(|raw| Inbound::parse(raw)).collect();
        self.handle_parsed(mails, now)
    }

    /// As [`Service::handle_batch`], for mails of which only the head may
    /// have been read: each is `(bytes read, whole size)`. A mail larger
    /// than the limit is answered from its head alone.
    pub fn handle_heads(
        &mut self,
        heads: &[(&[u8], usize)],
        now: OffsetDateTime,
    ) -> Result<Vec<Handled>, ServiceError> {
        let mails = heads
            .iter()
            .map(|(raw, size)| Inbound::parse_head(raw, *size))
            .collect();
        self.handle_parsed(mails, now)
    }

    fn handle_parsed(
        &mut self,
        mails: Vec<Inbound>,
        now: OffsetDateTime,
    ) -> Result<Vec<Handled>, ServiceError> {
        // Only a head start: after a panic (a bug, say in reading a
        // hostile command) the passwords are checked by their commands,
        // where a panic is caught per mail.
        let ahead =
            panic::catch_unwind(AssertUnwindSafe(|| self.check_passwords_ahead(&mails, now)));
        match ahead {
            Ok(result) => result?,
            Err(panic) => tracing::error!(
                "checking the passwords of a batch ahead failed on a bug: {}",
                panic_text(panic.as_ref())
            ),
        }
        let server = self.config.address.clone();
        let handled = queue::with_builder(&server, |beside| {
            self.handle_in_transaction(&mails, now, beside)
        });
        self.passwords.forget_ready_hashes();
        handled
    }

    /// The mails in one transaction, their replies built `beside`.
    fn handle_in_transaction(
        &mut self,
        mails: &[Inbound],
        now: OffsetDateTime,
        beside: &mut queue::Beside,
    ) -> Result<Vec<Handled>, ServiceError> {
        let tx = self.store.transaction()?;
        let mut handled = Vec::with_capacity(mails.len());
        for mail in mails {
            let parts = (
                &self.config,
                &self.templates,
                &self.key,
                &mut self.passwords,
            );
            // Each mail in a savepoint: a failure that belongs to this one
            // mail takes back its effects alone, and the mail is recorded
            // as processed (it would fail again on every try).
            tx.execute_cached("SAVEPOINT mail", [])?;
            let mark = beside.mark();
            // A panic (a bug) while handling one mail is that mail's
            // failure too: left to end the process, it would take the whole
            // uncommitted batch with it, and the same mail would panic again
            // after every restart, blocking the inbox. What it leaves behind
            // is taken back below: the savepoint's writes, the replies given
            // to the builder, and `Ctx`, dropped while unwinding; the
            // password cache only holds complete outcomes.
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                handle_in(parts, &tx, mail, now, &mut Replies::Beside(beside))
            }));
            let error = match outcome {
                Ok(Ok(result)) => {
                    tx.execute_cached("RELEASE mail", [])?;
                    handled.push(result);
                    continue;
                }
                Ok(Err(error)) if error.is_about_one_mail() => error.to_string(),
                Ok(Err(error)) => return Err(error),
                Err(panic) => format!("a bug: {}", panic_text(panic.as_ref())),
            };
            tx.execute_batch("ROLLBACK TO mail; RELEASE mail")?;
            beside.take_back(mark);
            tracing::error!(
                message_id = %mail.message_id,
                from = mail.from.as_deref().unwrap_or(""),
                "a mail could not be handled; its effects are taken back: {error}"
            );
            if !mailbox::is_processed(&tx, &mail.message_id, sender_key(mail))? {
                mailbox::mark_processed(&tx, &mail.message_id, sender_key(mail), now)?;
            }
            // The sender learns that nothing was done, rather than waiting
            // for an answer that never comes.
            let answer = match answerable_sender(&self.config, mail) {
                Some(sender) => vec![failure_answer(&self.templates, mail, sender)?],
                None => Vec::new(),
            };
            handled.push(if answer.is_empty() {
                Handled::Ignored
            } else {
                Handled::Processed { replies: 1 }
            });
            let replies = &mut Replies::Beside(beside);
            queue_all(&tx, &self.config, &self.key, answer, now, replies)?;
        }
        beside.finish(&tx)?;
        tx.commit()?;
        Ok(handled)
    }

    /// Checks the passwords of the mails' commands before the batch takes
    /// the database's write lock, so that a batch of first logins (Argon2,
    /// about 17 ms each) does not keep the outbox sender, the deadline
    /// sweep and `pbem process` waiting. Only the outcomes are kept, for
    /// the commands to find; a password this pass misses is simply checked
    /// when its command runs. The new password of a mail's first `signup`,
    /// and of a `password` command whose old password is right (or whose
    /// reply token proves its player), is hashed here too, at most one of
    /// each per mail (a mail acts on one signup).
    fn check_passwords_ahead(
        &mut self,
        mails: &[Inbound],
        now: OffsetDateTime,
    ) -> Result<(), ServiceError> {
        for mail in mails {
            if mail.size > self.config.max_mail_bytes || mail.automatic.is_some() {
                continue;
            }
            let mut logins: Vec<(String, String)> = Vec::new();
            let (mut signup_seen, mut new_password_seen) = (false, false);
            let subject = strip_reply_prefixes(&mail.subject);
            let lines = mail.command_lines();
            for line in std::iter::once(subject).chain(lines.iter().map(String::as_str)) {
                let Some(Ok(line)) = command::parse_line(line) else {
                    continue;
                };
                if let Command::Signup(signup) = &line.command
                    && !std::mem::replace(&mut signup_seen, true)
                {
                    self.signup_ahead(signup, mail.from.as_deref().unwrap_or(""), now)?;
                }
                // `password <new>` in a reply proves its player by the
                // token: its hash too is made ahead.
                if let Command::Password(change) = &line.command
                    && change.speaker == Speaker::Token
                    && !new_password_seen
                    && change.new.chars().count() >= self.config.min_password_length
                    && self.token_proves_sender(mail)
                {
                    new_password_seen = true;
                    self.passwords.prepare_hash(&change.new);
                }
                let Some((userid, password)) = line.command.credentials() else {
                    continue;
                };
                let login = (userid.to_string(), password.to_string());
                if logins.contains(&login) || logins.len() >= LOGINS_PER_MAIL {
                    continue;
                }
                // A userid whose logins pause costs no Argon2 at all.
                let sender = mail.from.as_deref().unwrap_or("");
                let right = limits::paused_until(self.store.conn(), userid, sender, 0, now)?
                    .is_none()
                    && players::by_userid_or_reserved(self.store.conn(), userid)?
                        .is_some_and(|player| self.passwords.verify(&player, password));
                if let Command::Password(change) = &line.command
                    && right
                    && !std::mem::replace(&mut new_password_seen, true)
                    && change.new.chars().count() >= self.config.min_password_length
                {
                    self.passwords.prepare_hash(&change.new);
                }
                logins.push(login);
            }
        }
        Ok(())
    }

    /// Whether the mail carries a reply token of a player whose address
    /// sent it (checked again when its command runs).
    fn token_proves_sender(&self, mail: &Inbound) -> bool {
        let sender = mail.from.as_deref().unwrap_or("");
        mail.recipients
            .iter()
            .find_map(|r| self.config.address.token_of(r))
            .and_then(|token| self.key.verify(token))
            .and_then(|(_, id)| players::by_id(self.store.conn(), id).ok())
            .is_some_and(|player| player.owns_address(sender))
    }

    /// The Argon2 work of a mail's `signup`, ahead: the new password's
    /// hash for a userid nobody has, the check of the password for a
    /// reservation signed up again. The command itself checks everything
    /// again.
    fn signup_ahead(
        &mut self,
        signup: &command::Signup,
        sender: &str,
        now: OffsetDateTime,
    ) -> Result<(), ServiceError> {
        if signup.password.chars().count() < self.config.min_password_length {
            return Ok(());
        }
        match players::by_userid_or_reserved(self.store.conn(), &signup.userid)? {
            None => self.passwords.prepare_hash(&signup.password),
            Some(reserved)
                if !reserved.is_confirmed()
                    && limits::paused_until(self.store.conn(), &signup.userid, sender, 0, now)?
                        .is_none() =>
            {
                self.passwords.verify(&reserved, &signup.password);
            }
            Some(_) => {}
        }
        Ok(())
    }
}

/// Different userid/password pairs one mail may log in with. A player's
/// mail names one or two; each new pair costs an Argon2 check (about 15 ms),
/// and a hostile mail of thousands would cost minutes of processor time.
const LOGINS_PER_MAIL: usize = 8;

/// One mail, inside the caller's transaction.
fn handle_in(
    (config, templates, key, passwords): (
        &ServiceConfig,
        &Templates,
        &TokenKey,
        &mut PasswordCheck,
    ),
    tx: &Connection,
    mail: &Inbound,
    now: OffsetDateTime,
    queue: &mut Replies<'_>,
) -> Result<Handled, ServiceError> {
    if mailbox::is_processed(tx, &mail.message_id, sender_key(mail))? {
        return Ok(Handled::Duplicate);
    }
    let sender = match answerable_sender(config, mail) {
        Some(from) => from.to_string(),
        None => {
            tracing::info!(
                message_id = %mail.message_id,
                reason = ?mail.automatic,
                "ignoring automatic, senderless, forged or own mail"
            );
            mailbox::mark_processed(tx, &mail.message_id, sender_key(mail), now)?;
            return Ok(Handled::Ignored);
        }
    };
    let over = limits::count(tx, config, &sender, now)?;
    let answering = Answering {
        message_id: &mail.message_id,
        sender: &sender,
    };
    let mut ctx = MailCtx {
        ctx: Ctx::new(tx, config, templates, key, now, Some(answering)),
        mail,
        sender: &sender,
        passwords,
        logins: Vec::new(),
        speakers: Vec::new(),
        stale: None,
        login_outcomes: Vec::new(),
        events: tournament::MailEvents::default(),
        accounts: account::MailAccounts::default(),
        trusted: false,
    };
    let payer = match ctx.proven_player()? {
        Some(player) => Payer::Player(player),
        None => Payer::Address(sender.clone()),
    };
    ctx.trusted = match (&payer, players::address_owner(tx, &sender)?) {
        (Payer::Player(proven), Some(owner)) => *proven == owner,
        (Payer::Address(_), Some(_)) => true,
        (Payer::Pbem, _) | (_, None) => false,
    };
    // A mail that proves its player is charged to the player's own budget:
    // a password or token moves the charge, it never lifts the ceiling.
    let player_over = match &payer {
        Payer::Player(player) => {
            let key = format!("in:player:{}", player.0);
            store::limits::count_mail(tx, &key, now)? >= config.mails_per_player_per_hour
        }
        _ => false,
    };
    // The bill of the answers, once checked against the ceilings.
    let mut checked = None;
    if let (Some(over), Payer::Address(_)) = (over, &payer) {
        // Over a ceiling, only a mail that proves its player is acted on:
        // a flood, forged or not, never locks a player out of a game.
        tracing::info!(message_id = %mail.message_id, from = %sender, ?over, "mail over a rate ceiling is not answered");
        if over == limits::Over::Sender(config.mails_per_sender_per_hour) {
            ctx.short_error(&format!(
                "You sent more than {} mails within an hour. Further mails are ignored until the hour has passed (replies to board mails and commands with your password still work).",
                config.mails_per_sender_per_hour
            ))?;
        }
    } else if player_over {
        tracing::info!(message_id = %mail.message_id, from = %sender, "mail over its player's hourly ceiling is not acted on");
        if ctx.trusted && charge::may_tell(tx, &payer, now)? {
            ctx.short_error(&format!(
                "Your player sent more than {} mails within an hour. Further mails are not acted on until the hour has passed.",
                config.mails_per_player_per_hour
            ))?;
        }
    } else if mail.size > config.max_mail_bytes {
        ctx.short_error(&format!(
            "Your mail is {} bytes long; pbem reads mails of up to {} bytes. Please send your commands in a shorter, plain-text mail.",
            mail.size, config.max_mail_bytes
        ))?;
    } else {
        // The commands in a savepoint of their own: replies that would pass
        // a ceiling take the whole mail back (see `charge`).
        tx.execute_cached("SAVEPOINT commands", [])?;
        ctx.run_mail()?;
        if !ctx.trusted {
            let answers = std::mem::take(&mut ctx.out);
            ctx.out = small_answers(&ctx, answers)?;
        }
        let answers = charge::Bill::of(tx, &ctx.out)?;
        match charge::check(tx, &config.sent, &payer, &answers, now)? {
            None => {
                tx.execute_cached("RELEASE commands", [])?;
                checked = Some(answers);
            }
            Some(passed) => {
                tx.execute_batch("ROLLBACK TO commands; RELEASE commands")?;
                ctx.out.clear();
                tracing::info!(
                    message_id = %mail.message_id,
                    from = %sender,
                    ?passed,
                    "a mail whose replies would pass a ceiling is taken back"
                );
                if ctx.trusted && charge::may_tell(tx, &payer, now)? {
                    ctx.short_error(&format!(
                        "Nothing of your mail was done: its answers would pass the ceiling of {} mails per {} that pbem sends for {}. Send it again after {}.",
                        passed.ceiling,
                        passed.per,
                        passed.whose,
                        store::time_text(passed.until(now))
                    ))?;
                }
            }
        }
    }
    // Outside the commands' savepoints: a refused command still counts
    // as a failed login.
    for (userid, good) in std::mem::take(&mut ctx.login_outcomes) {
        let place = limits::failure_place(tx, &userid, &sender)?;
        if good {
            store::limits::login_succeeded(tx, &userid, &place)?;
        } else {
            store::limits::login_failed(tx, &userid, &place, now)?;
        }
    }
    // The answers checked above are what goes out, unless they were
    // replaced by a short error: then that is read.
    let bill = match checked {
        Some(bill) => bill,
        None => charge::Bill::of(tx, &ctx.out)?,
    };
    charge::record(tx, &payer, &bill, now)?;
    confirm::record_outcomes(tx, &sender, &ctx.accounts.code_outcomes, now)?;
    let replies = ctx.out.len();
    let outgoing = std::mem::take(&mut ctx.out);
    queue_all(tx, config, key, outgoing, now, queue)?;
    mailbox::mark_processed(tx, &mail.message_id, &sender, now)?;
    Ok(Handled::Processed { replies })
}

/// The sender to answer: none for automatic mail, mail without a sender,
/// mail forged by the operator's mail server's verdict, and our own mail.
fn answerable_sender<'m>(config: &ServiceConfig, mail: &'m Inbound) -> Option<&'m str> {
    let forged = config
        .trusted_authserv_id
        .as_deref()
        .is_some_and(|id| mail.authenticated(id) == Some(Authenticated::Fail));
    match &mail.from {
        Some(from) if mail.automatic.is_none() && !forged && !config.address.is_own(from) => {
            Some(from)
        }
        _ => None,
    }
}

/// The answer to a mail whose handling failed and was taken back whole.
fn failure_answer(
    templates: &Templates,
    mail: &Inbound,
    sender: &str,
) -> Result<Outgoing, ServiceError> {
    let rendered = templates.render(
        "notice.txt",
        minijinja::context! {
            subject => "pbem Error",
            text => "Your mail could not be handled because of an error on the server, so none of it was done: no move, result or other change it asked for was made. The error is in the server's log for its operator. You may send the mail again later.",
        },
    )?;
    Ok(Outgoing {
        to: vec![sender.to_string()],
        subject: rendered.subject,
        body: rendered.body,
        reply_to: None,
        in_reply_to: Some(mail.message_id.clone()),
        references: vec![mail.message_id.clone()],
        ..Outgoing::default()
    })
}

/// The sender a mail is recorded under: together with its Message-ID, what
/// makes it the same mail (another sender's mail with the same Message-ID
/// is another mail).
fn sender_key(mail: &Inbound) -> &str {
    mail.from.as_deref().unwrap_or("")
}

/// The reply-token key kept in the database, created on first use.
fn stored_key(store: &Store) -> Result<TokenKey, ServiceError> {
    let tx = store.transaction()?;
    let key = match store::setting(&tx, "token_key")?
        .as_deref()
        .and_then(TokenKey::from_text)
    {
        Some(key) => key,
        None => {
            let key = TokenKey::generate().map_err(|e| ServiceError::Random(e.to_string()))?;
            store::set_setting(&tx, "token_key", &key.to_hex())?;
            key
        }
    };
    tx.commit()?;
    Ok(key)
}

/// What a command needs to act, and what its work leaves for the end of
/// the mail (or of the sweep's item); see the module doc. Built by
/// [`Ctx::new`] alone.
struct Ctx<'a> {
    conn: &'a Connection,
    config: &'a ServiceConfig,
    templates: &'a Templates,
    key: &'a TokenKey,
    now: OffsetDateTime,
    /// The mail the work answers; `None` when the server acts on its own
    /// (the deadline sweep, the digest): then no mail is answered, and
    /// board mails go out at once.
    answering: Option<Answering<'a>>,
    /// The mails made so far.
    out: Vec<Outgoing>,
    /// What the work leaves for the end of the mail. Work below the
    /// commands (ending a game, an event's next round) holds the context
    /// shared and still adds to it, hence the cell; it is borrowed only
    /// inside the methods below, never across a call.
    later: RefCell<Later>,
}

/// The mail being answered, as the work below the commands sees it: what
/// its answers thread to, and who sent it.
#[derive(Clone, Copy)]
struct Answering<'a> {
    message_id: &'a str,
    sender: &'a str,
}

/// What waits for the end of the mail.
#[derive(Default)]
struct Later {
    /// Boards whose board mails wait for the end of the mail (one mail per
    /// board and reader however many commands touched it); `None` when
    /// board mails go out at once (the deadline sweep).
    boards: Option<Vec<(BoardNumber, board_mail::Occasion)>>,
    /// What happened on a board, said in its next board mail ("bob
    /// rejected the draw offer.").
    news: Vec<(BoardNumber, String)>,
    /// Mails that the end of a game made (a tournament's notices and final
    /// crosstables): sent with the mail's answer (those to the sender
    /// folded into it), or by the sweep.
    mails: Vec<Outgoing>,
    /// The board as the turn just played left it, while no other command
    /// has run since: the board mails at the end of the mail take its
    /// turns and game from here instead of reading and replaying them
    /// again (only its row is read again, which the turn changed).
    after_turn: Option<board_mail::Loaded>,
}

impl<'a> Ctx<'a> {
    /// The one way to make a context: for a mail (`answering` it), or for
    /// the server acting on its own (`None`).
    fn new(
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
    fn answered_sender(&self) -> Option<&'a str> {
        self.answering.map(|answering| answering.sender)
    }

    /// Notes that `board` needs board mails for `occasion` at the end of
    /// the mail; `false` when board mails go out at once instead.
    fn touch(&self, board: BoardNumber, occasion: board_mail::Occasion) -> bool {
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
    fn take_touched(&self) -> Vec<(BoardNumber, board_mail::Occasion)> {
        self.later.borrow_mut().boards.take().unwrap_or_default()
    }

    /// Says what happened on `board` in its next board mail.
    fn tell(&self, board: BoardNumber, news: String) {
        self.later.borrow_mut().news.push((board, news));
    }

    /// What happened on `board`, for its board mail.
    fn news_of(&self, board: BoardNumber) -> Vec<String> {
        self.later
            .borrow()
            .news
            .iter()
            .filter(|(b, _)| *b == board)
            .map(|(_, news)| news.clone())
            .collect()
    }

    /// Mails that go with the mail's answer, or with the sweep's mails.
    fn send_later(&self, mails: impl IntoIterator<Item = Outgoing>) {
        self.later.borrow_mut().mails.extend(mails);
    }

    fn take_later_mails(&self) -> Vec<Outgoing> {
        std::mem::take(&mut self.later.borrow_mut().mails)
    }

    /// How many mails wait, to take back those of a refused command
    /// ([`Ctx::truncate_later_mails`]).
    fn later_mails_len(&self) -> usize {
        self.later.borrow().mails.len()
    }

    fn truncate_later_mails(&self, len: usize) {
        self.later.borrow_mut().mails.truncate(len);
    }

    /// Keeps the board as the turn just played left it, for its board
    /// mails.
    fn keep_after_turn(&self, loaded: board_mail::Loaded) {
        self.later.borrow_mut().after_turn = Some(loaded);
    }

    /// Forgets the board kept after a turn: another command runs.
    fn forget_after_turn(&self) {
        self.later.borrow_mut().after_turn = None;
    }

    /// The board kept after a turn, if it is board `number`.
    fn take_after_turn(&self, number: BoardNumber) -> Option<board_mail::Loaded> {
        self.later
            .borrow_mut()
            .after_turn
            .take_if(|loaded| loaded.board.number == number)
    }

    /// A plain notice; it answers the mail answered, if any.
    fn notice(&self, to: Vec<String>, subject: &str, text: &str) -> Result<Outgoing, ServiceError> {
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
struct MailCtx<'a> {
    ctx: Ctx<'a>,
    mail: &'a Inbound,
    sender: &'a str,
    passwords: &'a mut PasswordCheck,
    /// The distinct userid/password pairs this mail logged in with.
    logins: Vec<(String, String)>,
    /// The players this mail spoke for, each with the board it acted on.
    speakers: Vec<(PlayerId, Option<BoardNumber>)>,
    /// Set when the mail replies to a board mail whose position the board
    /// has moved on from: the refusal of every command it speaks by token.
    stale: Option<Refusal>,
    /// Each password check of this mail, by userid as written, and whether
    /// it succeeded (for the throttle; see `limits`).
    login_outcomes: Vec<(String, bool)>,
    /// What this mail did with tournament commands so far, for their
    /// per-mail bounds (one start, one broadcast, invitations).
    events: tournament::MailEvents,
    /// What the mail's account commands did so far, for their limits.
    accounts: account::MailAccounts,
    /// Whether the sender is a confirmed address of the player the mail
    /// proves (or, proving none, of some player): only then does its
    /// answer quote the mail and carry pictures and files. Any other
    /// sender may be forged, so its answers stay small (`small_answers`).
    trusted: bool,
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

impl MailCtx<'_> {
    fn run_command(
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
            Command::Action(c) => play::action(self, c, token),
            Command::Show(c) => play::show(self, c),
            Command::History { board } => play::history(self, BoardNumber(*board)),
            Command::Pgn { board } => play::pgn(self, BoardNumber(*board)),
            Command::Subscription(c) => play::subscription(self, c),
            Command::Chat(c) => play::chat(self, c, token),
            Command::Set(c) => preferences::set(self, c, token),
            Command::Settings { speaker } => preferences::settings(self, speaker, token),
            Command::Tournament(c) => tournament::run(self, c, token),
        }
    }

    /// The reply token in the mail's recipients: `None` when there is none,
    /// an error when it does not check out.
    fn reply_token(&self) -> Option<Result<(BoardNumber, PlayerId), String>> {
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
    fn speaker(
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

    fn speaker_unrecorded(
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
    fn login(
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
    fn login_even_unconfirmed(
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
    fn token_speaks_for(&self, player: &Player) -> bool {
        matches!(self.reply_token(), Some(Ok((_, id))) if id == player.id)
            && player.owns_address(self.sender)
    }

    /// The player the mail proves: a reply token from the player's own
    /// address, or else the first command with a right password (checked
    /// only for userids whose logins are not paused, and at most
    /// [`LOGINS_PER_MAIL`] of them) of a player whose address confirmed.
    fn proven_player(&mut self) -> Result<Option<PlayerId>, ServiceError> {
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
    fn shown_line(&self, blanked: &str) -> String {
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
    fn shown_refusal(&self, message: &str) -> String {
        if self.trusted || message.chars().count() <= UNTRUSTED_REFUSAL_CHARS {
            return message.to_string();
        }
        let mut shown: String = message.chars().take(UNTRUSTED_REFUSAL_CHARS).collect();
        shown.push_str("...");
        shown
    }

    /// A short error, without quoting (size and rate limits).
    fn short_error(&mut self, text: &str) -> Result<(), ServiceError> {
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
    fn notice_to_sender(&self, subject: &str, text: &str) -> Result<Outgoing, ServiceError> {
        self.notice(vec![self.sender.to_string()], subject, text)
    }
}

/// The most characters of a refusal shown to a sender that is not trusted.
const UNTRUSTED_REFUSAL_CHARS: usize = 200;

/// The largest answer an untrusted sender gets, in bytes of text.
pub const SMALL_ANSWER_BYTES: usize = 16 * 1024;

/// The answers of a mail whose sender is not trusted (see `MailCtx::trusted`):
/// text only (no pictures, no files), and one larger than
/// [`SMALL_ANSWER_BYTES`] becomes a short notice saying how to get it. The
/// sender may be forged, and pbem must not be a way to send a stranger
/// large mail.
fn small_answers(ctx: &MailCtx<'_>, mails: Vec<Outgoing>) -> Result<Vec<Outgoing>, ServiceError> {
    let mut small = Vec::with_capacity(mails.len());
    for mut mail in mails {
        if !mail.to.iter().any(|to| to.eq_ignore_ascii_case(ctx.sender)) {
            small.push(mail);
            continue;
        }
        mail.html = None;
        mail.attachments.clear();
        if mail.body.len() > SMALL_ANSWER_BYTES {
            let text = format!(
                "The answer to your mail is {} KB long. pbem sends answers that large only to a player's registered address: send the command from your registered address (with your password, or in a reply to a mail pbem sent you).",
                mail.body.len() / 1024
            );
            let subject = mail.subject.clone();
            mail = ctx.notice(mail.to, &subject, &text)?;
        }
        small.push(mail);
    }
    Ok(small)
}

/// `Re: Chess2 Board 101 bob` -> `Chess2 Board 101 bob`.
fn strip_reply_prefixes(subject: &str) -> &str {
    let mut rest = subject.trim();
    loop {
        let lower = rest.to_ascii_lowercase();
        let stripped = ["re:", "fwd:", "fw:", "aw:", "sv:", "antw:"]
            .iter()
            .find(|prefix| lower.starts_with(*prefix))
            .map(|prefix| rest[prefix.len()..].trim_start());
        match stripped {
            Some(next) => rest = next,
            None => return rest,
        }
    }
}

/// The board named by the (unverified) reply token of a mail, for showing
/// the board in an error mail.
fn token_board(mail: &Inbound, config: &ServiceConfig) -> Option<u32> {
    mail.recipients
        .iter()
        .find_map(|r| config.address.token_of(r))
        .and_then(|token| token.split('.').next())
        .and_then(|board| board.parse().ok())
        .filter(|board| *board != crate::mail::token::NOT_A_BOARD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_of_a_batch_are_checked_before_its_transaction() {
        let store = Store::open_in_memory().expect("store");
        let now = OffsetDateTime::UNIX_EPOCH;
        let hash = passwords::hash("s3cret").expect("hash");
        let tx = store.transaction().expect("transaction");
        let alice = players::insert(&tx, "alice", &hash, &["alice@example.org".into()], now)
            .expect("player");
        tx.commit().expect("commit");
        let mut service = Service::new(store, ServiceConfig::default()).expect("service");
        let alice = players::by_id(service.store().conn(), alice).expect("alice");
        let mail = |id: &str, subject: &str, body: &str| {
            Inbound::parse(
                format!(
                    "From: alice@example.org\r\nMessage-ID: <{id}@example.org>\r\n\
                     Subject: {subject}\r\n\r\n{body}\r\n"
                )
                .as_bytes(),
            )
        };
        let mails = [
            mail("a", "Re: move 101 alice s3cret e4", ""),
            mail("b", "hello", "draw 101 alice wrong"),
            mail("c", "hello", "> move 101 alice quoted e4"),
        ];
        service.check_passwords_ahead(&mails, now).expect("checked");
        assert!(
            service.passwords.knows(&alice, "s3cret"),
            "from the subject"
        );
        assert!(service.passwords.knows(&alice, "wrong"), "a wrong one too");
        assert!(
            !service.passwords.knows(&alice, "quoted"),
            "quoted lines are no commands"
        );
        assert!(service.passwords.verify(&alice, "s3cret"));
        assert!(!service.passwords.verify(&alice, "wrong"));
    }

    #[test]
    fn new_passwords_are_hashed_before_the_transaction_that_stores_them() {
        let store = Store::open_in_memory().expect("store");
        let now = OffsetDateTime::UNIX_EPOCH;
        let hash = passwords::hash("s3cret-old").expect("hash");
        let tx = store.transaction().expect("transaction");
        players::insert(&tx, "alice", &hash, &["alice@example.org".into()], now).expect("alice");
        tx.commit().expect("commit");
        let mut service = Service::new(store, ServiceConfig::default()).expect("service");
        let raw = |from: &str, id: &str, body: &str| {
            format!(
                "From: {from}\r\nMessage-ID: <{id}@example.org>\r\nSubject: hello\r\n\r\n{body}\r\n"
            )
        };
        let signup = raw(
            "carol@example.org",
            "a",
            "signup carol carol-secret\nsignup dave dave-secret",
        );
        let change = raw(
            "alice@example.org",
            "b",
            "password alice s3cret-old alice-new-secret\npassword alice wrong other-secret",
        );
        let mails = [
            Inbound::parse(signup.as_bytes()),
            Inbound::parse(change.as_bytes()),
        ];
        service.check_passwords_ahead(&mails, now).expect("ahead");
        let ready = |service: &Service, password: &str| {
            service.passwords.ready_hash(password).map(str::to_string)
        };
        let carol_hash = ready(&service, "carol-secret").expect("the signup's hash is ready");
        let alice_hash = ready(&service, "alice-new-secret").expect("the new password's too");
        assert_eq!(ready(&service, "dave-secret"), None, "one signup per mail");
        assert_eq!(
            ready(&service, "other-secret"),
            None,
            "its old password is wrong"
        );
        // The batch finds the hashes ready (hashing ahead again makes no
        // new ones) and stores them.
        service
            .handle_batch(&[signup.as_bytes(), change.as_bytes()], now)
            .expect("handled");
        let conn = service.store().conn();
        let carol = players::by_userid_or_reserved(conn, "carol")
            .expect("read")
            .expect("carol is reserved");
        assert_eq!(carol.password_hash, carol_hash);
        let alice = players::by_userid(conn, "alice")
            .expect("read")
            .expect("alice");
        assert_eq!(alice.password_hash, alice_hash);
        assert_eq!(ready(&service, "carol-secret"), None, "taken");
        assert_eq!(ready(&service, "dave-secret"), None, "nothing is left over");
    }
}
