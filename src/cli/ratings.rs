//! `pbem ratings [--rebuild] [VARIANT]`: print the standings, or replay
//! every rated result in order and make the stored ratings exactly the
//! replay's (how a change of rating parameters is applied; on a database
//! whose ratings are right, it changes nothing).

use std::path::Path;

use super::{CliError, serve};
use crate::reader::variant_sections;
use crate::rules::Variant;
use crate::server::TimeSource;
use crate::store::{Store, ratings};

pub fn run(
    data_dir: &Path,
    config: Option<&Path>,
    now: Option<&str>,
    rebuild: bool,
    variant: Option<Variant>,
) -> Result<(), CliError> {
    let database = serve::database(data_dir, config)?;
    let now = match serve::time_source(now)? {
        TimeSource::Fixed(time) => time,
        TimeSource::System => time::OffsetDateTime::now_utc(),
    };
    if !database.is_file() {
        return Err(CliError::Input(format!(
            "there is no database at {}; check --data-dir, --config and its `database` key",
            database.display()
        )));
    }
    let failed = |e: crate::store::StoreError| CliError::Server(e.to_string());
    let store = Store::open(&database).map_err(failed)?;
    if rebuild {
        let started = std::time::Instant::now();
        let tx = store.transaction().map_err(failed)?;
        let done = ratings::rebuild(&tx, variant).map_err(failed)?;
        tx.commit().map_err(failed)?;
        println!(
            "replayed {} rated games into {} ratings in {:.3} s",
            done.games,
            done.ratings,
            started.elapsed().as_secs_f64()
        );
        if done.unchanged() {
            println!("unchanged: the stored ratings were exactly the replay's");
        } else {
            println!(
                "written: {} ratings changed, {} removed; {} rated games changed, {} removed",
                done.ratings_changed, done.ratings_removed, done.games_changed, done.games_removed
            );
        }
        return Ok(());
    }
    let variants = match variant {
        Some(variant) => vec![variant],
        None => ratings::variants(store.conn()).map_err(failed)?,
    };
    if variants.is_empty() {
        println!("No rated games yet.");
    }
    for variant in variants {
        println!("{} ratings", variant.display_name());
        let sections = variant_sections(store.conn(), variant, now, usize::MAX).map_err(failed)?;
        for (title, table) in sections {
            println!("\n{title}");
            print!("{table}");
        }
        println!();
    }
    Ok(())
}
