//! Ratings by mail through the real Maildir, SQLite file and outbox:
//! rated results change both ratings and say so in the result mail
//! (resignation, draw, loss on time), unrated and declined games change
//! nothing, `ratings` and `rating` answer in tables that line up, and
//! `pbem ratings --rebuild` reproduces the stored figures exactly.

use pbem::ratings::{Outcome, Standing, rate_game};
use pbem_testkit::{ALICE, BOB, Harness, Sent, text_mail, to};
use time::Duration;

const CAROL: &str = "carol@example.org";

fn players(h: &mut Harness) {
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    h.signup("carol", CAROL);
}

/// Alice (White) challenges `opponent` to a chess game; returns its number.
fn challenge(h: &mut Harness, opponent: &str, extra: &str) -> u32 {
    let mails = h.send(
        ALICE,
        "new game",
        &format!("chess challenge alice alice-pw {opponent} --white {extra}"),
    );
    assert_eq!(mails.len(), 2, "{mails:#?}");
    let subject = &to(&mails, ALICE).subject;
    subject
        .split_whitespace()
        .nth(3)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a board number in {subject:?}"))
}

/// Two turns each on `board` between Alice (White) and `opponent`: a
/// game is rated only once each side has made two turns (issue 24), and
/// the opponent's first turn accepts the challenge.
fn opening(h: &mut Harness, board: u32, opponent: &str) {
    for (who, turn) in [
        ("alice", "e4"),
        (opponent, "e5"),
        ("alice", "Nf3"),
        (opponent, "Nc6"),
    ] {
        let mails = h.send(
            &format!("{who}@example.org"),
            "turn",
            &format!("move {board} {who} {who}-pw {turn}"),
        );
        assert!(
            !mails.iter().any(|m| m.subject.ends_with("Error")),
            "{mails:#?}"
        );
    }
}

fn count(h: &Harness, table: &str) -> i64 {
    h.count(&format!("SELECT COUNT(*) FROM {table}"))
}

/// Every stored rating figure, bit for bit, and every rated game row.
fn figures(h: &Harness) -> String {
    let conn = h.database();
    let mut out = String::new();
    for sql in [
        "SELECT player_id, variant, rating, deviation, volatility, games, wins, losses, draws, last_played FROM ratings ORDER BY 1, 2",
        "SELECT * FROM rated_games ORDER BY board",
    ] {
        let mut statement = conn.prepare(sql).expect("query");
        let columns = statement.column_count();
        let rows = statement
            .query_map([], |row| {
                (0..columns)
                    .map(|i| {
                        Ok(match row.get_ref(i)? {
                            rusqlite::types::ValueRef::Real(x) => format!("{:#x}", x.to_bits()),
                            other => format!("{other:?}"),
                        })
                    })
                    .collect::<Result<Vec<_>, rusqlite::Error>>()
            })
            .expect("rows");
        for row in rows {
            out.push_str(&row.expect("row").join(" "));
            out.push('\n');
        }
    }
    out
}

fn assert_lines(mail: &Sent, lines: &[&str]) {
    for line in lines {
        assert!(
            mail.body.lines().any(|l| l.ends_with(line)),
            "no line ending in {line:?} in:\n{}",
            mail.body
        );
    }
}

#[test]
fn rated_results_change_both_ratings_and_the_result_mail_says_so() {
    let mut h = Harness::new();
    players(&mut h);
    let first = challenge(&mut h, "bob", "");
    opening(&mut h, first, "bob");
    let resigned = h.send(BOB, "r", &format!("resign {first} bob bob-pw"));
    // Two new players (1500/350/0.06), White wins: 1662 and 1338, as in
    // skillratings' own example.
    for address in [ALICE, BOB] {
        assert_lines(
            to(&resigned, address),
            &["alice 1500 -> 1662 (+162)", "bob 1500 -> 1338 (-162)"],
        );
    }

    // A draw by agreement: the figures follow from the stored ratings.
    let second = challenge(&mut h, "bob", "");
    opening(&mut h, second, "bob");
    h.send(ALICE, "d", &format!("draw {second} alice alice-pw"));
    let drawn = h.send(BOB, "d", &format!("draw {second} bob bob-pw"));
    let (alice, bob) = (Standing::default(), Standing::default());
    let (alice, bob) = rate_game(&alice, &bob, Outcome::Win, 0);
    let (alice2, bob2) = rate_game(&alice, &bob, Outcome::Draw, 0);
    let line = |userid: &str, before: &Standing, after: &Standing| {
        let (b, a) = (before.rating.shown(), after.rating.shown());
        format!("{userid} {b} -> {a} ({:+})", a - b)
    };
    let expected = [line("alice", &alice, &alice2), line("bob", &bob, &bob2)];
    assert!(
        alice2.rating.shown() < 1662,
        "a draw with a weaker player costs"
    );
    assert_lines(
        to(&drawn, ALICE),
        &[expected[0].as_str(), expected[1].as_str()],
    );
    assert_eq!(count(&h, "rated_games"), 2);

    // The stored figures are exactly a replay's: the rebuild changes
    // nothing, twice.
    let before = figures(&h);
    assert!(h.rebuild_ratings().contains("unchanged"));
    assert!(h.rebuild_ratings().contains("unchanged"));
    assert_eq!(figures(&h), before);

    // Figures spoilt by hand come back exactly.
    h.database()
        .execute_batch(
            "UPDATE ratings SET rating = 1000, deviation = 1; DELETE FROM rated_games WHERE board = 101",
        )
        .expect("spoil");
    let report = h.rebuild_ratings();
    assert!(report.contains("2 ratings changed"), "{report}");
    assert!(report.contains("1 rated games changed"), "{report}");
    assert_eq!(figures(&h), before);
    assert!(h.rebuild_ratings().contains("unchanged"));
}

#[test]
fn unrated_and_declined_games_change_nothing() {
    let mut h = Harness::new();
    players(&mut h);
    let unrated = challenge(&mut h, "bob", "--unrated");
    let resigned = h.send(BOB, "r", &format!("resign {unrated} bob bob-pw"));
    assert!(
        !to(&resigned, ALICE).body.contains("->"),
        "{}",
        to(&resigned, ALICE).body
    );
    let declined = challenge(&mut h, "carol", "");
    let mails = h.send(CAROL, "no", &format!("decline {declined} carol carol-pw"));
    assert!(
        !to(&mails, ALICE).body.contains("->"),
        "{}",
        to(&mails, ALICE).body
    );
    assert_eq!(count(&h, "ratings"), 0);
    assert_eq!(count(&h, "rated_games"), 0);
    let standings = h.send(CAROL, "r", "ratings");
    assert!(
        to(&standings, CAROL).body.contains("No rated games yet."),
        "{}",
        to(&standings, CAROL).body
    );
    let rating = h.send(CAROL, "r", "rating alice");
    let body = &to(&rating, CAROL).body;
    assert!(body.contains("No rated games yet"), "{body}");
    assert!(h.rebuild_ratings().contains("replayed 0 rated games"));
}

#[test]
fn a_loss_on_time_is_rated() {
    let mut h = Harness::new();
    players(&mut h);
    let board = challenge(&mut h, "bob", "");
    opening(&mut h, board, "bob");
    let start = h.now;
    let lost = h.sweep(start + Duration::days(22));
    assert!(
        to(&lost, ALICE).body.contains("lost on time"),
        "{}",
        to(&lost, ALICE).body
    );
    for address in [ALICE, BOB] {
        assert_lines(
            to(&lost, address),
            &["alice 1500 -> 1338 (-162)", "bob 1500 -> 1662 (+162)"],
        );
    }
    assert!(h.rebuild_ratings().contains("unchanged"));
    let help = h.send(BOB, "hi", "help");
    let body = to(&help, BOB).body.replace('\n', " ");
    assert!(
        body.contains("a loss on time, which counts as a loss"),
        "{body}"
    );
    assert!(
        body.contains("ratings [<variant>]") && body.contains("rating <userid>"),
        "{body}"
    );
}

/// The standings: sections, ranks, columns that line up, and the
/// inactive after 180 days; one player's ratings and last games.
#[test]
fn standings_and_a_players_ratings_by_mail() {
    let mut h = Harness::new();
    players(&mut h);
    let one = challenge(&mut h, "bob", "");
    opening(&mut h, one, "bob");
    h.send(BOB, "r", &format!("resign {one} bob bob-pw"));
    let two = challenge(&mut h, "carol", "");
    opening(&mut h, two, "carol");
    h.send(ALICE, "r", &format!("resign {two} alice alice-pw"));
    // Bob has a game in progress (accepted: a challenge nobody accepted
    // is no one's business but its players', issue 35).
    let mails = h.send(BOB, "new", "chess challenge bob bob-pw carol");
    assert_eq!(mails.len(), 2);
    let three: u32 = to(&mails, BOB)
        .subject
        .split_whitespace()
        .nth(3)
        .and_then(|n| n.parse().ok())
        .expect("a board number");
    let accepted = h.send(CAROL, "ok", &format!("accept {three} carol carol-pw"));
    assert_eq!(accepted.len(), 2, "{accepted:#?}");

    let mails = h.send(CAROL, "hi", "standings chess");
    let mail = to(&mails, CAROL);
    assert_eq!(mail.subject, "pbem ratings chess");
    let body = &mail.body;
    let established = body
        .find("\nEstablished\n")
        .expect("an Established section");
    let provisional = body.find("\nProvisional").expect("a Provisional section");
    let inactive = body
        .find("\nInactive (no rated game for 180 days)")
        .expect("Inactive");
    assert!(
        established < provisional && provisional < inactive,
        "{body}"
    );
    let table: Vec<&str> = body[provisional..inactive]
        .lines()
        .filter(|l| l.contains("  "))
        .collect();
    assert_eq!(table.len(), 4, "a heading and three players:\n{body}");
    assert!(table[0].trim_start().starts_with("#  Player"), "{body}");
    // Ranked by rating: Carol beat the 1662 Alice; Bob lost to a newcomer.
    let names: Vec<&str> = table[1..]
        .iter()
        .map(|l| l.split_whitespace().nth(1).expect("a name"))
        .collect();
    assert_eq!(names, ["carol", "alice", "bob"], "{body}");
    for line in &table {
        assert_eq!(line.len(), table[0].len(), "lined up:\n{body}");
    }
    let bob = table[3].split_whitespace().collect::<Vec<_>>();
    assert_eq!(bob[0], "3");
    assert_eq!(
        &bob[4..],
        ["0", "1", "0", "1"],
        "won lost drawn active: {body}"
    );
    assert!(body.contains("a loss on time as a loss"), "{body}");

    // `chess ratings` is the same; `ratings` lists every rated variant.
    let mails = h.send(CAROL, "s", "chess ratings");
    assert_eq!(to(&mails, CAROL).body, *body);
    let mails = h.send(CAROL, "s", "ratings");
    assert!(to(&mails, CAROL).body.contains("Chess ratings"));

    let mails = h.send(BOB, "me", "rating alice");
    let body = &to(&mails, BOB).body;
    assert_eq!(to(&mails, BOB).subject, "pbem rating alice");
    let row = body
        .lines()
        .find(|l| l.starts_with("Chess "))
        .unwrap_or_else(|| panic!("a Chess row:\n{body}"));
    assert!(row.contains(" 2 ") && row.ends_with("provisional"), "{row}");
    let games: Vec<&str> = body.lines().filter(|l| l.starts_with("2026-")).collect();
    assert_eq!(games.len(), 2, "{body}");
    assert!(
        games[0].contains("lost") && games[0].contains("carol"),
        "{body}"
    );
    assert!(
        games[1].contains("won") && games[1].contains("bob"),
        "{body}"
    );
    assert!(games[1].ends_with("1500 -> 1662 (+162)"), "{body}");
    let header = body
        .lines()
        .find(|l| l.starts_with("Date"))
        .expect("a heading");
    for game in &games {
        assert_eq!(
            game.find(" -> "),
            header.find("Rating").map(|i| i + 4),
            "{body}"
        );
    }
    assert!(body.lines().all(|l| l.len() <= 76), "{body}");
    // An unknown userid is answered like a player without rated games
    // (issue 24: the answer never tells whether a userid exists).
    let unknown = h.send(BOB, "me", "rating nobody");
    assert!(
        to(&unknown, BOB).body.contains("Ratings of nobody")
            && to(&unknown, BOB).body.contains("No rated games yet"),
        "{}",
        to(&unknown, BOB).body
    );

    // Half a year later, everybody is inactive.
    h.now += Duration::days(181);
    let mails = h.send(CAROL, "s", "ratings chess");
    let body = &to(&mails, CAROL).body;
    let inactive = body.find("\nInactive").expect("Inactive");
    assert_eq!(
        body[..inactive].matches("(nobody)").count(),
        2,
        "nobody established or provisional:\n{body}"
    );
    assert!(body[inactive..].contains("carol"), "{body}");
}

/// A result and its rating change are stored together or not at all:
/// with the rating write made to fail inside the mail's transaction (a
/// trigger on `ratings`), a mating turn leaves no trace (no turn, no
/// result, no rating, no board mail), its sender is told, and the other
/// mails of the same batch still go through. Without the trigger the
/// same turn ends the game rated.
#[test]
fn a_result_is_never_stored_without_its_rating_change() {
    let mut h = Harness::new();
    players(&mut h);
    let fools = challenge(&mut h, "bob", "");
    let other = challenge(&mut h, "carol", "");
    h.send(ALICE, "m", &format!("move {fools} alice alice-pw f3"));
    h.send(BOB, "m", &format!("move {fools} bob bob-pw e5"));
    h.send(ALICE, "m", &format!("move {fools} alice alice-pw g4"));
    let turns = |h: &Harness| -> i64 {
        h.database()
            .query_row(
                "SELECT COUNT(*) FROM turns WHERE board = ?1",
                [fools],
                |r| r.get(0),
            )
            .expect("turns")
    };
    let result = |h: &Harness| -> Option<String> {
        h.database()
            .query_row(
                "SELECT result FROM boards WHERE number = ?1",
                [fools],
                |r| r.get(0),
            )
            .expect("board")
    };
    assert_eq!(turns(&h), 3);
    let before = figures(&h);
    h.database()
        .execute_batch(
            "CREATE TRIGGER ratings_fail_insert BEFORE INSERT ON ratings
             BEGIN SELECT RAISE(ABORT, 'the test fails every rating write'); END;
             CREATE TRIGGER ratings_fail_update BEFORE UPDATE ON ratings
             BEGIN SELECT RAISE(ABORT, 'the test fails every rating write'); END;",
        )
        .expect("triggers");

    // One batch: Bob's mate, then Alice's first move on the other board.
    let (mate_id, move_id) = (h.message_id(), h.message_id());
    let inbox = h.server.inbox();
    inbox
        .deliver(&text_mail(
            BOB,
            "pbem@localhost",
            "m",
            &mate_id,
            &format!("move {fools} bob bob-pw Qh4"),
        ))
        .expect("delivered");
    inbox
        .deliver(&text_mail(
            ALICE,
            "pbem@localhost",
            "m",
            &move_id,
            &format!("move {other} alice alice-pw e4"),
        ))
        .expect("delivered");
    h.pass();
    let mails = h.new_mails();

    assert_eq!(turns(&h), 3, "the mating turn is taken back");
    assert_eq!(result(&h), None, "no result stored");
    assert_eq!(figures(&h), before, "no rating changed");
    let about_fools: Vec<&Sent> = mails
        .iter()
        .filter(|m| m.subject.contains(&format!("Board {fools}")))
        .collect();
    assert!(about_fools.is_empty(), "no board mail: {about_fools:#?}");
    let told: Vec<&Sent> = mails.iter().filter(|m| m.to == BOB).collect();
    assert_eq!(told.len(), 1, "{mails:#?}");
    assert_eq!(told[0].subject, "pbem Error");
    assert_eq!(
        told[0].in_reply_to.as_deref(),
        Some(mate_id.trim_matches(['<', '>']))
    );
    let body = told[0]
        .body
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        body.contains("none of it was done") && body.contains("send the mail again"),
        "{body}"
    );
    // The other mail of the batch went through: Carol has Alice's move.
    let to_carol = to(&mails, CAROL);
    assert!(
        to_carol.subject.contains(&format!("Board {other}")),
        "{mails:#?}"
    );
    let played: i64 = h
        .database()
        .query_row(
            "SELECT COUNT(*) FROM turns WHERE board = ?1",
            [other],
            |r| r.get(0),
        )
        .expect("turns");
    assert_eq!(played, 1);

    // Put right, the same turn (a new mail) ends the game, rated.
    h.database()
        .execute_batch("DROP TRIGGER ratings_fail_insert; DROP TRIGGER ratings_fail_update")
        .expect("drop triggers");
    let mated = h.send(BOB, "m", &format!("move {fools} bob bob-pw Qh4"));
    assert_eq!(turns(&h), 4);
    assert_eq!(result(&h).as_deref(), Some("0-1"));
    for address in [ALICE, BOB] {
        assert_lines(
            to(&mated, address),
            &["alice 1500 -> 1338 (-162)", "bob 1500 -> 1662 (+162)"],
        );
    }
    assert_eq!(count(&h, "rated_games"), 1);
    assert!(h.rebuild_ratings().contains("unchanged"));
}
