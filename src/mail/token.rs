//! Reply tokens: every board mail goes out with a Reply-To of the form
//! `local+<board>.<player>.<mac>@domain`, where the MAC is an HMAC-SHA256 of
//! board and player under a server secret. A reply to that address, from
//! one of the player's addresses, speaks for the player on that board.
//! Mails about no board (a tournament's) carry a token of board
//! [`NOT_A_BOARD`]: a reply to one speaks for the player in commands that
//! name no board.
//!
//! A password reset mail carries a token of its own, `r<reset>.<player>.<mac>`
//! (under a MAC kept apart from the reply tokens'): it names the reset
//! (a stored row, used once and valid a day) and the player, and speaks for
//! nothing but setting that player's password.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::store::players::PlayerId;

/// The board of a token in a mail about no board (board numbers start
/// at 101).
pub const NOT_A_BOARD: u32 = 0;

/// Hex digits of the MAC kept in a token (64 bits: forging one takes far
/// more mails than the rate limit allows).
const MAC_HEX_LEN: usize = 16;

/// The shortest text secret accepted (other than 64 hex digits).
pub const MIN_SECRET_CHARS: usize = 32;
/// The fewest different characters a secret must have.
pub const MIN_DISTINCT_CHARS: usize = 10;

/// The server secret behind reply tokens.
#[derive(Clone)]
pub struct TokenKey([u8; 32]);

impl std::fmt::Debug for TokenKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenKey(..)")
    }
}

impl TokenKey {
    /// A new random key.
    pub fn generate() -> Result<TokenKey, getrandom::Error> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key)?;
        Ok(TokenKey(key))
    }

    /// A key from 64 hex digits (32 bytes, as `openssl rand -hex 32` gives),
    /// or any other text of at least [`MIN_SECRET_CHARS`] characters
    /// (hashed to a key). A guessable secret is refused: one with fewer than
    /// [`MIN_DISTINCT_CHARS`] different characters (`aaaa...`, `abababab...`,
    /// `0000...`), since whoever guesses it can make reply tokens.
    pub fn from_text(text: &str) -> Option<TokenKey> {
        let text = text.trim();
        let mut distinct: Vec<char> = text.chars().collect();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() < MIN_DISTINCT_CHARS {
            return None;
        }
        if let Some(bytes) = decode_hex(text)
            && let Ok(key) = <[u8; 32]>::try_from(bytes.as_slice())
        {
            return Some(TokenKey(key));
        }
        (text.chars().count() >= MIN_SECRET_CHARS).then(|| {
            use sha2::Digest;
            TokenKey(Sha256::digest(text.as_bytes()).into())
        })
    }

    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    fn mac(&self, board: u32, player: PlayerId) -> Hmac<Sha256> {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes keys of any length");
        mac.update(format!("pbem reply token\0{board}\0{}", player.0).as_bytes());
        mac
    }

    /// An HMAC under this key for another use than reply tokens (the bounce
    /// addresses of [`super::bounce`]): `purpose`, written first, keeps each
    /// use's MACs apart from the others'.
    pub(super) fn mac_for(&self, purpose: &str) -> Hmac<Sha256> {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes keys of any length");
        mac.update(purpose.as_bytes());
        mac.update(b"\0");
        mac
    }

    /// The token for `player` on `board`.
    pub fn token(&self, board: u32, player: PlayerId) -> String {
        let tag = self.mac(board, player).finalize().into_bytes();
        let mut digits = hex(&tag);
        digits.truncate(MAC_HEX_LEN);
        format!("{board}.{}.{digits}", player.0)
    }

    /// The board and player a token names, if its MAC is right.
    pub fn verify(&self, token: &str) -> Option<(u32, PlayerId)> {
        let mut parts = token.split('.');
        let board: u32 = parts.next()?.parse().ok()?;
        let player = PlayerId(parts.next()?.parse().ok()?);
        let digits = parts.next()?;
        if parts.next().is_some() || digits.len() != MAC_HEX_LEN {
            return None;
        }
        let tag = decode_hex(&digits.to_ascii_lowercase())?;
        self.mac(board, player).verify_truncated_left(&tag).ok()?;
        Some((board, player))
    }
}

impl TokenKey {
    fn reset_mac(&self, reset: i64, player: PlayerId) -> Hmac<Sha256> {
        let mut mac = self.mac_for("pbem password reset");
        mac.update(format!("{reset}\0{}", player.0).as_bytes());
        mac
    }

    /// The token of password reset `reset` of `player`.
    pub fn reset_token(&self, reset: i64, player: PlayerId) -> String {
        let mut digits = hex(&self.reset_mac(reset, player).finalize().into_bytes());
        digits.truncate(MAC_HEX_LEN);
        format!("r{reset}.{}.{digits}", player.0)
    }

    /// The reset and player a reset token names, if its MAC is right.
    pub fn verify_reset(&self, token: &str) -> Option<(i64, PlayerId)> {
        let mut parts = token.split('.');
        let first = parts.next()?;
        let reset: i64 = first
            .strip_prefix('r')
            .or_else(|| first.strip_prefix('R'))?
            .parse()
            .ok()?;
        let player = PlayerId(parts.next()?.parse().ok()?);
        let digits = parts.next()?;
        if parts.next().is_some() || digits.len() != MAC_HEX_LEN {
            return None;
        }
        let tag = decode_hex(&digits.to_ascii_lowercase())?;
        self.reset_mac(reset, player)
            .verify_truncated_left(&tag)
            .ok()?;
        Some((reset, player))
    }
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub(super) fn decode_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_verifies_and_a_changed_one_does_not() {
        let key = TokenKey::generate().expect("randomness");
        let token = key.token(101, PlayerId(7));
        assert_eq!(key.verify(&token), Some((101, PlayerId(7))));
        assert_eq!(
            key.verify(&token.to_uppercase()),
            Some((101, PlayerId(7))),
            "case-folding MTAs"
        );
        let forged = token.replacen("101.", "102.", 1);
        assert_eq!(key.verify(&forged), None, "another board");
        let other = TokenKey::generate().expect("randomness");
        assert_eq!(other.verify(&token), None, "another server");
        for junk in ["", "101", "101.7", "101.7.zz", "101.7.00.00", "x.y.z"] {
            assert_eq!(key.verify(junk), None, "{junk}");
        }
    }

    #[test]
    fn a_reset_token_is_no_reply_token_and_the_other_way_round() {
        let key = TokenKey::generate().expect("randomness");
        let reset = key.reset_token(5, PlayerId(7));
        assert_eq!(key.verify_reset(&reset), Some((5, PlayerId(7))));
        assert_eq!(
            key.verify_reset(&reset.to_uppercase()),
            Some((5, PlayerId(7)))
        );
        assert_eq!(key.verify(&reset), None);
        assert_eq!(key.verify(reset.trim_start_matches('r')), None);
        assert_eq!(
            key.verify_reset(&format!("r{}", key.token(5, PlayerId(7)))),
            None
        );
        assert_eq!(key.verify_reset(&reset.replacen("r5.", "r6.", 1)), None);
    }

    #[test]
    fn keys_round_trip_through_hex() {
        let key = TokenKey::generate().expect("randomness");
        let again = TokenKey::from_text(&key.to_hex()).expect("hex key");
        assert_eq!(again.token(101, PlayerId(1)), key.token(101, PlayerId(1)));
        assert!(TokenKey::from_text("short").is_none());
    }

    #[test]
    fn weak_secrets_are_refused() {
        for weak in [
            "0123456789abcdef".to_string(),
            "a".repeat(64),
            "0".repeat(64),
            "ab".repeat(32),
            "passwordpassword".to_string(),
            "correct horse battery".to_string(),
        ] {
            assert!(TokenKey::from_text(&weak).is_none(), "{weak} is accepted");
        }
        for strong in [
            "0123456789abcdef0123456789abcdef",
            "d4f1c2a9e8b7065f3a2c1d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a",
            "the lights of Reykjavik blink at 4 am",
        ] {
            assert!(TokenKey::from_text(strong).is_some(), "{strong} is refused");
        }
    }
}
