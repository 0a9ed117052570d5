//! Every mail is hostile: accounts, challenges, the charge model, each
//! command's definition, events, replies, the hardening findings, hostile
//! load, the masking of passwords (and only passwords), robustness, the
//! crash test (SIGKILL at random points) and the fuzz suite.
//!
//! One test binary, each file a module (`cargo test --test safety crash::`).

mod accounts;
mod challenges;
mod charge;
mod commands;
mod crash;
mod events;
mod fuzz;
mod hardening;
mod hostile;
mod hostile_load;
mod masking;
mod replies;
mod robust;
