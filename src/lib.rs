//! pbem: a play-by-email server for chess and its double-move variants.
//!
//! Mail flows one way: mail in, parse, command, service, store and outbox,
//! mail out. One module per layer:
//!
//! * [`rules`]: pure game logic for every variant (no I/O);
//! * [`command`]: a line of mail text to a typed command;
//! * [`service`]: a mail's commands against the store, replies into the
//!   outbox, in one transaction;
//! * [`store`]: everything kept, in SQLite;
//! * [`ratings`]: Glicko-2 ratings per player and variant (pure, no I/O);
//! * [`render`]: what players read: boards, summaries, mail templates;
//! * [`mail`]: inbound mail, reply tokens, the Maildir and outbound transports;
//! * [`schedule`]: deadlines (reminders, losses on time) and their cron schedule;
//! * [`tournament`]: events: Berger tables, crosstables and tiebreaks (no I/O);
//! * [`server`] and [`config`]: wiring the transports to the service;
//! * [`cli`]: the `pbem` command line.

pub mod cli;
pub mod command;
pub mod config;
pub mod mail;
pub mod pairing;
pub mod ratings;
pub mod render;
pub mod rules;
pub mod schedule;
pub mod server;
pub mod service;
pub mod store;
pub mod tournament;
