//! The words of every mail: counted phrases agree with their number
//! (`1 day`, `2 days`), every time reads `YYYY-MM-DD HH:MM UTC`, and
//! `games` and board mails give the move number as players count it
//! beside pbem's turn number, with the time the player to move loses on
//! time.

use std::path::Path;

use pbem_testkit::{ALICE, BOB, Harness, Sent, flat, to};

/// `text` holds no stored time (RFC 3339: `2026-03-01T12:00:00Z`).
fn no_stored_time(text: &str) {
    let bytes = text.as_bytes();
    for (i, window) in bytes.windows(13).enumerate() {
        let digits = |range: std::ops::Range<usize>| window[range].iter().all(u8::is_ascii_digit);
        let stored = digits(0..4)
            && window[4] == b'-'
            && digits(5..7)
            && window[7] == b'-'
            && digits(8..10)
            && window[10] == b'T'
            && digits(11..13);
        assert!(!stored, "a stored time at {i}: {text}");
    }
}

/// The time right after `before` in `text`, which must read
/// `YYYY-MM-DD HH:MM UTC`.
fn time_after(text: &str, before: &str) -> String {
    let text = flat(text);
    let start = text
        .find(before)
        .unwrap_or_else(|| panic!("no \"{before}\" in: {text}"))
        + before.len();
    let time: String = text[start..].chars().take(20).collect();
    let form = "dddd-dd-dd dd:dd UTC";
    let fits = time.len() == form.len()
        && time
            .chars()
            .zip(form.chars())
            .all(|(c, f)| if f == 'd' { c.is_ascii_digit() } else { c == f });
    assert!(fits, "\"{time}\" after \"{before}\" in: {text}");
    time
}

/// Every mail the harness saw reads its times as players do.
fn every_mail_reads_times_as_players_do(h: &Harness) {
    let mails = h.all_mails();
    assert!(!mails.is_empty());
    for mail in mails {
        no_stored_time(&mail.subject);
        no_stored_time(&mail.body);
    }
}

#[test]
fn the_password_pause_names_its_end_as_players_read_times() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let guesses: Vec<String> = (0..6)
        .map(|n| format!("settings alice guess-{n}"))
        .collect();
    let mails = h.send(ALICE, "guesses", &guesses.join("\n"));
    assert_eq!(mails.len(), 1, "{mails:#?}");
    time_after(
        &mails[0].body,
        "password logins for it from alice@example.org pause until ",
    );
    every_mail_reads_times_as_players_do(&h);
}

#[test]
fn the_notice_of_a_mail_over_a_ceiling_names_its_end_as_players_read_times() {
    let mut h = Harness::with_config(|config| {
        config.service.sent.player.hour = 2;
    });
    // The challenge costs alice 2 mails: a third passes the ceiling.
    h.alice_and_bob_on("chess");
    let refused = h.send(ALICE, "s", "settings alice alice-pw");
    assert_eq!(refused.len(), 1, "{refused:#?}");
    time_after(&refused[0].body, "Send it again after ");
    every_mail_reads_times_as_players_do(&h);
}

/// The line of board 101 in the answer to `games <userid>`.
fn games_line(h: &mut Harness, from: &str, userid: &str) -> String {
    let answer = h.send(from, "games", &format!("games {userid}"));
    assert_eq!(answer.len(), 1, "{answer:#?}");
    flat(&answer[0].body)
        .split("Board ")
        .find(|line| line.starts_with("101 "))
        .unwrap_or_else(|| panic!("no board 101: {}", answer[0].body))
        .trim()
        .to_string()
}

/// The time a board mail says its player to move loses on time.
fn loses_at(board_mail: &Sent) -> String {
    let body = flat(&board_mail.body);
    if body.contains("not to lose on time") {
        time_after(&body, " to avoid a reminder, and by ")
    } else {
        time_after(&body, " loses on time at ")
    }
}

#[test]
fn games_lists_each_boards_move_number_and_deadline_as_its_board_mail_does() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    // A challenge that waits has no clock.
    assert!(
        games_line(&mut h, ALICE, "alice").ends_with(
            "alice: move 1, White to move (turn #1), no clock runs until the challenge is accepted"
        ),
        "{}",
        games_line(&mut h, ALICE, "alice")
    );
    h.bob_accepts();
    let played = h.send(ALICE, "m", "move 101 alice alice-pw e4");
    let mail = to(&played, BOB);
    assert!(
        flat(&mail.body).contains("It is bob's turn: move 1, Black to move (turn #2):"),
        "{}",
        mail.body
    );
    let deadline = loses_at(mail);
    let line = games_line(&mut h, ALICE, "alice");
    assert!(
        line.ends_with(&format!(
            "bob: move 1, Black to move (turn #2), loses on time at {deadline}"
        )),
        "{line}"
    );
    h.now += time::Duration::hours(5);
    h.send(BOB, "m", "move 101 bob bob-pw e5");
    let played = h.send(ALICE, "m", "move 101 alice alice-pw Nf3");
    let mail = to(&played, BOB);
    assert!(
        flat(&mail.body).contains("It is bob's turn: move 2, Black to move (turn #4):"),
        "{}",
        mail.body
    );
    let deadline = loses_at(mail);
    let line = games_line(&mut h, BOB, "bob");
    assert!(
        line.ends_with(&format!(
            "bob: move 2, Black to move (turn #4), loses on time at {deadline}"
        )),
        "{line}"
    );
    every_mail_reads_times_as_players_do(&h);
}

/// In Balanced Marseillais White opens with one move, then every turn
/// holds two: a move of the record is still a turn pair.
#[test]
fn a_double_move_game_counts_a_turn_pair_as_one_move() {
    let mut h = Harness::new();
    h.alice_and_bob_on("balanced-marseillais");
    h.bob_accepts();
    let played = h.send(ALICE, "m", "move 101 alice alice-pw e4");
    let header = "It is bob's turn: move 1, Black to move (turn #2):";
    assert!(
        flat(&to(&played, BOB).body).contains(header),
        "{}",
        to(&played, BOB).body
    );
    let played = h.send(BOB, "m", "move 101 bob bob-pw e5,d5");
    let header = "It is alice's turn: move 2, White to move (turn #3):";
    assert!(
        flat(&to(&played, ALICE).body).contains(header),
        "{}",
        to(&played, ALICE).body
    );
    assert!(
        games_line(&mut h, BOB, "bob")
            .contains("alice: move 2, White to move (turn #3), loses on time at "),
        "{}",
        games_line(&mut h, BOB, "bob")
    );
}

#[test]
fn counted_phrases_in_mails_agree_with_one_and_two() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let mails = h.send(
        ALICE,
        "new game",
        "chess challenge alice alice-pw bob --white --nag=1 --forfeit=2",
    );
    let body = flat(&to(&mails, ALICE).body);
    assert!(
        body.contains(
            "Deadlines: a reminder after 1 day without a move, a loss on time after 2 days."
        ),
        "{body}"
    );
    let one = h.send(ALICE, "v", "vacation alice alice-pw 1");
    assert!(
        flat(&one[0].body).contains("alice is on vacation for 1 day, until "),
        "{}",
        one[0].body
    );
    let two = h.send(BOB, "v", "vacation bob bob-pw 2");
    assert!(
        flat(&two[0].body).contains("bob is on vacation for 2 days, until "),
        "{}",
        two[0].body
    );
    every_mail_reads_times_as_players_do(&h);
}

/// Nouns pbem counts. A number before one of them (with at most one word
/// between: `3 open games`) must go through `render::count` in code and
/// the `count` filter in templates, unless the line, or the line above
/// it, says the number is `not a count` (a board number, a verb).
const COUNTED: &[&str] = &[
    "days",
    "hours",
    "minutes",
    "weeks",
    "players",
    "games",
    "boards",
    "turns",
    "moves",
    "mails",
    "entrants",
    "rounds",
    "points",
    "challenges",
    "invitations",
    "broadcasts",
    "events",
    "ladders",
    "places",
    "characters",
    "notes",
    "comments",
    "commands",
    "codes",
    "addresses",
    "reminders",
    "digests",
    "replies",
    "matches",
    "groups",
    "byes",
    "wins",
    "losses",
    "draws",
    "lines",
    "entries",
    "tournaments",
];

/// The counted phrases of `line` written without the helper: a
/// placeholder (`{n}`, `{}`, `{{ n }}`) then a plural noun. A placeholder
/// naming a constant (`{MAX_DAYS}`, at least 2) is let through.
fn bare_counts(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (end, _) in line.match_indices("} ") {
        let Some(open) = line[..end].rfind('{') else {
            continue;
        };
        let inside = line[open + 1..end].trim_matches(['{', '}', ' ']);
        let constant = !inside.is_empty()
            && inside
                .rsplit("::")
                .next()
                .is_some_and(|name| name.chars().all(|c| c.is_ascii_uppercase() || c == '_'));
        if constant {
            continue;
        }
        let words: Vec<&str> = line[end + 2..]
            .split(|c: char| !c.is_ascii_alphabetic())
            .take(2)
            .collect();
        if words.iter().any(|w| COUNTED.contains(w)) {
            found.push(line[open..].chars().take(60).collect());
        }
    }
    found
}

fn scan(dir: &Path, extension: &str, skip: &[&str], bare: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("an entry").path();
        if skip.iter().any(|s| path.ends_with(s)) {
            continue;
        }
        if path.is_dir() {
            scan(&path, extension, skip, bare);
            continue;
        }
        if path.extension().and_then(|e| e.to_str()) != Some(extension) {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file");
        let mut above = "";
        for (n, line) in text.lines().enumerate() {
            let excused = line.contains("not a count") || above.contains("not a count");
            let code = !line.trim_start().starts_with("//") && !line.contains("assert");
            if code && !excused {
                for phrase in bare_counts(line) {
                    bare.push(format!("{}:{}: {phrase}", path.display(), n + 1));
                }
            }
            above = line;
        }
    }
}

#[test]
fn every_counted_phrase_goes_through_the_count_helper() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The helper itself, then how it is caught: a bare count in a line.
    assert_eq!(bare_counts(r#"format!("for {days} days")"#).len(), 1);
    assert_eq!(bare_counts(r#"format!("{} open games", n)"#).len(), 1);
    assert_eq!(bare_counts("after {{ nag_days }} days").len(), 1);
    assert!(bare_counts(r#"format!("for {}", count(n, "day"))"#).is_empty());
    assert!(bare_counts(r#"format!("{MAX_EXTENSION_DAYS} days")"#).is_empty());
    let mut bare = Vec::new();
    // What pbem writes to players by mail and shows on the web: the
    // operator's command-line summaries and logs keep the fixed form
    // scripts read.
    scan(&root.join("src"), "rs", &["cli", "server.rs"], &mut bare);
    scan(&root.join("templates"), "txt", &[], &mut bare);
    scan(&root.join("templates"), "html", &[], &mut bare);
    assert!(
        bare.is_empty(),
        "counted without the helper:\n{}",
        bare.join("\n")
    );
}
