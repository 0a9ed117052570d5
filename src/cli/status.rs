//! `pbem status`: how mail is flowing, for the operator. The outbox depth,
//! the mails held in back-off and why, the mails given up (to a failing
//! address, with no working one), the failing addresses, when mail
//! last came in and went out, and the last errors. Reads the database only
//! (`store::delivery`), so it works while the server runs.

use std::fmt::Write;
use std::path::Path;

use time::OffsetDateTime;

use super::{CliError, serve};
use crate::store::{Store, delivery, time_text};

/// Held mails, and mails given up, listed at most.
const HELD_SHOWN: u32 = 20;

/// The report, with the configuration loaded in full as the server loads
/// it: a mistake in it (what `pbem process` exits 75 for) is printed in
/// full, after the report of the database if there is one.
pub fn run(data_dir: &Path, config: Option<&Path>) -> Result<(), CliError> {
    let loaded = serve::config(data_dir, config).map(|_| ());
    let database = serve::database(data_dir, config)?;
    if !database.is_file() {
        loaded?;
        return Err(CliError::Input(format!(
            "there is no database at {}; check --data-dir, --config and its `database` key, or make it with `pbem init`",
            database.display()
        )));
    }
    let store = Store::open(&database)
        .map_err(|e| CliError::Server(format!("cannot open {}: {e}", database.display())))?;
    let text = report(&store).map_err(|e| CliError::Server(e.to_string()))?;
    print!("{text}");
    loaded
}

fn when(time: Option<OffsetDateTime>) -> String {
    time.map_or_else(|| "never".to_string(), time_text)
}

/// The status report of the database in `store`.
pub fn report(store: &Store) -> Result<String, crate::store::StoreError> {
    let conn = store.conn();
    let mut out = String::new();
    let (depth, oldest) = delivery::outbox_depth(conn)?;
    let _ = writeln!(out, "outbox: {depth} unsent");
    if let Some(oldest) = oldest {
        let _ = writeln!(out, "  oldest queued at {}", time_text(oldest));
    }
    let held = delivery::held_mails(conn, HELD_SHOWN)?;
    let _ = writeln!(out, "held in back-off: {}", held.len());
    for mail in &held {
        let _ = writeln!(
            out,
            "  #{} to {} (queued {}, {} tries, next {}): {}",
            mail.outbox_id,
            mail.recipients.join(", "),
            time_text(mail.queued_at),
            mail.attempts,
            when(mail.retry_at),
            mail.last_error
        );
    }
    let (given_up, shown) = delivery::given_up_mails(conn, HELD_SHOWN)?;
    let _ = writeln!(out, "given up: {given_up}");
    for mail in &shown {
        let _ = writeln!(
            out,
            "  #{} to {} ({}): {}",
            mail.outbox_id,
            mail.recipients.join(", "),
            time_text(mail.given_up_at),
            mail.why
        );
    }
    let failing = delivery::failing_addresses(conn)?;
    let _ = writeln!(out, "failing addresses: {}", failing.len());
    for (health, userid) in &failing {
        let _ = writeln!(
            out,
            "  {} ({}) since {}, last bounce {}: {}",
            health.address,
            userid.as_deref().unwrap_or("no player"),
            time_text(health.since),
            time_text(health.last_at),
            health.diagnostic.as_deref().unwrap_or("no diagnostic")
        );
    }
    let _ = writeln!(out, "last inbound: {}", when(delivery::last_inbound(conn)?));
    let _ = writeln!(
        out,
        "last outbound: {}",
        when(delivery::last_outbound(conn)?)
    );
    let _ = writeln!(
        out,
        "last sweep: {}",
        delivery::last_sweep(conn)?.as_deref().unwrap_or("never")
    );
    let errors = delivery::last_errors(conn)?;
    if errors.is_empty() {
        let _ = writeln!(out, "last errors: none");
    } else {
        let _ = writeln!(out, "last errors:");
        for (kind, text) in errors {
            let _ = writeln!(out, "  {kind}: {text}");
        }
    }
    Ok(out)
}
