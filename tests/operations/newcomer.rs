//! What a newcomer meets (issue 25, "What a newcomer met"): a misspelled
//! command answered with the command it misspells, a legend under each
//! text board and the `**` of a Subject explained, one-liners that tell
//! the variants apart, answers whose paragraphs wrap flush left, a demo
//! that prints a mail's text, a startup log that names the schema without
//! the scheduler's chatter, and subcommand help that lists only the
//! options the subcommand takes.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

use pbem_testkit::{ALICE, BOB, Harness, flat, to};

/// Runs the real binary.
fn pbem(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("pbem runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

// 1. A misspelled command.

#[test]
fn a_misspelled_command_by_plain_mail_is_answered_with_the_command_it_misspells() {
    let mut h = Harness::new();
    h.signup("carol", "carol@example.org");
    let mails = h.send("carol@example.org", "my move", "mvoe 101 carol carol-pw e4");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let body = flat(&mails[0].body);
    assert!(
        body.contains("\"mvoe\" is not a command; did you mean \"move\"?"),
        "{body}"
    );
    assert!(!body.contains("passes text on"), "{body}");
    assert!(!body.contains("carol-pw"), "{body}");
}

#[test]
fn a_misspelled_command_in_the_subject_is_answered_with_the_command_it_misspells() {
    let mut h = Harness::new();
    let mails = h.send("dave@example.org", "chess2 chalenge dave dave-pw bob", "");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let body = flat(&mails[0].body);
    assert!(body.contains("did you mean \"challenge\"?"), "{body}");
    assert!(!body.contains("dave-pw"), "{body}");
}

#[test]
fn a_misspelled_command_in_a_reply_is_refused_with_the_command_it_misspells() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess");
    let mails = h.reply(&alice, ALICE, "mvoe e4");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let body = flat(&to(&mails, ALICE).body);
    assert!(body.contains("Did you mean \"move\"?"), "{body}");
    assert!(body.contains("nothing was played"), "{body}");
    // The line of a comment that looks like a command says the same.
    let mails = h.send(ALICE, "hello", "games alice\nshwo 101 alice alice-pw");
    let body = flat(&to(&mails, ALICE).body);
    assert!(body.contains("(did you mean \"show\"?)"), "{body}");
    assert!(!body.contains("alice-pw"), "{body}");
}

#[test]
fn no_suggestion_for_a_quote_a_signature_prose_or_a_tie() {
    let mut h = Harness::new();
    for body in [
        // What pbem ignores by design: the quote of another mail, and a
        // signature.
        "Hello there\n\nOn Sun, 1 Mar 2026, bob wrote:\n> mvoe 101 bob bob-pw e4\n",
        "Hello there\n-- \nshwo 101\n",
        // Prose (`drew` is one typo from `draw`), and a word as near to
        // `rating` as to `ratings`.
        "I drew up a plan for our club",
        "ratins 5",
    ] {
        let mails = h.send("erin@example.org", "hi", body);
        assert_eq!(mails.len(), 1, "{body}: {mails:#?}");
        let answer = flat(&mails[0].body);
        assert!(answer.contains("found no command"), "{body}: {answer}");
        assert!(!answer.contains("did you mean"), "{body}: {answer}");
    }
}

// 2. The board legend and the `**` of a Subject.

#[test]
fn every_text_board_has_its_legend_under_it_and_help_explains_the_subject() {
    let mut h = Harness::new();
    let (alice, bob) = h.alice_and_bob_on("chess");
    let full = "*R* Black, R White, :R: White on a dark square, ::: an empty dark square";
    for mail in [&alice, &bob] {
        let lines: Vec<&str> = mail.body.lines().collect();
        let frame = lines
            .iter()
            .rposition(|line| line.starts_with("    +---"))
            .expect("the board's frame");
        // Under the board: the file letters, then the legend.
        assert_eq!(lines.get(frame + 2), Some(&full), "{}", mail.body);
    }
    h.send(ALICE, "compact", "set alice alice-pw board compact");
    let mails = h.reply(&alice, ALICE, "e4");
    let compact = &to(&mails, ALICE).body;
    let lines: Vec<&str> = compact.lines().collect();
    let files = lines
        .iter()
        .position(|line| *line == "  abcdefgh")
        .expect("the compact board's files");
    assert_eq!(
        lines.get(files + 1),
        Some(&"KQRBNP White, kqrbnp Black, . an empty square"),
        "{compact}"
    );
    // Alice's mail carries Bob's comment: its Subject ends in `**`, and
    // help says what that means.
    let bob = to(&mails, BOB).clone();
    let mails = h.reply(&bob, BOB, "e5\nHave fun");
    let alice = to(&mails, ALICE);
    assert!(alice.subject.ends_with(" **"), "{alice:#?}");
    assert!(alice.body.contains("Comments:"), "{alice:#?}");
    let help = h.send("frank@example.org", "help", "");
    let help = flat(&help[0].body);
    assert!(
        help.contains("** at its end means the mail carries comments"),
        "{help}"
    );
}

// 3. The variants' one-liners.

#[test]
fn the_variants_one_liners_are_distinct_and_tell_chess2_from_twomove() {
    let output = pbem(&["variants"]);
    assert!(output.status.success(), "{output:?}");
    let listed = text(&output.stdout);
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 13, "{listed}");
    let descriptions: std::collections::HashSet<&str> = lines
        .iter()
        .map(|line| line.split_once("  ").expect("id, two spaces, text").1)
        .collect();
    assert_eq!(descriptions.len(), 13, "{listed}");
    let line = |id: &str| {
        lines
            .iter()
            .find(|line| line.starts_with(&format!("{id}  ")))
            .copied()
            .unwrap_or_default()
    };
    assert!(
        line("chess2").contains("a check always ends the turn"),
        "{listed}"
    );
    assert!(
        line("twomove").contains("captures, promotes or allows en passant always ends the turn"),
        "{listed}"
    );
}

#[test]
fn help_variants_wraps_each_description_under_its_own_text() {
    let mut h = Harness::new();
    let mails = h.send("hank@example.org", "help variants", "");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let body = &mails[0].body;
    let mut entries = 0;
    for line in body.lines().filter(|line| !line.is_empty()) {
        let entry = line
            .strip_prefix("  ")
            .and_then(|rest| rest.split_once("  "))
            .is_some_and(|(id, _)| id.parse::<pbem::rules::Variant>().is_ok());
        if entry {
            entries += 1;
        } else {
            assert!(line.starts_with("    "), "{line:?} in\n{body}");
        }
    }
    assert_eq!(entries, 13, "{body}");
}

// 4. Paragraphs wrap flush left.

#[test]
fn confirmation_and_no_command_answers_wrap_their_paragraphs_flush_left() {
    let mut h = Harness::new();
    let confirmation = h.send("gina@example.org", "hello", "signup gina gina-pw");
    let no_command = h.send(
        "gina@example.org",
        "hello",
        "I would like to play a game of chess with somebody, please.",
    );
    for mail in [&confirmation[0], &no_command[0]] {
        for line in mail.body.lines() {
            // The one indented line is the command to send.
            assert!(
                !line.starts_with("  ") || line.trim_start().starts_with("confirm "),
                "{line:?} in\n{}",
                mail.body
            );
            assert!(line.chars().count() <= 76, "{line:?}");
        }
    }
    assert!(
        no_command[0].body.lines().count() >= 3,
        "the answer wraps: {}",
        no_command[0].body
    );
}

// 5. The demo.

#[test]
fn the_demo_prints_the_text_of_its_last_mail_and_where_the_whole_mail_is() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data = dir.path().to_string_lossy().into_owned();
    let output = pbem(&["demo", "--data-dir", &data]);
    assert!(output.status.success(), "{output:?}");
    let shown = text(&output.stdout);
    assert!(shown.lines().count() < 60, "{shown}");
    assert!(!shown.contains("Content-Type"), "{shown}");
    assert!(shown.contains("Subject: Chess2 Board 101 1-0"), "{shown}");
    assert!(shown.contains("Result: 1-0 (checkmate)."), "{shown}");
    let path = shown
        .split_whitespace()
        .find_map(|word| word.strip_suffix("):"))
        .filter(|path| path.ends_with(".eml"))
        .unwrap_or_else(|| panic!("the whole mail's file: {shown}"));
    let whole = std::fs::read_to_string(path).expect("the whole mail");
    assert!(whole.contains("Content-Type: text/html"), "{whole}");
}

// 6. The startup log.

#[test]
fn the_startup_log_names_the_newest_migration_and_not_the_schedulers_chatter() {
    let newest = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
        .expect("migrations/")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter_map(|name| name.strip_suffix(".sql").map(str::to_string))
        .max()
        .expect("a migration");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut server = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("serve")
        .arg("--data-dir")
        .arg(dir.path())
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbem serve runs");
    let stderr = server.stderr.take().expect("piped stderr");
    let mut log = Vec::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.expect("a log line");
        let serving = line.contains("pbem is serving");
        log.push(line);
        if serving {
            break;
        }
    }
    server.kill().expect("the server stops");
    server.wait().expect("the server is gone");
    let log = log.join("\n");
    assert!(log.contains("pbem is serving"), "{log}");
    let serving = log.lines().last().unwrap_or_default();
    assert!(serving.contains(&format!("\"{newest}\"")), "{log}");
    assert!(!log.contains("tokio_cron_scheduler"), "{log}");
    assert!(!log.contains("rusqlite_migration"), "{log}");
}

// 7. The options of each subcommand.

#[test]
fn each_subcommand_lists_only_the_options_it_takes() {
    let takes: &[(&str, &[&str])] = &[
        ("serve", &["--data-dir", "--config", "--now"]),
        ("init", &["--data-dir", "--config"]),
        ("process", &["--data-dir", "--config", "--now"]),
        ("tick", &["--data-dir", "--config", "--now"]),
        ("demo", &["--data-dir"]),
        ("backup", &["--data-dir", "--config"]),
        ("ratings", &["--data-dir", "--config", "--now"]),
        ("variants", &[]),
        ("replay", &[]),
        ("perft", &[]),
        ("legal", &[]),
        ("pairings", &[]),
    ];
    for (command, options) in takes {
        let output = pbem(&[command, "--help"]);
        assert!(output.status.success(), "{command}: {output:?}");
        let help = text(&output.stdout);
        let description = help.lines().next().unwrap_or_default();
        assert!(
            description.split_whitespace().count() >= 4,
            "{command} has a description: {help}"
        );
        for option in ["--data-dir", "--config", "--now"] {
            assert_eq!(
                help.contains(option),
                options.contains(&option),
                "{command} and {option}: {help}"
            );
        }
    }
}

#[test]
fn the_place_options_go_before_or_after_the_subcommand_but_only_where_used() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data = dir.path().to_string_lossy().into_owned();
    let now = "2026-03-01T12:00:00Z";
    // As service files and scripts write them, and after the subcommand.
    let before = pbem(&["--data-dir", &data, "--now", now, "tick"]);
    assert!(before.status.success(), "{before:?}");
    let after = pbem(&["tick", "--data-dir", &data, "--now", now]);
    assert!(after.status.success(), "{after:?}");
    // Refused where they mean nothing, or given twice.
    let pure = pbem(&["--data-dir", &data, "perft", "--variant", "chess", "1"]);
    assert_eq!(pure.status.code(), Some(2), "{pure:?}");
    assert!(
        text(&pure.stderr).contains("perft takes no --data-dir"),
        "{pure:?}"
    );
    let demo = pbem(&["--config", "pbem.toml", "demo"]);
    assert_eq!(demo.status.code(), Some(2), "{demo:?}");
    let twice = pbem(&["--data-dir", &data, "tick", "--data-dir", &data]);
    assert_eq!(twice.status.code(), Some(2), "{twice:?}");
    assert!(text(&twice.stderr).contains("given twice"), "{twice:?}");
}
