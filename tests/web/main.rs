//! The spectators' web site: every route of a server that played a game
//! and an event by mail, what no page may show, and Chromium's view.
//!
//! One test binary, each file a module (`cargo test --test web site::`).

mod browser;
mod budget;
mod events;
mod pgn;
mod privacy;
mod readers;
mod site;
mod slow;
