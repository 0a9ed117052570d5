//! Events and ratings: round robins, cups, ladders and a Swiss played
//! whole by mail, and ratings by mail. (The Berger tables against FIDE's
//! are checked in crates/pbem-tournament's own tests.)
//!
//! One test binary, each file a module (`cargo test --test tournament swiss::`).

mod chess960;
mod cups;
mod ladder;
mod ratings_by_mail;
mod round_robin;
mod startmail;
mod swiss;
mod thematic;
