//! The rules of every variant: the rule pages' bullets one by one, the
//! notation, the seed games, perft against independent slow references,
//! and rules questions answered by mail.
//!
//! One test binary (each file a module) so the suite links a handful of
//! binaries instead of one per file; `cargo test --test rules chess2::` runs
//! one file's tests.

mod by_mail;
mod chess2;
mod common;
mod common_ground;
mod doublemove;
mod doublestep;
mod extramove;
mod marseillais;
mod notation;
mod perft_chess;
mod perft_compare;
mod perft_reference;
mod perft_reference_moves;
mod reference;
mod reference_moves;
mod seed_games;
mod settled;
mod twinmove;
