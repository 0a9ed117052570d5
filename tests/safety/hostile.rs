//! The hostile load of "Safety II": every attack on the tournament,
//! rating, challenge and account commands, from forged senders and
//! throwaway accounts, delivered between the turns of a real round robin
//! that four players play to the end by mail. Every real turn must be
//! played and the event finished, nothing lost, no address an attacker
//! names gets more than one mail (and one forged as a sender no more than
//! a stranger's ceiling), no text of an attacker reaches anybody but the
//! attacker, and the mail pbem sends stays within its ceilings.

use std::collections::HashMap;

use pbem_testkit::{Harness, Rng, Sent, address, bare_mail, games_in, load_seed, to};

const DIRECTOR: &str = "td";
const PLAYERS: [&str; 4] = ["ann", "bob", "cat", "dan"];
const MALLORY: &str = "mallory@evil.example";
const GHOST: &str = "ghost@evil.example";
/// Text of the attackers that must reach nobody.
const MARKER: &str = "CHEAP-PILLS";
/// Hostile mails delivered before each real turn.
const BURST: usize = 12;

/// One hostile mail; `n` keeps ids, names and stranger addresses apart.
fn hostile(rng: &mut Rng, n: usize, boards: &[u32]) -> Vec<u8> {
    let id = format!("hostile-{n}@evil.example");
    // Addresses named in commands, and addresses forged as senders.
    let victim = format!("victim{}@victim.example", rng.below(40));
    let forged = format!("someone{}@forged.example", rng.below(40));
    let board = boards[rng.below(boards.len())];
    let spam: String = (0..60).map(|i| format!("{MARKER} {i}\n")).collect();
    match rng.below(13) {
        // An unconfirmed throwaway account creates an event and invites.
        0 => bare_mail(
            GHOST,
            "pbem@localhost",
            "event",
            &id,
            &format!(
                "tournament create ghost ghost-password ev{n} chess\n{}",
                "tournament invite ev{n} ghost ghost-password ann bob cat dan\n".repeat(15)
            ),
        ),
        // Forged from a stranger with the attacker's own valid password.
        1 => bare_mail(
            &forged,
            "pbem@localhost",
            "hi",
            &id,
            &format!("move {board} mallory mallory-password e4\n{spam}"),
        ),
        // Challenges and chat at a player who never answers.
        2 => bare_mail(
            MALLORY,
            "pbem@localhost",
            "games",
            &id,
            &format!(
                "{}chat {board} mallory mallory-password {MARKER}",
                "chess challenge mallory mallory-password cat\n".repeat(15)
            ),
        ),
        // Signups naming strangers' addresses.
        3 => bare_mail(
            &format!("forger{n}@evil.example"),
            "pbem@localhost",
            "hello",
            &id,
            &(0..16)
                .map(|i| {
                    format!(
                        "signup sock{n}x{i} sock-password a{i}@victim.example b{i}@victim.example c{i}@victim.example {victim}\n"
                    )
                })
                .collect::<String>(),
        ),
        // Wrong confirmation codes.
        4 => bare_mail(
            &forged,
            "pbem@localhost",
            "confirm",
            &id,
            &"confirm ABCDEFGHJK\n".repeat(8),
        ),
        // Password guesses against the director, forged from the
        // director's own address and from strangers.
        5 => bare_mail(
            if rng.below(2) == 0 {
                "td@example.org"
            } else {
                "guesser@evil.example"
            },
            "pbem@localhost",
            "start",
            &id,
            &format!("tournament start spring td guess{n}"),
        ),
        // Broadcasts by someone who is not the director, and by the
        // attacker on an event of its own, many times over.
        6 => bare_mail(
            MALLORY,
            "pbem@localhost",
            "news",
            &id,
            &format!(
                "tournament broadcast spring mallory mallory-password {MARKER}\ntournament create mallory mallory-password mev{n} chess\n{}",
                format!("tournament broadcast mev{n} mallory mallory-password {MARKER}\n").repeat(10)
            ),
        ),
        // Probing who exists.
        7 => bare_mail(
            &forged,
            "pbem@localhost",
            "probe",
            &id,
            "rating nosuchuser\nrating ann\ntournament invite spring mallory mallory-password nosuchuser",
        ),
        // A large answer asked for by a forged sender.
        8 => bare_mail(
            &forged,
            "pbem@localhost",
            "pgn",
            &id,
            "tournament pgn spring\ntournament trf spring",
        ),
        // Thousands of commands.
        9 => bare_mail(
            &format!("flood{}@evil.example", rng.below(5)),
            "pbem@localhost",
            "help",
            &id,
            &"help\n".repeat(3000),
        ),
        // Subscribing a stranger and entering the event for someone else.
        10 => bare_mail(
            MALLORY,
            "pbem@localhost",
            "sub",
            &id,
            &format!(
                "subscribe {board} {victim}\ntournament enter spring ann mallory-password\ntournament withdraw spring mallory mallory-password ann"
            ),
        ),
        // Rating farming: puppets that resign at once.
        11 => bare_mail(
            MALLORY,
            "pbem@localhost",
            "farm",
            &id,
            &format!(
                "chess challenge mallory mallory-password ghost\nresign {board} mallory mallory-password"
            ),
        ),
        // Preferences and settings for another player.
        12 => bare_mail(
            &forged,
            "pbem@localhost",
            "set",
            &id,
            "set ann mallory-password mail digest\nsettings ann guess",
        ),
        _ => unreachable!("below(13)"),
    }
}

/// The board number in a board mail's Subject (`Chess Board 101 ...`).
fn board_of(mail: &Sent) -> Option<u32> {
    let words: Vec<&str> = mail.subject.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| w[0] == "Board")
        .and_then(|w| w[1].parse().ok())
}

#[test]
fn every_attack_beside_a_real_round_robin_loses_nothing_and_spams_nobody() {
    let seed = load_seed();
    println!("hostile load seed: {seed} (set PBEM_LOAD_SEED={seed} to repeat)");
    let mut rng = Rng(seed);
    let mut h = Harness::new();
    h.signup(DIRECTOR, &address(DIRECTOR));
    for player in PLAYERS {
        h.signup(player, &address(player));
    }
    let mallory = h.send(MALLORY, "hello", "signup mallory mallory-password");
    h.confirm(&mallory[0], MALLORY);
    // ghost never confirms.
    h.send(GHOST, "hello", "signup ghost ghost-password");

    let created = h.send(
        &address(DIRECTOR),
        "event",
        "tournament create td td-pw spring chess",
    );
    assert!(created[0].body.contains("created"), "{}", created[0].body);
    for player in PLAYERS {
        h.send(
            &address(player),
            "enter",
            &format!("tournament enter spring {player} {player}-pw"),
        );
    }
    let started = h.send(
        &address(DIRECTOR),
        "start",
        "tournament start spring td td-pw",
    );
    let notice = to(&started, &address(DIRECTOR));
    // (board, white, black) from the start notice.
    let games: Vec<(u32, String, String)> = games_in(&notice.body)
        .into_iter()
        .map(|game| (game.board, game.white, game.black))
        .collect();
    assert_eq!(games.len(), 6, "{}", notice.body);
    let boards: Vec<u32> = games.iter().map(|g| g.0).collect();

    // Fool's mate on every board: 1.f3 e5 2.g4 Qh4#.
    let inbox = h.server.inbox().clone();
    let mut all = started.clone();
    let mut delivered = 0;
    let mut duplicates = 0;
    let mut hostile_count = 0;
    for (board, white, black) in &games {
        for (turn, mover) in [("f3", white), ("e5", black), ("g4", white), ("Qh4#", black)] {
            for _ in 0..BURST {
                inbox
                    .deliver(&hostile(&mut rng, hostile_count, &boards))
                    .expect("delivered");
                hostile_count += 1;
                delivered += 1;
            }
            let id = format!("turn-{board}-{turn}@players.example");
            inbox
                .deliver(&bare_mail(
                    &address(mover),
                    "pbem@localhost",
                    "move",
                    &id,
                    &format!("move {board} {mover} {mover}-pw {turn}"),
                ))
                .expect("delivered");
            delivered += 1;
            let pass = h.pass();
            duplicates += pass.duplicates;
            let mails = h.new_mails();
            let answer = mails
                .iter()
                .find(|m| m.to == address(mover) && board_of(m) == Some(*board))
                .unwrap_or_else(|| panic!("board {board} {turn}: no answer to {mover}"));
            assert!(
                !answer.subject.ends_with("Error"),
                "board {board} {turn}:\n{}",
                answer.body
            );
            all.extend(mails);
        }
    }

    let db = h.database();
    let count = |sql: &str| -> i64 { db.query_row(sql, [], |row| row.get(0)).expect(sql) };
    let list: Vec<String> = boards.iter().map(u32::to_string).collect();
    let list = list.join(",");
    assert_eq!(
        count(&format!(
            "SELECT COUNT(*) FROM turns WHERE board IN ({list})"
        )),
        24,
        "every real turn is played"
    );
    assert_eq!(
        count(&format!(
            "SELECT COUNT(*) FROM boards WHERE number IN ({list}) AND result = '0-1'"
        )),
        6,
        "every game ends in Black's mate"
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM tournaments WHERE name = 'spring' AND status = 'finished'"),
        1
    );
    for reader in std::iter::once(DIRECTOR).chain(PLAYERS) {
        assert!(
            all.iter()
                .any(|m| m.to == address(reader) && m.body.contains(" #  Player")),
            "{reader} gets the final crosstable"
        );
    }
    assert_eq!(
        count("SELECT COUNT(*) FROM tournaments WHERE name LIKE 'ev%'"),
        0,
        "an unconfirmed account creates nothing"
    );
    assert_eq!(
        count(
            "SELECT COUNT(*) FROM tournament_entries e JOIN players p ON p.id = e.player_id WHERE p.userid = 'ghost'"
        ),
        0
    );
    assert!(
        inbox.waiting().expect("inbox").is_empty(),
        "nothing is left in the inbox"
    );
    assert!(
        count("SELECT COUNT(*) FROM processed") as usize >= delivered - duplicates,
        "every mail is recorded"
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL"),
        0,
        "all sent"
    );

    let mut per_address: HashMap<String, usize> = HashMap::new();
    for sent in &all {
        *per_address.entry(sent.to.to_ascii_lowercase()).or_default() += 1;
        // The attacker's own confirmed address may see its own text quoted
        // back; nobody else may.
        assert!(
            sent.to == MALLORY || !sent.body.contains(MARKER),
            "an attacker's text reached {}:\n{}",
            sent.to,
            sent.body
        );
        assert!(
            !sent.body.contains("mallory-password") && !sent.body.contains("-pw "),
            "a password reached {}:\n{}",
            sent.to,
            sent.body
        );
    }
    for (address, mails) in &per_address {
        // An address named by an attacker gets one mail at most (its
        // confirmation); one forged as a sender no more than a stranger's
        // ceiling, however many mails are forged from it.
        if address.ends_with("@victim.example") {
            assert!(
                *mails <= 1,
                "{address} got {mails} mails without confirming"
            );
        }
        if address.ends_with("@forged.example") {
            assert!(
                *mails <= h.config.service.sent.stranger.day as usize,
                "{address} got {mails} mails"
            );
        }
    }
    // The ceilings held: no payer or recipient was charged past them.
    let ceilings = h.config.service.sent;
    let most = |pattern: &str| -> i64 {
        count(&format!(
            "SELECT COALESCE(MAX(count), 0) FROM mail_counts WHERE key LIKE '{pattern}'"
        ))
    };
    assert!(most("sent:player:%") <= i64::from(ceilings.player.hour));
    assert!(most("sent:address:%") <= i64::from(ceilings.address.hour));
    assert!(most("sent:to:%") <= i64::from(ceilings.stranger.hour));
    // Nobody accepted mallory's challenges: none of her boards is rated.
    assert_eq!(
        count(
            "SELECT COUNT(*) FROM rated_games WHERE white_id IN (SELECT id FROM players WHERE userid = 'mallory') OR black_id IN (SELECT id FROM players WHERE userid = 'mallory')"
        ),
        0,
        "no farmed rating"
    );
}
