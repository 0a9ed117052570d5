//! The rules of every variant: the rule pages' bullets one by one, the
//! notation, the seed games, and perft against independent slow
//! references; all through this crate's API alone, so
//! `cargo test -p pbem-rules` builds no server. (How the server's mail
//! and command line use the rules is tested in its own `tests/rules/`.)
//!
//! One test binary (each file a module) so the suite links once instead
//! of once per file; `cargo test -p pbem-rules --test rules chess2::` runs
//! one file's tests.

mod chess2;
mod chess960;
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
