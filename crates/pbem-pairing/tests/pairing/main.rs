//! The FIDE Dutch pairing engine: agreement with the endorsed bbpPairings on
//! thousands of random tournaments, and single pairings with known answers.
//! bbpPairings itself is not needed: its pairings are committed data
//! (`tests/data/`, made by the repository's `scripts/pairing-data*.sh`).
//!
//! One test binary, each file a module
//! (`cargo test -p pbem-pairing --test pairing cases::`).

mod agreement;
mod cases;
