//! What an operator runs: the command-line contract, `pbem backup`, upgrades
//! from released databases, and deadlines with the testable clock.
//!
//! One test binary, each file a module (`cargo test --test operations cli::`).

mod backup;
mod cli;
mod clocks;
mod day;
mod deadlines;
mod newcomer;
mod operator;
mod upgrade;
