//! Reply extraction (`mail::reply::own_words`) from a 256 KB mail (goal:
//! under 5 ms), beside a plain count of the same mail's lines measured in
//! the same run: a 256 KB plain-text reply quoting board mails, the same
//! with the board mail pasted unquoted (every line looked up among the
//! lines pbem sent), and a 256 KB HTML-only reply with nested quotes.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use pbem::mail::reply::{Known, own_words};

const SIZE: usize = 256 * 1024;

/// A board mail as pbem sends it (the lines matter, not the position).
fn board_mail() -> String {
    let mut body = String::from(
        "Summary of Chess Board 101\nWhite: alice   Black: bob\nIt is bob's turn (turn #2):\nBlack's turn: a single move.\n\n1.e4\n\n      h   g   f   e   d   c   b   a\n",
    );
    for rank in 1..=8 {
        body.push_str("    +---+---+---+---+---+---+---+---+\n");
        body.push_str(&format!(
            "  {rank} |:R:| N |:B:| K |:Q:| B |:N:| R |  {rank}\n"
        ));
    }
    body.push_str("Legal turns: 20\n  Pawns: a6 a5 b6 b5 c6 c5 d6 d5 e6 e5 f6 f5 g6 g5 h6 h5\n  Knights: Na6 Nc6 Nf6 Nh6\n\nTo play, reply to this mail with just your turn, for example: e5\n");
    body
}

fn padded(head: &str, unit: &str, tail: &str) -> String {
    let mut text = String::from(head);
    while text.len() + tail.len() < SIZE {
        text.push_str(unit);
    }
    text.push_str(tail);
    text
}

fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let measuring = std::env::args().any(|arg| arg == "--bench");
    let board = board_mail();
    let known = Known::of_text(&board);
    let quoted: String = board.lines().map(|l| format!("> {l}\n")).collect();
    let plain = padded(
        "e5\nGood luck!\n\nOn Sun, 1 Mar 2026 at 12:01, pbem <pbem+101.2.abc@localhost> wrote:\n",
        &quoted,
        "",
    );
    let pasted = padded("e5\n\n", &board, "");
    let html_unit = format!(
        "<blockquote class=\"gmail_quote\"><div>{}</div></blockquote>",
        board.replace('\n', "<br>")
    );
    let html = padded(
        "<div dir=\"ltr\">e5</div><div class=\"gmail_quote\">",
        &html_unit,
        "</div>",
    );

    let mut criterion = Criterion::default().configure_from_args().sample_size(20);
    let cases = [
        ("plain, quoted", &plain, false),
        ("plain, pasted unquoted", &pasted, false),
        ("html only", &html, true),
    ];
    for (name, text, is_html) in cases {
        criterion.bench_function(
            &format!("own-words-256k-{}", name.replace([' ', ','], "-")),
            |b| {
                b.iter(|| {
                    let words = if is_html {
                        own_words("", Some(text), &known)
                    } else {
                        own_words(text, None, &known)
                    };
                    black_box(words)
                })
            },
        );
    }
    criterion.final_summary();

    if measuring {
        println!("\n== pbem reply extraction: summary ==");
        for (name, text, is_html) in cases {
            let words = if is_html {
                own_words("", Some(text), &known)
            } else {
                own_words(text, None, &known)
            };
            assert_eq!(words.first().map(String::as_str), Some("e5"), "{name}");
            assert!(words.len() <= 3, "{name}: {words:?}");
            let extract = best_of(20, || {
                black_box(if is_html {
                    own_words("", Some(text), &known)
                } else {
                    own_words(text, None, &known)
                });
            });
            let lines = best_of(20, || {
                black_box(text.lines().count());
            });
            println!(
                "{name}: {} KB in {extract:.2?} (goal < 5 ms); counting its lines: {lines:.2?}; ratio {:.0}x",
                text.len() / 1024,
                extract.as_secs_f64() / lines.as_secs_f64()
            );
        }
    }
}
