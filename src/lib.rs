//! pbem: a play-by-email server for chess and its double-move variants.
//!
//! Mail flows one way: mail in, parse, command, service, store and outbox,
//! mail out. One module per layer; the four without I/O are crates of their
//! own in the workspace (`crates/`), which pbem depends on and which never
//! depend on pbem, re-exported here under their module names:
//!
//! * [`rules`] (crate `pbem-rules`): pure game logic for every variant;
//! * [`domain`]: the values the layers share (player ids, board numbers, preference
//!   choices, clocks, vacations), without I/O;
//! * [`command`]: a line of mail text to a typed command;
//! * [`service`]: a mail's commands against the store, replies into the
//!   outbox, in one transaction;
//! * [`store`]: everything kept, in SQLite;
//! * [`reader`]: who may see what of a board or an event, for the mail
//!   commands and the web alike;
//! * [`ratings`] (crate `pbem-ratings`): Glicko-2 ratings per player and
//!   variant;
//! * [`openings`]: the table of named chess openings for thematic starts;
//! * [`render`]: what players read: boards, summaries, mail templates;
//! * [`mail`]: inbound mail, reply tokens, the Maildir and outbound transports;
//! * [`schedule`]: deadlines (reminders, losses on time) and their cron schedule;
//! * [`tournament`] (crate `pbem-tournament`): events: Berger tables,
//!   crosstables and tiebreaks;
//! * [`pairing`] (crate `pbem-pairing`): Swiss pairings by the FIDE Dutch
//!   system, and the TRF;
//! * [`server`] and [`config`]: wiring the transports to the service;
//! * [`web`]: the spectators' read-only web site, served by `pbem serve`;
//! * [`cli`]: the `pbem` command line.

pub mod caught;
pub mod cli;
pub mod command;
pub mod config;
pub mod domain;
#[cfg(test)]
mod layers;
pub mod mail;
pub mod metrics;
pub mod openings;
pub mod reader;
pub mod render;
pub mod schedule;
pub mod server;
pub mod service;
pub mod store;
pub mod web;

// The pure libraries are crates of their own (crates/), re-exported under
// the module names the rest of pbem has always used.
pub use pbem_pairing as pairing;
pub use pbem_ratings as ratings;
pub use pbem_rules as rules;
pub use pbem_tournament as tournament;
