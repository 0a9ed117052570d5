//! Rules questions through the server: answered by mail, and the rules as
//! the `pbem` command line prints them. The rules themselves (every
//! variant's bullets, the notation, the seed games, perft against slow
//! references) are tested in crates/pbem-rules, without the server.
//!
//! One test binary (each file a module); `cargo test --test rules by_mail::`
//! runs one file's tests.

mod by_mail;
mod chess960;
mod command_line;
mod thematic;
