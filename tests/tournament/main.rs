//! Events and ratings: the Berger tables, round robins and a Swiss played
//! whole by mail, and ratings by mail.
//!
//! One test binary, each file a module (`cargo test --test tournament swiss::`).

mod berger;
mod cups;
mod ladder;
mod ratings_by_mail;
mod round_robin;
mod startmail;
mod swiss;
