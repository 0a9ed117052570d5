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
//! taking `&mut MailCtx`, and its arm in `MailCtx::run_command` (in
//! `context`); what it must remember across one mail's commands is a field
//! of `MailCtx`.

mod account;
mod answer;
mod board_mail;
mod bounces;
mod challenges;
pub mod charge;
mod clocks;
mod conditional;
mod confirm;
mod context;
mod deadlines;
mod dialogue;
mod ending;
mod event_rounds;
mod event_start;
mod extend;
mod ladder;
mod limits;
mod passwords;
mod play;
mod preferences;
mod prune;
mod queue;
mod ratings;
mod reading;
mod threading;
mod tournament;

use crate::caught::panic_text;
use crate::domain::{BoardNumber, PlayerId};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;

use rusqlite::Connection;
use time::OffsetDateTime;

use crate::command::{self, Command, Speaker};
use crate::mail::ServerAddress;
use crate::mail::bounce::Verp;
use crate::mail::inbound::{Authenticated, Inbound};
use crate::mail::outgoing::{self, Outgoing};
use crate::mail::token::TokenKey;
use crate::render::templates::{TemplateError, Templates};
use crate::store::players;
use crate::store::{self, CachedStatements, Store, StoreError, mailbox};
use charge::Payer;
use queue::{Replies, queue_all};

pub use context::SMALL_ANSWER_BYTES;
use context::{Answering, Ctx, MailCtx};
pub use deadlines::SweepReport;
pub use passwords::PasswordCheck;
pub use prune::Pruned;

/// Settings of the service.
#[derive(Clone, Debug)]
pub struct ServiceConfig {
    /// The server's own address; replies come from it.
    pub address: ServerAddress,
    /// Where bounces go (`server.bounce_address`); `None`: to `address`.
    /// The VERP addresses a bounce is read by are at it.
    pub bounce_address: Option<ServerAddress>,
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
            bounce_address: None,
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
    /// Processed; this many replies were queued. `refused`: a command of
    /// it was refused, or the mail was not acted on (over a ceiling, too
    /// long, or it failed).
    Processed { replies: usize, refused: bool },
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

/// The variant a command names, or the refusal that says where the list is.
fn variant_named(text: &str) -> Result<crate::rules::Variant, Failure> {
    text.parse().map_err(|_| {
        refuse(
            format!("\"{text}\" is not a variant; send \"help variants\" for the list"),
            None,
        )
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

    /// The server's one secret: it signs reply tokens, and the outbox's
    /// bounce addresses (`mail::bounce::Verp`).
    pub fn token_key(&self) -> &TokenKey {
        &self.key
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
            store::delivery::record_error(
                &tx,
                "mail",
                &format!("{}: {error}", mail.message_id),
                now,
            )?;
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
                Handled::Processed {
                    replies: 1,
                    refused: true,
                }
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
    // A bounce is acted on and never answered.
    if let Some(bounce) = &mail.bounce {
        let bounce_address = config.bounce_address.as_ref().unwrap_or(&config.address);
        let verp = Verp::new(bounce_address.clone(), key.clone());
        let mut ctx = Ctx::new(tx, config, templates, key, now, None);
        let outcome = bounces::act_on(&mut ctx, bounce, &verp)?;
        let notices = std::mem::take(&mut ctx.out);
        drop(ctx);
        tracing::info!(message_id = %mail.message_id, ?outcome, notices = notices.len(), "a bounce");
        // The notices follow from delivery trouble, not from anyone's
        // mail: charged to pbem, as the deadline sweep's.
        charge::record(tx, &Payer::Pbem, &charge::Bill::of(tx, &notices)?, now)?;
        queue_all(tx, config, key, notices, now, queue)?;
        mailbox::mark_processed(tx, &mail.message_id, sender_key(mail), now)?;
        return Ok(Handled::Ignored);
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
    // The player's next mail from a confirmed address ends delivery
    // trouble (and restarts the clocks a bounce stopped).
    bounces::heard_from(tx, &sender, now)?;
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
        refused: false,
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
    // Not acted on as a whole: over a ceiling, too long, or taken back.
    let mut not_acted_on = true;
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
                not_acted_on = false;
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
    Ok(Handled::Processed {
        replies,
        refused: not_acted_on || ctx.refused,
    })
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
