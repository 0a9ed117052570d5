//! Argon2 ahead of the transaction: the passwords of a batch's commands
//! are checked (and a signup's or a new password's hash made) before the
//! batch takes the database's write lock, so that a batch of first logins
//! (about 17 ms each) does not keep the outbox sender, the deadline sweep
//! and `pbem process` waiting. Only the outcomes are kept, in
//! [`PasswordCheck`]; the commands check everything again.

use time::OffsetDateTime;

use super::auth::LOGINS_PER_MAIL;
use super::kernel::{Service, ServiceError};
use super::limits;
use crate::command::reading::strip_reply_prefixes;
use crate::command::{self, Command, Password, Speaker};
use crate::mail::inbound::Inbound;
use crate::store::players;

impl Service {
    /// Checks the passwords of the mails' commands before the batch takes
    /// the database's write lock, so that a batch of first logins (Argon2,
    /// about 17 ms each) does not keep the outbox sender, the deadline
    /// sweep and `pbem process` waiting. Only the outcomes are kept, for
    /// the commands to find; a password this pass misses is simply checked
    /// when its command runs. The new password of a mail's first `signup`,
    /// and of a `password` command whose old password is right (or whose
    /// reply token proves its player), is hashed here too, at most one of
    /// each per mail (a mail acts on one signup).
    pub(super) fn check_passwords_ahead(
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
                if let Command::Password(Password::Change { speaker, new }) = &line.command
                    && *speaker == Speaker::Token
                    && !new_password_seen
                    && new.chars().count() >= self.config.min_password_length
                    && self.token_proves_sender(mail)
                {
                    new_password_seen = true;
                    self.passwords.prepare_hash(new);
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
                if let Command::Password(Password::Change { new, .. }) = &line.command
                    && right
                    && !std::mem::replace(&mut new_password_seen, true)
                    && new.chars().count() >= self.config.min_password_length
                {
                    self.passwords.prepare_hash(new);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::passwords;
    use crate::service::{Service, ServiceConfig};
    use crate::store::Store;

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
