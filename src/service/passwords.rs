//! Passwords: stored only as salted Argon2id hashes (argon2 crate). Argon2 is
//! deliberately slow (about 17 ms a check), so the outcome of a check is
//! remembered in memory, keyed by a salted SHA-256 of the password and the
//! stored hash: later mails from a busy player stay fast, and the service
//! can check a batch's passwords before it takes the database's write lock
//! (see `Service::handle_batch`). A new hash (a new password) needs a new
//! check, since the key holds the hash.

use std::collections::HashMap;

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use sha2::{Digest, Sha256};

use crate::store::players::Player;

/// Hashes a new password.
pub fn hash(password: &str) -> Result<String, String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(|e| e.to_string())
}

/// Outcomes remembered at most; a flood of distinct logins cannot grow
/// the memory forever.
const REMEMBERED: usize = 100_000;

/// Verifies passwords, remembering the outcome of every check.
pub struct PasswordCheck {
    salt: [u8; 16],
    outcomes: HashMap<[u8; 32], bool>,
}

impl Default for PasswordCheck {
    fn default() -> PasswordCheck {
        let mut salt = [0u8; 16];
        // Without randomness the cache key is merely unsalted; still secret.
        getrandom::fill(&mut salt).ok();
        PasswordCheck {
            salt,
            outcomes: HashMap::new(),
        }
    }
}

impl PasswordCheck {
    /// Whether `password` is the player's password.
    pub fn verify(&mut self, player: &Player, password: &str) -> bool {
        let key = self.key(player, password);
        if let Some(&known) = self.outcomes.get(&key) {
            return known;
        }
        let ok = PasswordHash::new(&player.password_hash).is_ok_and(|stored| {
            Argon2::default()
                .verify_password(password.as_bytes(), &stored)
                .is_ok()
        });
        if self.outcomes.len() >= REMEMBERED {
            self.outcomes.clear();
        }
        self.outcomes.insert(key, ok);
        ok
    }

    /// Whether the outcome for this pair is remembered (no Argon2 needed).
    #[cfg(test)]
    pub(crate) fn knows(&self, player: &Player, password: &str) -> bool {
        self.outcomes.contains_key(&self.key(player, password))
    }

    fn key(&self, player: &Player, password: &str) -> [u8; 32] {
        Sha256::new()
            .chain_update(self.salt)
            .chain_update(player.password_hash.as_bytes())
            .chain_update([0])
            .chain_update(password.as_bytes())
            .finalize()
            .into()
    }
}
