//! A 9-player, 4-round Swiss played whole by mail through the real
//! Maildir and outbox: a pairing-allocated bye in each of the first three
//! rounds, a loss on time (the deadline sweep), a withdrawal, wins and
//! draws. Each round's pairing is checked against bbpPairings (a
//! FIDE-endorsed Dutch engine): `tests/data/swiss9/round<k>.trf` is the
//! event as it stood before round k (the TRF pbem mails with `tournament
//! trf`, cut to the rounds played and the absences of round k), and
//! `round<k>.pairs` is what `bbpPairings.exe --dutch round<k>.trf -p` printed
//! for it. Both are committed; with PBEM_RECORD_SWISS=1 the test writes the
//! TRFs afresh (then bbpPairings is run on them by hand).
//!
//! Results follow one rule, so the event is the same on every run: the
//! lower start number wins, except that a game whose start numbers add up
//! to a multiple of 4 is drawn; in round 2 the game on the highest board
//! is lost on time by White instead, and at the start of round 3 the
//! director withdraws number 9. The final crosstable is checked cell by
//! cell twice: against a tally computed from the games as played, and
//! against the table worked out by hand (`hand_worked_table`).

use std::collections::BTreeMap;

use pbem::pairing::{Entry, trf};
use pbem_testkit::{Game, Harness, Sent, address, games_in, to};
use time::Duration;

const TD: &str = "td@example.org";
const ROUNDS: u32 = 4;

/// Start number of a player: `s1` .. `s9` (all unrated, so seeded by
/// userid).
fn start(userid: &str) -> u32 {
    userid[1..].parse().expect("s<number>")
}

/// The pairing of round `round` as the director's notice gives it.
fn pairing(mails: &[Sent], round: u32) -> (Vec<Game>, Option<String>) {
    pairing_of(mails, "swiss9", ROUNDS, round)
}

/// The TRF the pairing of `round` starts from: pbem's TRF of the event
/// with round `round`'s games taken out (its absences stay).
fn trf_before(h: &mut Harness, round: u32) -> String {
    let mails = h.send("guest@example.net", "trf", "tournament trf swiss9");
    let text = &mails[0].body;
    let start = text
        .find("012 ")
        .unwrap_or_else(|| panic!("a TRF in {mails:#?}"));
    let mut t = trf::parse(&text[start..]).expect("pbem's TRF reads back");
    for p in &mut t.players {
        p.rounds.truncate(round as usize);
        if let Some(last) = p.rounds.get_mut(round as usize - 1)
            && !(last.opponent == 0 && last.result == 'Z')
        {
            *last = Entry::BLANK;
        }
        while p.rounds.last().is_some_and(|e| e.is_blank()) {
            p.rounds.pop();
        }
    }
    trf::write(&t)
}

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/swiss9")
        .join(name)
}

/// Checks pbem's pairing of `round` against bbpPairings' on the same TRF.
fn check_against_reference(h: &mut Harness, round: u32, games: &[Game], bye: &Option<String>) {
    let trf_in = trf_before(h, round);
    let trf_path = data(&format!("round{round}.trf"));
    if std::env::var_os("PBEM_RECORD_SWISS").is_some() {
        std::fs::create_dir_all(data("")).expect("data dir");
        std::fs::write(&trf_path, &trf_in).expect("write TRF");
        return;
    }
    let committed = std::fs::read_to_string(&trf_path).expect("the committed TRF");
    assert_eq!(
        trf_in, committed,
        "round {round}: the event is the one the reference paired"
    );
    let reference = std::fs::read_to_string(data(&format!("round{round}.pairs")))
        .expect("bbpPairings' pairing");
    let mut lines = reference.lines();
    let count: usize = lines.next().expect("count").trim().parse().expect("count");
    let mut expected: Vec<(u32, u32)> = Vec::new();
    let mut expected_bye = None;
    for line in lines.take(count) {
        let (a, b) = line.trim().split_once(' ').expect("a b");
        let (a, b): (u32, u32) = (a.parse().expect("a"), b.parse().expect("b"));
        if b == 0 {
            expected_bye = Some(a);
        } else {
            expected.push((a, b));
        }
    }
    let mut ours: Vec<(u32, u32)> = games
        .iter()
        .map(|g| (start(&g.white), start(&g.black)))
        .collect();
    ours.sort();
    expected.sort();
    assert_eq!(
        ours, expected,
        "round {round}: pbem's pairing is bbpPairings'"
    );
    assert_eq!(
        bye.as_deref().map(start),
        expected_bye,
        "round {round}: the bye"
    );
}

fn resign(h: &mut Harness, board: u32, loser: &str) -> Vec<Sent> {
    h.send(
        &address(loser),
        "resign",
        &format!("resign {board} {loser} {loser}-pw"),
    )
}

/// Plays a game by the rule; returns the mails of its last step.
fn play(h: &mut Harness, game: &Game) -> Vec<Sent> {
    let (w, b) = (start(&game.white), start(&game.black));
    if (w + b) % 4 == 0 {
        h.send(
            &address(&game.white),
            "draw",
            &format!("draw {} {} {}-pw", game.board, game.white, game.white),
        );
        return h.send(
            &address(&game.black),
            "accept",
            &format!("accept {} {} {}-pw", game.board, game.black, game.black),
        );
    }
    let loser = if w < b { &game.black } else { &game.white };
    resign(h, game.board, loser)
}

/// The result of a game for (white, black) in points: what the rule
/// gave, for the independent tally below.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Res {
    Win,
    Draw,
    Loss,
    ForfeitWin,
    ForfeitLoss,
    Bye(u32),
}

/// Per player: round -> (opponent, White?, result).
type Record = BTreeMap<String, BTreeMap<u32, (Option<String>, Option<bool>, Res)>>;

#[test]
fn a_nine_player_four_round_swiss_by_mail_paired_as_bbppairings_pairs_it() {
    let mut h = Harness::new();
    let players: Vec<String> = (1..=9).map(|n| format!("s{n}")).collect();
    h.signup("td", TD);
    for p in &players {
        h.signup(p, &address(p));
    }
    let created = h.send(
        TD,
        "new",
        "tournament create td td-pw swiss9 chess --swiss=4",
    );
    assert!(
        created[0].body.contains("Swiss, 4 rounds"),
        "{}",
        created[0].body
    );
    for p in &players {
        let mails = h.send(
            &address(p),
            "enter",
            &format!("tournament enter swiss9 {p} {p}-pw"),
        );
        assert!(!mails[0].subject.contains("Error"), "{}", mails[0].body);
    }
    let mut mails = h.send(TD, "start", "tournament start swiss9 td td-pw");
    let answer = to(&mails, TD);
    assert!(
        answer.body.contains("Start numbers by rating"),
        "{}",
        answer.body
    );

    // Per player: round -> (opponent, white?, result).
    let mut record: Record = BTreeMap::new();
    let mut withdrawn = false;
    for round in 1..=ROUNDS {
        let (games, bye) = pairing(&mails, round);
        check_against_reference(&mut h, round, &games, &bye);
        if let Some(bye) = &bye {
            record
                .entry(bye.clone())
                .or_default()
                .insert(round, (None, None, Res::Bye(2)));
            assert!(
                mails
                    .iter()
                    .any(|m| m.to == address(bye) && m.body.contains("has the bye")),
                "the bye is told"
            );
        }
        if round == 3 {
            // The director withdraws s9: a game s9 has this round is lost
            // by forfeit; later rounds pair without s9.
            let w = h.send(TD, "withdraw", "tournament withdraw swiss9 td td-pw s9");
            assert!(to(&w, TD).body.contains("s9 is withdrawn"), "{w:#?}");
            withdrawn = true;
        }
        let mut games_sorted = games.clone();
        games_sorted.sort_by_key(|g| g.board);
        let last_board = games_sorted.last().map(|g| g.board);
        let mut next = Vec::new();
        for game in &games_sorted {
            let (w, b) = (start(&game.white), start(&game.black));
            let (rw, rb) = if withdrawn && round == 3 && (w == 9 || b == 9) {
                if w == 9 {
                    (Res::ForfeitLoss, Res::ForfeitWin)
                } else {
                    (Res::ForfeitWin, Res::ForfeitLoss)
                }
            } else if round == 2 && Some(game.board) == last_board {
                // Lost on time by White, in the sweep, after the others.
                (Res::Loss, Res::Win)
            } else {
                next = play(&mut h, game);
                if (w + b) % 4 == 0 {
                    (Res::Draw, Res::Draw)
                } else if w < b {
                    (Res::Win, Res::Loss)
                } else {
                    (Res::Loss, Res::Win)
                }
            };
            record
                .entry(game.white.clone())
                .or_default()
                .insert(round, (Some(game.black.clone()), Some(true), rw));
            record
                .entry(game.black.clone())
                .or_default()
                .insert(round, (Some(game.white.clone()), Some(false), rb));
        }
        if round == 2 {
            let at = h.now + Duration::days(8);
            next = h.sweep(at);
            assert!(
                next.iter().any(|m| m.body.contains("lost on time")),
                "{next:#?}"
            );
        }
        if withdrawn && round >= 3 && !record["s9"].contains_key(&round) {
            record
                .entry("s9".into())
                .or_default()
                .insert(round, (None, None, Res::Bye(0)));
        }
        mails = next;
    }
    // The last game's mail brought the final crosstable.
    let table = mails
        .iter()
        .find(|m| m.to == TD && m.body.contains("Final crosstable: swiss9"))
        .unwrap_or_else(|| panic!("the final crosstable among {mails:#?}"));
    check_crosstable(&table.body, &record);
    assert_eq!(table_rows(&table.body), hand_worked_table());
}

/// The crosstable's rows, split into cells.
fn table_rows(body: &str) -> Vec<Vec<String>> {
    body.lines()
        .skip_while(|l| !l.contains("#  Player"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// The final crosstable of the event above, worked out by hand from its
/// games (the pairings are bbpPairings', so they are fixed). C.07 as
/// docs/directors.md reads it ("Tiebreaks"): an unplayed round (bye,
/// forfeit, withdrawal) counts in Buchholz and SB as a game against a
/// virtual opponent with the player's own score; a bye or forfeit win
/// counts as a win.
///
/// Scores: s1 4, s3 3, s2 2½, s6 2½, s4 s5 s7 s8 1½, s9 1.
/// - s1 beat s5 (1½), s9 (1), s4 (1½), s2 (2½): BH 6.5, cut 1 (drop 1)
///   5.5, SB 6.5, 4 wins.
/// - s3 beat s7 (1½), lost to s2 (2½), won by forfeit against s9 (virtual
///   3), beat s4 (1½): BH 8.5, cut 7, SB 1.5 + 3 + 1.5 = 6.
/// - s2 drew s6 (2½), beat s3 (3) and s8 (1½), lost to s1 (4): BH 11,
///   cut 9.5, SB 1.25 + 3 + 1.5 = 5.75; ahead of s6 on BH-C1.
/// - s6 drew s2 (2½), lost to s4 (1½), beat s7 and s8 (1½ each): BH 7,
///   cut 5.5, SB 1.25 + 1.5 + 1.5 = 4.25.
/// - s4 drew s8 (1½), beat s6 (2½), lost to s1 (4) and s3 (3): BH 11, cut
///   9.5, SB 0.75 + 2.5 = 3.25.
/// - s5 lost to s1 (4) and s8 (1½), had the bye (virtual 1½), drew s7
///   (1½): BH 8.5, cut 7, SB 1.5 + 0.75 = 2.25.
/// - s7 lost to s3 (3), had the bye (1½), lost to s6 (2½), drew s5 (1½):
///   BH 8.5, cut 7, SB 2.25. s5 and s7 are equal on score, BH-C1, BH and
///   SB and have met: direct encounter ½ each, then wins (1 each), then
///   start number: s5 first.
/// - s8 drew s4 (1½), beat s5 (1½), lost to s2 and s6 (2½ each): BH 8,
///   cut 6.5, SB 0.75 + 1.5 = 2.25.
/// - s9 (withdrawn after round 3) had the bye (virtual 1), lost to s1 (4),
///   lost by forfeit to s3 (virtual 1), sat out round 4 (virtual 1): BH 7,
///   cut 6, SB 1 (the bye), 1 win, 1 game played.
fn hand_worked_table() -> Vec<Vec<String>> {
    [
        "1 s1 6w1 9b1 5w1 3b1 4 4 5.5 6.5 6.5 0 4",
        "2 s3 7w1 3b0 9w+ 5b1 3 3 7 8.5 6 0 3",
        "3 s2 4b½ 2w1 8b1 1w0 2½ 4 9.5 11 5.75 0 2",
        "4 s6 3w½ 5b0 7b1 8w1 2½ 4 5.5 7 4.25 0 2",
        "5 s4 8b½ 4w1 1b0 2w0 1½ 4 9.5 11 3.25 0 1",
        "6 s5 1b0 8w0 bye1 7b½ 1½ 3 7 8.5 2.25 0.5 1",
        "7 s7 2b0 bye1 4w0 6w½ 1½ 3 7 8.5 2.25 0.5 1",
        "8 s8 5w½ 6b1 3w0 4b0 1½ 4 6.5 8 2.25 0 1",
        "9 s9 w bye1 1w0 2b- bye0 1 1 6 7 1 0 1",
    ]
    .iter()
    .map(|row| row.split_whitespace().map(str::to_string).collect())
    .collect()
}

fn points(res: Res) -> u32 {
    match res {
        Res::Win | Res::ForfeitWin => 2,
        Res::Draw => 1,
        Res::Loss | Res::ForfeitLoss => 0,
        Res::Bye(p) => p,
    }
}

/// Checks every row of the crosstable against a tally made here from the
/// games as played: score, each round's cell, Buchholz cut 1, Buchholz,
/// Sonneborn-Berger, direct encounter, wins (C.07 as docs/directors.md,
/// "Tiebreaks", reads it: an unplayed round counts against a virtual
/// opponent with the player's own score).
fn check_crosstable(body: &str, record: &Record) {
    let score = |p: &str| -> u32 { record[p].values().map(|(_, _, r)| points(*r)).sum() };
    let played = |r: Res| matches!(r, Res::Win | Res::Draw | Res::Loss);
    // In hundredths.
    let contributions = |p: &str| -> Vec<(u32, i64)> {
        record[p]
            .values()
            .map(|(opp, _, r)| {
                let opp_score = match (opp, played(*r)) {
                    (Some(o), true) => score(o),
                    _ => score(p),
                };
                (points(*r), i64::from(opp_score))
            })
            .collect()
    };
    let mut rows: Vec<(String, u32, Vec<i64>)> = record
        .keys()
        .map(|p| {
            let c = contributions(p);
            let bh: i64 = c.iter().map(|(_, s)| s * 50).sum();
            let low = c.iter().map(|(_, s)| s * 50).min().unwrap_or(0);
            let sb: i64 = c.iter().map(|(pts, s)| i64::from(*pts) * s * 25).sum();
            let wins = record[p]
                .values()
                .filter(|(_, _, r)| points(*r) == 2)
                .count() as i64
                * 100;
            (p.clone(), score(p), vec![bh - low, bh, sb, 0, wins])
        })
        .collect();
    rows.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.2[..3].cmp(&a.2[..3]))
            .then(start(&a.0).cmp(&start(&b.0)))
    });
    // Direct encounter among players equal on score, BH-C1, BH and SB.
    let keys: Vec<(u32, Vec<i64>)> = rows.iter().map(|r| (r.1, r.2[..3].to_vec())).collect();
    for i in 0..rows.len() {
        let group: Vec<String> = rows
            .iter()
            .zip(&keys)
            .filter(|(_, k)| **k == keys[i])
            .map(|(r, _)| r.0.clone())
            .collect();
        if group.len() < 2 {
            continue;
        }
        let met =
            |a: &String, b: &String| record[a].values().any(|(o, _, _)| o.as_ref() == Some(b));
        if group
            .iter()
            .all(|a| group.iter().all(|b| a == b || met(a, b)))
        {
            let p = rows[i].0.clone();
            rows[i].2[3] = record[&p]
                .values()
                .filter(|(o, _, _)| o.as_ref().is_some_and(|o| group.contains(o)))
                .map(|(_, _, r)| i64::from(points(*r)) * 50)
                .sum();
        }
    }
    rows.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.2.cmp(&a.2))
            .then(start(&a.0).cmp(&start(&b.0)))
    });
    let rank: BTreeMap<String, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.0.clone(), i + 1))
        .collect();
    let value = |v: i64| pbem::tournament::text::value_text(v);
    let lines: Vec<&str> = body.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.contains("#  Player"))
        .expect("a table");
    assert_eq!(
        lines[header].split_whitespace().collect::<Vec<_>>(),
        [
            "#", "Player", "R1", "R2", "R3", "R4", "Score", "G", "BH-C1", "BH", "SB", "DE", "Wins"
        ]
    );
    for (i, (player, halves, tiebreaks)) in rows.iter().enumerate() {
        let mut expected = vec![(i + 1).to_string(), player.clone()];
        if player == "s9" {
            expected.push("w".into());
        }
        for round in 1..=ROUNDS {
            let (opp, white, res) = record[player][&round].clone();
            let mark = match res {
                Res::Win | Res::Bye(2) => "1",
                Res::Draw => "½",
                Res::Loss | Res::Bye(0) => "0",
                Res::ForfeitWin => "+",
                Res::ForfeitLoss => "-",
                Res::Bye(_) => "?",
            };
            expected.push(match (opp, white) {
                (Some(o), Some(w)) => format!("{}{}{mark}", rank[&o], if w { "w" } else { "b" }),
                _ => format!("bye{mark}"),
            });
        }
        expected.push(pbem::tournament::points_text(*halves));
        expected.push(
            record[player]
                .values()
                .filter(|(_, _, r)| played(*r))
                .count()
                .to_string(),
        );
        expected.extend(tiebreaks.iter().map(|v| value(*v)));
        let row: Vec<String> = lines[header + 1 + i]
            .split_whitespace()
            .map(str::to_string)
            .collect();
        assert_eq!(row, expected, "row {}:\n{body}", i + 1);
    }
}

#[test]
fn a_round_deadline_scores_unfinished_games_and_late_entries_get_zero_point_byes() {
    let mut h = Harness::new();
    h.signup("td", TD);
    for p in ["s1", "s2", "s3", "s4", "s5"] {
        h.signup(p, &address(p));
    }
    h.send(
        TD,
        "new",
        "tournament create td td-pw quick chess --swiss=2 --round-days=3 --max-rating=1600",
    );
    for p in ["s1", "s2", "s3", "s4"] {
        h.send(
            &address(p),
            "e",
            &format!("tournament enter quick {p} {p}-pw"),
        );
    }
    let started = h.send(TD, "s", "tournament start quick td td-pw");
    let (games, bye) = pairing_of(&started, "quick", 2, 1);
    assert_eq!(games.len(), 2);
    assert_eq!(bye, None);
    // A late entry during round 1 of 2 (1 <= 2/2): a zero-point bye for it.
    let late = h.send(&address("s5"), "e", "tournament enter quick s5 s5-pw");
    assert!(
        late[0]
            .body
            .contains("s5 entered \"quick\" late, as number 5"),
        "{}",
        late[0].body
    );
    let start = h.now;
    assert!(
        !h.sweep(start + Duration::days(2))
            .iter()
            .any(|m| m.body.contains("passed")),
        "the round has 3 days"
    );
    // After 3 days the two unfinished games are drawn and round 2 paired.
    let mails = h.sweep(start + Duration::days(3) + Duration::hours(1));
    let (games, bye) = pairing_of(&mails, "quick", 2, 2);
    assert_eq!(games.len(), 2, "{mails:#?}");
    assert!(bye.is_some(), "five players: a bye");
    let table = h.send("guest@example.net", "c", "tournament crosstable quick");
    let body = &table[0].body;
    assert!(body.contains("bye0"), "the late entry's round 1:\n{body}");
    assert!(body.matches("½").count() >= 4, "four drawn halves:\n{body}");
    // Entry closes after half the rounds.
    h.signup("s6", &address("s6"));
    let refused = h.send(&address("s6"), "e", "tournament enter quick s6 s6-pw");
    assert!(
        refused[0]
            .body
            .contains("late entries are taken until round 1 of 2"),
        "{}",
        refused[0].body
    );
}

/// The pairing of `round` of event `name` (of `rounds`) in the director's
/// notice among `mails`.
fn pairing_of(mails: &[Sent], name: &str, rounds: u32, round: u32) -> (Vec<Game>, Option<String>) {
    let notice = mails
        .iter()
        .find(|m| {
            m.to == TD
                && m.body.contains(&format!(
                    "Round {round} of {rounds} of \"{name}\" is paired"
                ))
        })
        .unwrap_or_else(|| panic!("the notice of round {round} among {mails:#?}"));
    let games = games_in(&notice.body)
        .into_iter()
        .filter(|game| game.round == round)
        .collect();
    let bye =
        notice.body.lines().find_map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                ["Round", r, "bye", player] if r == round.to_string() => Some(player.to_string()),
                _ => None,
            },
        );
    (games, bye)
}

#[test]
fn rating_limits_refuse_entries_outside_them_and_change_nothing() {
    let mut h = Harness::new();
    h.signup("td", TD);
    h.signup("s1", &address("s1"));
    h.send(
        TD,
        "new",
        "tournament create td td-pw strong chess --swiss=3 --min-rating=1800",
    );
    let mails = h.send(&address("s1"), "e", "tournament enter strong s1 s1-pw");
    assert!(
        mails[0]
            .body
            .contains("\"strong\" takes players rated 1800 or more in Chess; s1 is rated 1500"),
        "{}",
        mails[0].body
    );
    let shown = h.send("guest@example.net", "s", "tournament show strong");
    assert!(shown[0].body.contains("Entrants (0)"), "{}", shown[0].body);
}
