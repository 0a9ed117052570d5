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
//! The root keeps the per-mail flow, one step per concern: duplicates
//! and bounces, then trust (`establish_trust`), the ceilings on mail in
//! (`stopped_at_a_ceiling`), running the commands within the ceilings on
//! mail out (`run_within_ceilings`), the password throttle's record
//! (`record_login_outcomes`), charging and queueing. What the modules
//! share (`ServiceConfig`, `Service`, `Failure`, `ServiceError`) is in
//! `kernel`; who speaks in `auth`; Argon2 ahead of the transaction in
//! `ahead`.
//!
//! A new mail command is two files and one line: its definition and parser
//! in `command/<name>.rs`, its act in `service/commands/<name>.rs` (an
//! `commands::Act` for its type), and its line in the one list
//! (`command::for_each_command`). What it must remember across one mail's
//! commands is a field of `MailCtx`.

mod account;
mod ahead;
mod answer;
mod auth;
mod board_mail;
mod bounces;
mod challenges;
pub mod charge;
mod clocks;
mod commands;
mod conditional;
mod confirm;
mod context;
mod deadlines;
mod dialogue;
mod ending;
mod event_rounds;
mod event_start;
mod journal;
mod kernel;
mod ladders;
mod limits;
mod passwords;
mod play;
mod prune;
mod queue;
mod ratings;
mod starts;
mod threading;

use crate::caught::panic_text;
use crate::domain::PlayerId;
use std::panic::{self, AssertUnwindSafe};

use rusqlite::Connection;
use time::OffsetDateTime;

use crate::mail::bounce::Verp;
use crate::mail::inbound::{Authenticated, Inbound};
use crate::mail::outgoing::Outgoing;
use crate::mail::token::TokenKey;
use crate::render::templates::Templates;
use crate::store::players;
use crate::store::{self, CachedStatements, Store, mailbox};
use charge::Payer;
use queue::{Replies, queue_all};

pub use context::SMALL_ANSWER_BYTES;
use context::{Answering, Ctx, MailCtx};
pub use deadlines::SweepReport;
use kernel::{Failure, refuse, variant_named};
pub use kernel::{Handled, Refusal, Service, ServiceConfig, ServiceError};
pub use passwords::PasswordCheck;
pub use prune::Pruned;

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
}

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
    let ctx = Ctx::new(tx, config, templates, key, now, Some(answering));
    let mut ctx = MailCtx::new(ctx, mail, &sender, passwords);
    let payer = establish_trust(&mut ctx)?;
    // The bill of the answers once checked against the ceilings; `None`:
    // the mail was not acted on as a whole (over a ceiling, too long, or
    // taken back).
    let checked = if stopped_at_a_ceiling(&mut ctx, &payer, over)? {
        None
    } else {
        run_within_ceilings(&mut ctx, &payer)?
    };
    record_login_outcomes(&mut ctx)?;
    // The answers checked above are what goes out, unless they were
    // replaced by a short error: then that is read.
    let not_acted_on = checked.is_none();
    let bill = match checked {
        Some(bill) => bill,
        None => charge::Bill::of(tx, &ctx.out)?,
    };
    charge::record(tx, &payer, &bill, now)?;
    confirm::record_outcomes(tx, &sender, &ctx.accounts.code_outcomes, now)?;
    let replies = ctx.out.len();
    journal::mail_handled(tx, &mail.message_id, &payer, &ctx.journal, replies)?;
    let outgoing = std::mem::take(&mut ctx.out);
    queue_all(tx, config, key, outgoing, now, queue)?;
    mailbox::mark_processed(tx, &mail.message_id, &sender, now)?;
    Ok(Handled::Processed {
        replies,
        refused: not_acted_on || ctx.refused,
    })
}

/// Trust: who pays for the mail's answers (the player it proves, or its
/// sender's address), and whether the sender is trusted with whole
/// answers (a confirmed address of that player; see `MailCtx::trusted`).
fn establish_trust(ctx: &mut MailCtx<'_>) -> Result<Payer, ServiceError> {
    let payer = match ctx.proven_player()? {
        Some(player) => Payer::Player(player),
        None => Payer::Address(ctx.sender.to_string()),
    };
    ctx.trusted = match (&payer, players::address_owner(ctx.conn, ctx.sender)?) {
        (Payer::Player(proven), Some(owner)) => *proven == owner,
        (Payer::Address(_), Some(_)) => true,
        (Payer::Pbem, _) | (_, None) => false,
    };
    Ok(payer)
}

/// Ceilings on mail in: whether the mail is not acted on at all, because
/// its sender passed a rate ceiling (`over`; only a mail that proves its
/// player goes on, so a flood, forged or not, never locks a player out of
/// a game), its player passed theirs (a password or token moves the charge
/// to the player's own budget, it never lifts the ceiling), or it is too
/// long. The sender is told, where telling is allowed.
fn stopped_at_a_ceiling(
    ctx: &mut MailCtx<'_>,
    payer: &Payer,
    over: Option<limits::Over>,
) -> Result<bool, ServiceError> {
    let (tx, config, now, message_id) = (ctx.conn, ctx.config, ctx.now, &ctx.mail.message_id);
    let player_over = match payer {
        Payer::Player(player) => {
            let key = format!("in:player:{}", player.0);
            store::limits::count_mail(tx, &key, now)? >= config.mails_per_player_per_hour
        }
        _ => false,
    };
    if let (Some(over), Payer::Address(_)) = (over, payer) {
        tracing::info!(message_id = %message_id, from = %ctx.sender, ?over, "mail over a rate ceiling is not answered");
        if over == limits::Over::Sender(config.mails_per_sender_per_hour) {
            ctx.short_error(&format!(
                "You sent more than {} within an hour. Further mails are ignored until the hour has passed (replies to board mails and commands with your password still work).",
                crate::render::count(config.mails_per_sender_per_hour, "mail")
            ))?;
        }
    } else if player_over {
        tracing::info!(message_id = %message_id, from = %ctx.sender, "mail over its player's hourly ceiling is not acted on");
        if ctx.trusted && charge::may_tell(tx, payer, now)? {
            ctx.short_error(&format!(
                "Your player sent more than {} within an hour. Further mails are not acted on until the hour has passed.",
                crate::render::count(config.mails_per_player_per_hour, "mail")
            ))?;
        }
    } else if ctx.mail.size > config.max_mail_bytes {
        ctx.short_error(&format!(
            "Your mail is {} bytes long; pbem reads mails of up to {} bytes. Please send your commands in a shorter, plain-text mail.",
            ctx.mail.size, config.max_mail_bytes
        ))?;
    } else {
        return Ok(false);
    }
    Ok(true)
}

/// Running: the mail's commands in a savepoint of their own, then the
/// ceilings on mail out (see `charge`): answers that would pass one take
/// the whole mail back, and a trusted sender is told. The answers' bill,
/// or `None` when the mail was taken back.
fn run_within_ceilings(
    ctx: &mut MailCtx<'_>,
    payer: &Payer,
) -> Result<Option<charge::Bill>, ServiceError> {
    let (tx, config, now) = (ctx.conn, ctx.config, ctx.now);
    tx.execute_cached("SAVEPOINT commands", [])?;
    ctx.run_mail()?;
    if !ctx.trusted {
        let answers = std::mem::take(&mut ctx.out);
        ctx.out = small_answers(ctx, answers)?;
    }
    let answers = charge::Bill::of(tx, &ctx.out)?;
    let Some(passed) = charge::check(tx, &config.sent, payer, &answers, now)? else {
        tx.execute_cached("RELEASE commands", [])?;
        return Ok(Some(answers));
    };
    if passed.total && ctx.game_actions_only && matches!(payer, Payer::Player(_)) {
        tx.execute_cached("RELEASE commands", [])?;
        return hold_back(ctx, payer).map(Some);
    }
    tx.execute_batch("ROLLBACK TO commands; RELEASE commands")?;
    ctx.out.clear();
    tracing::info!(
        message_id = %ctx.mail.message_id,
        from = %ctx.sender,
        ?passed,
        "a mail whose replies would pass a ceiling is taken back"
    );
    if ctx.trusted && charge::may_tell(tx, payer, now)? {
        ctx.short_error(&format!(
            "Nothing of your mail was done: its answers would pass the ceiling of {} per {} that pbem sends for {}. Send it again after {}.",
            crate::render::count(passed.ceiling, "mail"),
            passed.per,
            passed.whose,
            crate::render::readable_time(passed.until(now))
        ))?;
    }
    Ok(None)
}

/// A proven player's game actions over pbem's total ceiling alone (see
/// `charge`): they stand, their mails wait in the outbox for the first
/// hour with room, and the mover is told when they go by a notice sent at
/// once. The bill of it all, counted toward the total of that hour.
fn hold_back(ctx: &mut MailCtx<'_>, payer: &Payer) -> Result<charge::Bill, ServiceError> {
    let (tx, config, now) = (ctx.conn, ctx.config, ctx.now);
    let held = charge::Bill::of(tx, &ctx.out)?;
    let at = charge::next_room(tx, config.sent.total, &held, now)?;
    for mail in &mut ctx.out {
        mail.send_after = Some(at);
    }
    tracing::info!(
        message_id = %ctx.mail.message_id,
        from = %ctx.sender,
        ?payer,
        until = %store::time_text(at),
        "a mail's game actions are done; their mails wait for pbem's total ceiling"
    );
    let text = format!(
        "Your mail was done. pbem has sent as many mails this hour as it may ({} an hour in all), so the board mails it made wait and go out, in order, at {}.",
        config.sent.total.hour,
        crate::render::readable_time(at)
    );
    let notice = ctx.notice_to_sender("pbem mail held back", &text)?;
    ctx.out.push(notice);
    let mut bill = charge::Bill::of(tx, &ctx.out)?;
    bill.hold_total_until(at);
    Ok(bill)
}

/// The password throttle's record, outside the commands' savepoints: a
/// refused command still counts as a failed login.
fn record_login_outcomes(ctx: &mut MailCtx<'_>) -> Result<(), ServiceError> {
    for (userid, good) in std::mem::take(&mut ctx.login_outcomes) {
        let place = limits::failure_place(ctx.conn, &userid, ctx.sender)?;
        if good {
            store::limits::login_succeeded(ctx.conn, &userid, &place)?;
        } else {
            store::limits::login_failed(ctx.conn, &userid, &place, ctx.now)?;
        }
    }
    Ok(())
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
