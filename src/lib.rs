//! pbem: a play-by-email server for chess and its double-move variants.
//!
//! Mail flows one way: mail in, parse, command, service, store and outbox,
//! mail out. This crate holds each layer:
//!
//! * [`rules`]: pure game logic for every variant (no I/O);
//! * [`render`]: what players read: boards, move lists, legal-move summaries;
//! * [`cli`]: the `pbem` command line.

pub mod cli;
pub mod render;
pub mod rules;
