//! Conditional moves benchmark (issue 26): what playing a conditional
//! answer costs, against playing the same turn by mail, through the whole
//! service (the real Maildir, SQLite file and `.eml` outbox of
//! `pbem_testkit::Harness`, one server pass a mail).
//!
//! Each round opens a new chess board between Alice and Bob (Alice plays
//! 1.e4 in the challenge's mail; not timed) and then either
//!
//! - by mail: Bob's mail `e5` (timed, "Bob's turn"), then Alice's mail
//!   `Nf3` (timed, "the answer by mail"); or
//! - conditional: Alice gave the line `if <board> ... e5 Nf3` with her
//!   first turn; Bob's mail `e5` (timed) is answered with 2.Nf3 in its
//!   own handling.
//!
//! The conditional answer's cost is Bob's mail with the answer less Bob's
//! mail alone; the goal is that it costs no more than the answer by mail.
//! Bob resigns each board after the round (not timed), so the number of
//! games in progress stays small. Medians of the rounds are printed.
//!
//! Under `cargo test --all-targets` (no `--bench`) it runs two rounds of
//! each, as a check that it works.

use std::time::{Duration, Instant};

use pbem_testkit::{ALICE, BOB, Harness};

fn main() {
    let benching = std::env::args().any(|arg| arg == "--bench");
    let rounds = if benching { 40 } else { 2 };
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let mut board = 100;
    let (mut bob_alone, mut answer_by_mail, mut bob_with_answer) =
        (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        for conditional in [false, true] {
            board += 1;
            let mut opening =
                format!("challenge alice alice-pw bob --white\nmove {board} alice alice-pw e4");
            if conditional {
                opening.push_str(&format!("\nif {board} alice alice-pw e5 Nf3"));
            }
            h.send(ALICE, "new game", &opening);
            let (elapsed, mails) =
                timed(|| h.send(BOB, "turn", &format!("move {board} bob bob-pw e5")));
            let answered = mails.iter().any(|m| m.body.contains("2.Nf3"));
            assert_eq!(answered, conditional, "{mails:#?}");
            if conditional {
                bob_with_answer.push(elapsed);
            } else {
                bob_alone.push(elapsed);
                let (elapsed, mails) =
                    timed(|| h.send(ALICE, "turn", &format!("move {board} alice alice-pw Nf3")));
                assert!(mails.iter().any(|m| m.body.contains("2.Nf3")), "{mails:#?}");
                answer_by_mail.push(elapsed);
            }
            h.send(BOB, "resign", &format!("resign {board} bob bob-pw"));
        }
    }
    let (alone, by_mail, with_answer) = (
        median(&mut bob_alone),
        median(&mut answer_by_mail),
        median(&mut bob_with_answer),
    );
    let conditional = with_answer.saturating_sub(alone);
    println!(
        "conditional: {rounds} rounds, medians: Bob's turn by mail {:.2} ms; with Alice's conditional answer played in it {:.2} ms, so the answer costs {:.2} ms; the same answer by mail {:.2} ms (ratio {:.2}; goal: at most 1)",
        ms(alone),
        ms(with_answer),
        ms(conditional),
        ms(by_mail),
        conditional.as_secs_f64() / by_mail.as_secs_f64().max(f64::MIN_POSITIVE)
    );
}

fn timed<T>(work: impl FnOnce() -> T) -> (Duration, T) {
    let start = Instant::now();
    let result = work();
    (start.elapsed(), result)
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
