//! Passwords: stored only as salted Argon2id hashes (argon2 crate). Argon2 is
//! deliberately slow, so a correct userid/password pair, once verified, is
//! remembered in memory (keyed by a salted SHA-256 of the password and the
//! stored hash) and later mails from a busy player stay fast.

use std::collections::HashSet;

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

/// Verifies passwords, remembering pairs already verified.
pub struct PasswordCheck {
    salt: [u8; 16],
    verified: HashSet<[u8; 32]>,
}

impl Default for PasswordCheck {
    fn default() -> PasswordCheck {
        let mut salt = [0u8; 16];
        // Without randomness the cache key is merely unsalted; still secret.
        getrandom::fill(&mut salt).ok();
        PasswordCheck {
            salt,
            verified: HashSet::new(),
        }
    }
}

impl PasswordCheck {
    /// Whether `password` is the player's password.
    pub fn verify(&mut self, player: &Player, password: &str) -> bool {
        let key: [u8; 32] = Sha256::new()
            .chain_update(self.salt)
            .chain_update(player.password_hash.as_bytes())
            .chain_update([0])
            .chain_update(password.as_bytes())
            .finalize()
            .into();
        if self.verified.contains(&key) {
            return true;
        }
        let Ok(stored) = PasswordHash::new(&player.password_hash) else {
            return false;
        };
        let ok = Argon2::default()
            .verify_password(password.as_bytes(), &stored)
            .is_ok();
        if ok {
            // Bounded: a flood of distinct logins cannot grow it forever.
            if self.verified.len() > 100_000 {
                self.verified.clear();
            }
            self.verified.insert(key);
        }
        ok
    }
}
