//! Mail in and out: the service end to end through the real Maildir, SQLite
//! file and outbox, the dialogue, replies in the layouts mail clients write,
//! board pictures (and Chromium's view of them), and pbem against real IMAP
//! and SMTP servers.
//!
//! One test binary, each file a module (`cargo test --test mail network::`).

mod accounts;
mod bounces;
mod chromium;
mod conditional;
mod dialogue;
mod e2e;
mod everyday;
mod inbound;
mod mailhtml;
mod network;
mod note;
mod pictures;
mod postfix;
mod refusals;
mod reply_fixtures;
mod reply_layouts;
mod servers;
mod words;
