//! Passwords: stored only as salted Argon2id hashes (argon2 crate). Argon2 is
//! deliberately slow (about 17 ms a check), so the outcome of a check is
//! remembered in memory, keyed by a salted SHA-256 of the password and the
//! stored hash: later mails from a busy player stay fast, and the service
//! can check a batch's passwords before it takes the database's write lock
//! (see `Service::handle_batch`). A new hash (a new password) needs a new
//! check, since the key holds the hash.
//!
//! New passwords (`signup`, `password`) are hashed before the batch's
//! transaction too: the hashes wait here, by a salted SHA-256 of the
//! password, for the command to take; one not made ahead is made when the
//! command runs.

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
    /// Hashes of new passwords made ahead of a batch, each taken once.
    ready: HashMap<[u8; 32], String>,
}

impl Default for PasswordCheck {
    fn default() -> PasswordCheck {
        let mut salt = [0u8; 16];
        // Without randomness the cache key is merely unsalted; still secret.
        getrandom::fill(&mut salt).ok();
        PasswordCheck {
            salt,
            outcomes: HashMap::new(),
            ready: HashMap::new(),
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

    /// Hashes `password` ahead of the transaction that stores it (once,
    /// however often the batch asks).
    pub fn prepare_hash(&mut self, password: &str) {
        let key = self.new_password_key(password);
        if !self.ready.contains_key(&key)
            && let Ok(hash) = hash(password)
        {
            self.ready.insert(key, hash);
        }
    }

    /// The hash to store for a new `password`: the one made ahead, or else
    /// a new one. Each hash made ahead is taken once, so two players with
    /// the same password never share a salt.
    pub fn new_hash(&mut self, password: &str) -> Result<String, String> {
        let key = self.new_password_key(password);
        match self.ready.remove(&key) {
            Some(hash) => Ok(hash),
            None => hash(password),
        }
    }

    /// Forgets the hashes made ahead that no command took (the batch is
    /// over).
    pub fn forget_ready_hashes(&mut self) {
        self.ready.clear();
    }

    /// The hash made ahead for `password`, if one waits.
    #[cfg(test)]
    pub(crate) fn ready_hash(&self, password: &str) -> Option<&str> {
        self.ready
            .get(&self.new_password_key(password))
            .map(String::as_str)
    }

    /// Whether the outcome for this pair is remembered (no Argon2 needed).
    #[cfg(test)]
    pub(crate) fn knows(&self, player: &Player, password: &str) -> bool {
        self.outcomes.contains_key(&self.key(player, password))
    }

    fn new_password_key(&self, password: &str) -> [u8; 32] {
        Sha256::new()
            .chain_update(self.salt)
            .chain_update(b"new password\0")
            .chain_update(password.as_bytes())
            .finalize()
            .into()
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
