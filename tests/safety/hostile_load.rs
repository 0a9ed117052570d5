//! A hostile load test through the real Maildir, SQLite file and outbox:
//! bursts of hostile mail (forged senders, forged reply tokens, password
//! guesses, huge bodies, thousands of commands, thousands of addresses,
//! squatted and stranger addresses, reused Message-IDs, unusable From
//! lines) delivered between the turns of a real game that two players
//! play by replying to their board mails. Every turn must be played,
//! every mail processed, the outbox sent and bounded, and no address that
//! did not confirm may get more than one mail.

use std::collections::HashMap;

use pbem_testkit::{ALICE, BOB, Harness, Rng, Sent, bare_mail, load_seed, to};

const MALLORY: &str = "mallory@example.net";

/// The game: ten turns of a Ruy Lopez.
const GAME: [&str; 10] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
];
/// Hostile mails delivered before each turn.
const BURST: usize = 60;

/// One hostile mail; `n` keeps ids and stranger addresses apart.
fn hostile(rng: &mut Rng, n: usize, token_of_alice: &str) -> Vec<u8> {
    let id = format!("hostile-{n}@evil.example");
    let stranger = format!("victim{}@victim.example", rng.below(50));
    match rng.below(14) {
        // Forged as alice: password guesses, bare actions, comments.
        0 | 12 => bare_mail(
            ALICE,
            "pbem@localhost",
            "hi",
            &id,
            &format!("resign 101 alice guess{n}"),
        ),
        1 | 13 => bare_mail(
            ALICE,
            "pbem@localhost",
            "Re: Chess Board 101",
            &id,
            "resign\nI give up",
        ),
        // A forged reply token.
        2 => bare_mail(
            MALLORY,
            &token_of_alice.replacen('.', ".9", 1),
            "Re: Chess Board 101",
            &id,
            "resign",
        ),
        // alice's real reply token, from the wrong address.
        3 => bare_mail(
            MALLORY,
            token_of_alice,
            "Re: Chess Board 101",
            &id,
            "resign",
        ),
        // Squatting and mail to strangers.
        4 => bare_mail(
            &format!("forger{n}@evil.example"),
            "pbem@localhost",
            "hello",
            &id,
            &format!("signup sock{n} sock-password {stranger}"),
        ),
        5 => bare_mail(
            MALLORY,
            "pbem@localhost",
            "hello",
            &id,
            &format!(
                "address mallory mallory-password {}",
                (0..3000)
                    .map(|i| format!("spam{i}@victim.example"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        ),
        6 => bare_mail(
            MALLORY,
            "pbem@localhost",
            "hello",
            &id,
            &format!("address mallory mallory-password {stranger}"),
        ),
        // Thousands of commands, and a huge body.
        7 => bare_mail(
            &format!("flood{}@evil.example", rng.below(5)),
            "pbem@localhost",
            "help",
            &id,
            &"help\n".repeat(5000),
        ),
        8 => bare_mail(
            &format!("forger{n}@evil.example"),
            "pbem@localhost",
            "hello",
            &id,
            &format!("signup big{n} big-password\n{}", "x".repeat(300 * 1024)),
        ),
        // Subscribing and chatting into a game that is not one's own.
        9 => bare_mail(
            MALLORY,
            "pbem@localhost",
            "hello",
            &id,
            &format!("subscribe 101 {stranger}\nchat 101 mallory mallory-password hello"),
        ),
        // A From pbem cannot answer, and one mail with two From lines.
        10 => format!(
            "From: a@x..org\r\nFrom: {ALICE}\r\nTo: pbem@localhost\r\nMessage-ID: <{id}>\r\n\r\nresign 101 alice alice-pw\r\n"
        )
        .into_bytes(),
        // A Message-ID the real players will use too.
        11 => bare_mail(
            MALLORY,
            "pbem@localhost",
            "hello",
            &format!("turn-{}@players.example", rng.below(GAME.len())),
            "help",
        ),
        _ => unreachable!("below(14)"),
    }
}

#[test]
fn a_hostile_burst_beside_a_real_game_loses_nothing_and_spams_nobody() {
    let seed = load_seed();
    println!("hostile load seed: {seed} (set PBEM_LOAD_SEED={seed} to repeat)");
    let mut rng = Rng(seed);
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let mallory = h.send(MALLORY, "hello", "signup mallory mallory-password");
    h.confirm(&mallory[0], MALLORY);
    let board = h.send(ALICE, "game", "chess challenge alice alice-pw bob --white");
    let mut latest: HashMap<&str, Sent> = HashMap::new();
    latest.insert(ALICE, to(&board, ALICE).clone());
    latest.insert(BOB, to(&board, BOB).clone());
    let token_of_alice = latest[ALICE].reply_to.clone().expect("a reply token");

    let inbox = h.server.inbox().clone();
    let mut delivered = 0;
    // Mails that reuse a Message-ID of the same sender (the hostile ones
    // pick theirs at random) are duplicates, recorded once.
    let mut duplicates = 0;
    let mut all = Vec::new();
    for (index, turn) in GAME.iter().enumerate() {
        for n in 0..BURST {
            inbox
                .deliver(&hostile(&mut rng, index * BURST + n, &token_of_alice))
                .expect("delivered");
            delivered += 1;
        }
        let mover = if index % 2 == 0 { ALICE } else { BOB };
        let answered = &latest[mover];
        let reply = bare_mail(
            mover,
            answered.reply_to.as_deref().expect("a reply token"),
            &format!("Re: {}", answered.subject),
            &format!("turn-{index}@players.example"),
            turn,
        );
        inbox.deliver(&reply).expect("delivered");
        delivered += 1;
        let pass = h.pass();
        assert_eq!(pass.mails, BURST + 1, "every mail is taken: {pass:?}");
        duplicates += pass.duplicates;
        let mails = h.new_mails();
        for player in [ALICE, BOB] {
            let board_mail = mails
                .iter()
                .rev()
                .find(|m| m.to == player && m.reply_to.is_some())
                .unwrap_or_else(|| panic!("turn {turn}: no board mail to {player}"));
            assert!(
                board_mail.body.contains(&format!("turn #{}", index + 2)),
                "turn {turn} was played:\n{}",
                board_mail.body
            );
            latest.insert(player, board_mail.clone());
        }
        all.extend(mails);
    }

    let db = h.database();
    let count = |sql: &str| -> i64 { db.query_row(sql, [], |row| row.get(0)).expect(sql) };
    assert_eq!(
        count("SELECT COUNT(*) FROM turns WHERE board = 101"),
        GAME.len() as i64
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM boards WHERE result IS NOT NULL"),
        0,
        "nobody resigned for alice"
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM observers"),
        0,
        "no stranger follows the board"
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
    // Bounded: at most a few replies per mail, whatever it held.
    assert!(
        all.len() <= delivered * 3,
        "{} mails sent for {delivered} mails received",
        all.len()
    );
    // Nobody who did not confirm gets more than one mail.
    let confirmed = [ALICE, BOB, MALLORY];
    let mut per_address: HashMap<String, usize> = HashMap::new();
    for sent in &all {
        *per_address.entry(sent.to.to_ascii_lowercase()).or_default() += 1;
    }
    for (address, mails) in &per_address {
        if address.ends_with("@victim.example") {
            assert!(
                *mails <= 1,
                "{address} got {mails} mails without confirming"
            );
        }
        assert!(
            confirmed.contains(&address.as_str()) || !address.starts_with("spam"),
            "{address} was written to"
        );
    }
}
