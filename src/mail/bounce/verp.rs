//! VERP bounce addresses: the envelope sender that names a mail pbem
//! sent, signed so only pbem can make one (see the parent module).

use hmac::Mac;
use time::{Date, Duration, OffsetDateTime};

use super::{FUTURE_SLACK, MAC_HEX_LEN, MAX_TOKEN_AGE, PURPOSE, TOKEN_MARK};
use crate::mail::ServerAddress;
use crate::mail::token::{TokenKey, decode_hex, hex};

/// One mail pbem sent, as its bounce address names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SentMail {
    /// Its id in the outbox.
    pub outbox_id: i64,
    /// The day it was sent (UTC).
    pub sent_on: Date,
}

/// The server's bounce address and the key its VERP addresses are signed
/// with.
#[derive(Clone, Debug)]
pub struct Verp {
    pub(super) address: ServerAddress,
    key: TokenKey,
}

impl Verp {
    /// Bounce addresses `address.local+<token>@address.domain` signed with
    /// `key` (the reply tokens' key: one secret for the server).
    pub fn new(address: ServerAddress, key: TokenKey) -> Verp {
        Verp { address, key }
    }

    /// The envelope sender of `mail`.
    pub fn sender(&self, mail: SentMail) -> String {
        let day = unix_day(mail.sent_on);
        let tag = self.mac(mail.outbox_id, day).finalize().into_bytes();
        let mut digits = hex(&tag);
        digits.truncate(MAC_HEX_LEN);
        self.address
            .with_token(&format!("{TOKEN_MARK}{}.{day}.{digits}", mail.outbox_id))
    }

    /// The mail `address` names, if it is one of [`Verp::sender`]'s (its
    /// MAC verifies; case does not matter, since some mail systems fold
    /// it) and no older than [`MAX_TOKEN_AGE`] on `today`.
    pub fn read(&self, address: &str, today: Date) -> Option<SentMail> {
        let address = address.trim().trim_start_matches('<').trim_end_matches('>');
        let token = self.address.token_of(address)?;
        let token = token
            .strip_prefix(TOKEN_MARK)
            .or_else(|| token.strip_prefix(TOKEN_MARK.to_ascii_uppercase()))?;
        let mut parts = token.split('.');
        let outbox_id: i64 = digits(parts.next()?, 19)?.parse().ok()?;
        // Seven digits reach past the last day `time` knows (year 9999).
        let day: i64 = digits(parts.next()?, 7)?.parse().ok()?;
        let mac = parts.next()?;
        if parts.next().is_some() || mac.len() != MAC_HEX_LEN {
            return None;
        }
        let tag = decode_hex(&mac.to_ascii_lowercase())?;
        self.mac(outbox_id, day).verify_truncated_left(&tag).ok()?;
        let sent_on = OffsetDateTime::UNIX_EPOCH
            .date()
            .checked_add(Duration::days(day))?;
        let age = today - sent_on;
        (age <= MAX_TOKEN_AGE && age >= -FUTURE_SLACK).then_some(SentMail { outbox_id, sent_on })
    }

    fn mac(&self, outbox_id: i64, day: i64) -> hmac::Hmac<sha2::Sha256> {
        let mut mac = self.key.mac_for(PURPOSE);
        mac.update(format!("{outbox_id}\0{day}").as_bytes());
        mac
    }
}

/// Days since 1970-01-01.
fn unix_day(date: Date) -> i64 {
    (date - OffsetDateTime::UNIX_EPOCH.date()).whole_days()
}

/// `text` if it is a number as [`Verp::sender`] writes it: at most `max`
/// ASCII digits (short enough that no arithmetic on it overflows), no
/// sign, no spaces, no leading zero (one spelling per number).
fn digits(text: &str, max: usize) -> Option<&str> {
    (!text.is_empty()
        && text.len() <= max
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0')))
    .then_some(text)
}
