//! The FIDE Dutch pairing engine: agreement with the endorsed bbpPairings on
//! thousands of random tournaments, and single pairings with known answers.
//!
//! One test binary, each file a module (`cargo test --test pairing cases::`).

mod agreement;
mod cases;
