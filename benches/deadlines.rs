//! The deadline sweep over 10,000 active boards (goal: under 100 ms), beside
//! a plain SQLite scan of the same rows measured in the same run.
//!
//! Boards are created through the store directly (the mail path is measured
//! by the service benchmark). Two sweeps are timed: the usual one, when no
//! deadline is due (what runs every five minutes), and one where 1% of the
//! boards get a reminder (each reminder renders a board mail).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use pbem::rules::Variant;
use pbem::service::{Service, ServiceConfig};
use pbem::store::Store;
use pbem::store::boards::{self, BoardOptions};
use pbem::store::{deadlines, players};
use time::macros::datetime;

const BOARDS: u32 = 10_000;

/// A database file with `count` active boards; 1% of them are old enough
/// for a reminder at the sweep time.
fn setup(count: u32) -> (tempfile::TempDir, Service) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let store = Store::open(&dir.path().join("pbem.sqlite3")).expect("database");
    let recent = datetime!(2026-03-10 12:00 UTC);
    let old = datetime!(2026-03-01 12:00 UTC);
    let tx = store.transaction().expect("transaction");
    let mut ids = Vec::new();
    for i in 0..200 {
        let address = format!("player{i}@example.org");
        ids.push(
            players::insert(
                &tx,
                &format!("player{i}"),
                "$argon2id$none",
                &[address],
                old,
            )
            .expect("player"),
        );
    }
    let options = BoardOptions {
        rated: true,
        days_per_turn: None,
        nag_days: 7,
        forfeit_days: 21,
        start_position: None,
        opening: None,
    };
    for n in 0..count {
        let (white, black) = (ids[(n % 200) as usize], ids[((n + 1) % 200) as usize]);
        let created = if n % 100 == 0 { old } else { recent };
        let number = boards::insert(&tx, Variant::Chess2, white, black, options.clone(), created)
            .expect("board");
        deadlines::set_to_move(&tx, number, white).expect("to move");
    }
    tx.commit().expect("commit");
    (
        dir,
        Service::new(store, ServiceConfig::default()).expect("service"),
    )
}

fn time_once(mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

fn main() {
    let measuring = std::env::args().any(|arg| arg == "--bench");
    let count = if measuring { BOARDS } else { 50 };
    let quiet_time = datetime!(2026-03-11 12:00 UTC);

    let mut criterion = Criterion::default().configure_from_args().sample_size(10);
    let (_dir, mut service) = setup(count);
    let mut quiet = Duration::MAX;
    let mut scan = Duration::MAX;
    criterion.bench_function("deadline-sweep-nothing-due", |b| {
        b.iter(|| {
            let elapsed = time_once(|| {
                black_box(service.sweep(quiet_time).expect("sweep"));
            });
            quiet = quiet.min(elapsed);
        })
    });
    criterion.bench_function("sqlite-scan-of-the-same-boards", |b| {
        b.iter(|| {
            let elapsed = time_once(|| {
                let conn = service.store().conn();
                let mut statement = conn
                    .prepare_cached("SELECT number, to_move_id, last_turn_at, nag_days FROM boards WHERE result IS NULL")
                    .expect("query");
                let rows: Vec<(u32, i64, String, u32)> = statement
                    .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))
                    .expect("rows")
                    .collect::<Result<_, _>>()
                    .expect("values");
                black_box(rows);
            });
            scan = scan.min(elapsed);
        })
    });
    criterion.final_summary();

    // One sweep in which 1% of the boards are due for a reminder.
    let (_dir2, mut busy_service) = setup(count);
    let mut reminders = 0;
    let busy = time_once(|| {
        reminders = busy_service
            .sweep(datetime!(2026-03-09 12:00 UTC))
            .expect("sweep")
            .reminders;
    });

    if measuring {
        println!("\n== pbem deadline benchmarks: summary ==");
        println!(
            "sweep over {count} active boards, nothing due: {quiet:.2?} (goal < 100 ms); a plain SQLite scan of the same rows: {scan:.2?}; ratio {:.1}x",
            quiet.as_secs_f64() / scan.as_secs_f64()
        );
        println!(
            "sweep over {count} active boards with {reminders} reminders to render and queue: {busy:.2?}"
        );
    }
}
