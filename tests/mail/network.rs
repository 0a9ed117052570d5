//! pbem against real mail servers: Dovecot (IMAP) and an aiosmtpd SMTP
//! listener delivering into the players' Dovecot mailboxes (see
//! `servers/mod.rs`). pbem runs as the real binary (`pbem serve`) reading
//! its mailbox over IMAP and sending over SMTP; the players send over SMTP
//! and read their mailboxes over IMAP.
//!
//! * a whole chess2 game to checkmate, each turn a reply to the board mail;
//! * faults, each with nothing lost and nothing doubled: the SMTP listener
//!   down for a while; Dovecot restarted during a burst; pbem killed with
//!   SIGKILL during a burst and restarted;
//! * TLS and STARTTLS on both sides, against a private CA;
//! * a mail over the size limit, answered from its header alone.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use crate::servers::{CuttingRelay, MailClient, MailServers, Options, Pbem, Received};

const WAIT: Duration = Duration::from_secs(60);

/// Signs a player up over SMTP, confirms the address by replying to the
/// confirmation mail, and waits for the welcome mail.
fn sign_up(client: &mut MailClient, userid: &str) {
    client.send(
        "pbem@example.org",
        "hello",
        &format!("signup {userid} {userid}-pw"),
        None,
    );
    let confirmation = client.wait_for(1, WAIT);
    assert!(
        confirmation[0].subject.starts_with("confirm "),
        "{}",
        confirmation[0].body
    );
    client.send(
        "pbem@example.org",
        &format!("Re: {}", confirmation[0].subject),
        "",
        None,
    );
    let welcome = client.wait_for(1, WAIT);
    assert_eq!(
        welcome[0].subject,
        format!("pbem signup {userid}"),
        "{}",
        welcome[0].body
    );
}

#[test]
fn a_chess2_game_to_checkmate_over_smtp_and_imap() {
    let servers = MailServers::start(&["alice", "bob"], Options::default());
    let data = servers.dir.path().join("pbem-data");
    let mut pbem = Pbem::new(&data, &servers.pbem_config("", ""));
    pbem.start();
    let mut alice = servers.client("alice");
    let mut bob = servers.client("bob");
    sign_up(&mut alice, "alice");
    sign_up(&mut bob, "bob");

    alice.send(
        "pbem@example.org",
        "chess2 challenge alice alice-pw bob --white",
        "",
        None,
    );
    let mut latest: HashMap<&str, Received> = HashMap::new();
    latest.insert("alice", alice.wait_for(1, WAIT).remove(0));
    latest.insert("bob", bob.wait_for(1, WAIT).remove(0));
    assert!(
        latest["alice"].subject.starts_with("New Chess2 Board 101"),
        "{}",
        latest["alice"].subject
    );

    // 1.e4 a6,h6 2.Bc4,Qh5 a5,b6 3.Qxf7#: each turn a reply to the board
    // mail just received, from the player's mail client.
    let turns = [
        ("alice", "e4"),
        ("bob", "a6,h6"),
        ("alice", "Bc4,Qh5"),
        ("bob", "a5,b6"),
        ("alice", "Qxf7#"),
    ];
    for (player, turn) in turns {
        let board_mail = latest[player].clone();
        let client = if player == "alice" {
            &mut alice
        } else {
            &mut bob
        };
        client.reply(&board_mail, turn);
        latest.insert("alice", alice.wait_for(1, WAIT).remove(0));
        latest.insert("bob", bob.wait_for(1, WAIT).remove(0));
        for name in ["alice", "bob"] {
            assert!(
                !latest[name].subject.contains("Error"),
                "{turn} refused: {}",
                latest[name].body
            );
        }
    }
    for name in ["alice", "bob"] {
        let last = &latest[name];
        assert!(
            last.body.contains("1-0"),
            "{name}'s last mail:\n{}",
            last.body
        );
        assert!(
            last.body.to_lowercase().contains("checkmate"),
            "{}",
            last.body
        );
    }
    let (result, reason): (Option<String>, Option<String>) = pbem
        .db()
        .query_row(
            "SELECT result, end_reason FROM boards WHERE number = 101",
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .expect("board 101");
    assert_eq!(result.as_deref(), Some("1-0"), "{reason:?}");

    // SIGTERM ends the IDLE at once. Every mail pbem got is processed,
    // \Seen, and moved out of INBOX; every reply it queued was accepted by
    // the SMTP server exactly once.
    let stopping = Instant::now();
    pbem.stop();
    assert!(
        stopping.elapsed() < Duration::from_secs(5),
        "stopping took {:?}",
        stopping.elapsed()
    );
    let pbem_mailbox = servers.client("pbem");
    assert!(pbem_mailbox.folder("INBOX").is_empty());
    let processed = pbem_mailbox.folder("processed");
    // Two signups, their two confirmations, a challenge and the turns.
    assert_eq!(processed.len(), 10, "{processed:?}");
    assert!(
        processed.iter().all(|(_, flags, _)| flags.contains("Seen")),
        "{processed:?}"
    );
    assert_eq!(pbem.count("SELECT COUNT(*) FROM processed"), 10);
    assert_exactly_once(&servers, &pbem);
    assert_eq!(
        pbem.warnings(),
        Vec::<String>::new(),
        "a smooth game logs no warning"
    );
}

/// Every outbox mail accepted by the SMTP listener exactly once per
/// recipient, and nothing else accepted for the players.
fn assert_exactly_once(servers: &MailServers, pbem: &Pbem) {
    let outbox = outbox(pbem);
    let accepted = accepted_from_pbem(servers);
    for (message_id, recipients) in &outbox {
        for recipient in recipients {
            let times = accepted
                .get(&(recipient.clone(), message_id.clone()))
                .copied()
                .unwrap_or(0);
            assert_eq!(
                times, 1,
                "{message_id} to {recipient} accepted {times} times"
            );
        }
    }
    let expected: usize = outbox.values().map(Vec::len).sum();
    assert_eq!(accepted.values().sum::<usize>(), expected, "{accepted:#?}");
    assert_eq!(
        pbem.count("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL"),
        0
    );
}

/// The outbox: Message-ID -> recipients.
fn outbox(pbem: &Pbem) -> BTreeMap<String, Vec<String>> {
    let db = pbem.db();
    let mut statement = db
        .prepare("SELECT message_id, recipients FROM outbox")
        .expect("query");
    statement
        .query_map([], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?
                    .lines()
                    .map(str::to_string)
                    .collect(),
            ))
        })
        .expect("rows")
        .map(|row| row.expect("row"))
        .collect()
}

/// How often the listener accepted each (recipient, Message-ID) of mail
/// sent to a player (not to pbem).
fn accepted_from_pbem(servers: &MailServers) -> HashMap<(String, String), usize> {
    let mut accepted = HashMap::new();
    for (recipient, message_id) in servers.journal() {
        if !recipient.starts_with("pbem") {
            *accepted.entry((recipient, message_id)).or_insert(0) += 1;
        }
    }
    accepted
}

/// A burst: `pairs` chess boards between p0/p1, p2/p3, ...; each player
/// shuffles a knight out and back `rounds` times, every move a mail with a
/// `#n` guard. Returns the player clients (for reading) and the number of
/// mails sent. Signups and challenges are waited for; the moves are sent
/// without waiting.
struct Burst {
    players: Vec<MailClient>,
    pairs: usize,
    moves: Vec<(usize, String, String)>,
}

impl Burst {
    fn names(pairs: usize) -> Vec<String> {
        (0..pairs * 2).map(|i| format!("p{i}")).collect()
    }

    /// Signs everyone up and opens the boards (waiting for each answer).
    fn prepare(servers: &MailServers, pairs: usize, rounds: usize) -> Burst {
        let mut players: Vec<MailClient> = Burst::names(pairs)
            .iter()
            .map(|n| servers.client(n))
            .collect();
        for (i, player) in players.iter_mut().enumerate() {
            sign_up(player, &format!("p{i}"));
        }
        for pair in 0..pairs {
            let (white, black) = (2 * pair, 2 * pair + 1);
            players[white].send(
                "pbem@example.org",
                &format!("chess challenge p{white} p{white}-pw p{black} --white"),
                "",
                None,
            );
            players[white].wait_for(1, WAIT);
            players[black].wait_for(1, WAIT);
        }
        let white_moves = ["Nf3", "Ng1"];
        let black_moves = ["Nf6", "Ng8"];
        let mut moves = Vec::new();
        for round in 0..rounds * 2 {
            for pair in 0..pairs {
                let board = 101 + pair;
                let turn = 2 * round + 1;
                moves.push((
                    2 * pair,
                    format!("p{}", 2 * pair),
                    format!(
                        "move {board} p{0} p{0}-pw {1}#{turn}",
                        2 * pair,
                        white_moves[round % 2]
                    ),
                ));
                moves.push((
                    2 * pair + 1,
                    format!("p{}", 2 * pair + 1),
                    format!(
                        "move {board} p{0} p{0}-pw {1}#{2}",
                        2 * pair + 1,
                        black_moves[round % 2],
                        turn + 1
                    ),
                ));
            }
        }
        Burst {
            players,
            pairs,
            moves,
        }
    }

    /// Sends the move mails, in order; `during` runs after `at` of them.
    fn send(&mut self, at: usize, mut during: impl FnMut()) {
        let moves = self.moves.clone();
        for (index, (player, _, text)) in moves.iter().enumerate() {
            if index == at {
                during();
            }
            self.players[*player].send("pbem@example.org", "my turn", text, None);
        }
    }

    /// Waits for every board mail the moves cause (each move: one mail to
    /// each player of the board) and checks each arrived exactly once.
    fn check_delivered(&mut self, within: Duration) {
        let per_player = self.moves.len() / self.players.len() * 2;
        for player in &mut self.players {
            let mails = player.wait_for(per_player, within);
            let mut ids: Vec<&str> = mails.iter().map(|m| m.message_id.as_str()).collect();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(
                ids.len(),
                mails.len(),
                "a mail arrived twice for {}",
                player.address()
            );
            assert!(
                mails.iter().all(|m| !m.subject.contains("Error")),
                "{:#?}",
                mails
                    .iter()
                    .map(|m| (&m.subject, &m.body))
                    .collect::<Vec<_>>()
            );
            std::thread::sleep(Duration::from_millis(300));
            let late = player.fetch_new().expect("mailbox");
            assert!(late.is_empty(), "more mail than expected: {late:#?}");
        }
    }

    /// The store holds each board's turns exactly as sent.
    fn check_store(&self, pbem: &Pbem) {
        let turns_per_board = self.moves.len() / self.pairs;
        for pair in 0..self.pairs {
            let board = 101 + pair;
            let count = pbem.count(&format!("SELECT COUNT(*) FROM turns WHERE board = {board}"));
            assert_eq!(count as usize, turns_per_board, "board {board}");
        }
    }
}

/// The number of mails a burst set-up sends to pbem (signups, their
/// confirmations and challenges).
fn setup_mails(pairs: usize) -> usize {
    pairs * 2 * 2 + pairs
}

/// The replies to them: a confirmation mail and a welcome per signup, two
/// board mails per challenge.
fn setup_replies(pairs: usize) -> usize {
    pairs * 2 * 2 + pairs * 2
}

#[test]
fn the_smtp_server_down_for_a_while_loses_and_doubles_nothing() {
    // IDLE on, processed mail deleted; an address the SMTP server refuses
    // for good at RCPT TO must not hold up the others.
    let mut servers = MailServers::start(
        &["p0", "p1", "p2", "p3", "ghost"],
        Options {
            refused: vec!["ghost".into()],
            ..Options::default()
        },
    );
    let data = servers.dir.path().join("pbem-data");
    let mut pbem = Pbem::new(&data, &servers.pbem_config("delete = true", ""));
    pbem.start();
    let mut burst = Burst::prepare(&servers, 2, 2);
    let mut ghost = servers.client("ghost");
    ghost.send("pbem@example.org", "hello", "signup ghost ghost-pw", None);
    let before = setup_mails(2) + 1;
    pbem.wait_count("SELECT COUNT(*) FROM processed", before as i64, WAIT);

    // Stop pbem, queue the burst, take SMTP down, start pbem: it reads
    // every mail but cannot send.
    pbem.stop();
    burst.send(usize::MAX, || {});
    let total = before + burst.moves.len();
    servers.smtp.stop();
    pbem.start();
    pbem.wait_count("SELECT COUNT(*) FROM processed", total as i64, WAIT);
    std::thread::sleep(Duration::from_secs(3));
    let unsent = pbem.count("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL");
    assert_eq!(
        unsent as usize,
        burst.moves.len() * 2 + 1,
        "nothing can be sent while SMTP is down"
    );
    assert!(pbem.logged("cannot send the outbox"), "{}", pbem.log());

    servers.smtp.start();
    burst.check_delivered(WAIT);
    burst.check_store(&pbem);
    // The mail refused at RCPT TO (ghost's confirmation; ghost is no
    // player) is given up, not retried, and nothing else waits.
    pbem.wait_count(
        "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL AND given_up_at IS NOT NULL",
        1,
        WAIT,
    );
    pbem.wait_count(
        "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL AND given_up_at IS NULL",
        0,
        WAIT,
    );
    pbem.stop();
    let warnings = pbem.warnings();
    assert!(
        warnings.iter().any(|w| w.contains("is given up")),
        "{warnings:#?}"
    );
    assert!(
        warnings
            .iter()
            .all(|w| w.contains("cannot send the outbox") || w.contains("is given up")),
        "{warnings:#?}"
    );
    let pbem_mailbox = servers.client("pbem");
    assert!(
        pbem_mailbox.folder("INBOX").is_empty(),
        "deleted after processing"
    );
    let accepted = accepted_from_pbem(&servers);
    assert!(accepted.values().all(|&n| n == 1), "{accepted:#?}");
    let sent: usize = pbem.count("SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL") as usize;
    assert_eq!(accepted.len(), sent);
}

#[test]
fn dovecot_restarted_during_a_burst_loses_and_doubles_nothing() {
    // A server without IDLE and MOVE: pbem polls, and copies then expunges.
    let mut servers = MailServers::start(
        &["p0", "p1", "p2", "p3"],
        Options {
            plain_imap4: true,
            ..Options::default()
        },
    );
    let data = servers.dir.path().join("pbem-data");
    let mut pbem = Pbem::new(&data, &servers.pbem_config("poll_seconds = 1", ""));
    pbem.start();
    let mut burst = Burst::prepare(&servers, 2, 3);
    assert!(pbem.logged("idle=false"), "{}", pbem.log());
    let half = burst.moves.len() / 2;
    burst.send(half, || servers.dovecot.restart());
    let total = setup_mails(2) + burst.moves.len();
    pbem.wait_count("SELECT COUNT(*) FROM processed", total as i64, WAIT);
    burst.check_delivered(WAIT);
    burst.check_store(&pbem);
    pbem.stop();
    let warnings = pbem.warnings();
    assert!(
        !warnings.is_empty() && warnings.iter().all(|w| w.contains("IMAP: ")),
        "pbem saw the restart, and nothing else went wrong: {warnings:#?}"
    );
    let pbem_mailbox = servers.client("pbem");
    assert!(pbem_mailbox.folder("INBOX").is_empty());
    assert_eq!(pbem_mailbox.folder("processed").len(), total);
    assert_exactly_once(&servers, &pbem);
}

/// One signup through pbem, on a server without MOVE (pbem copies each
/// handled mail to the processed folder, then deletes and expunges it),
/// while a relay cuts pbem's connection once, dropping the first answer of
/// Dovecot that holds `trigger`, as a restart between two commands would.
/// pbem reconnects and finds the mail still in the INBOX, handled. Checks
/// that the mail left the INBOX and every reply went out once; returns
/// pbem's warnings and the processed folder.
fn signup_with_a_cut(trigger: &'static str) -> (Vec<String>, Vec<(u32, String, String)>) {
    let servers = MailServers::start(
        &["alice"],
        Options {
            plain_imap4: true,
            ..Options::default()
        },
    );
    let relay = CuttingRelay::start(servers.dovecot.port, trigger);
    let data = servers.dir.path().join("pbem-data");
    let config = servers.pbem_config_via(relay.port, "poll_seconds = 1", "");
    let mut pbem = Pbem::new(&data, &config);
    pbem.start();
    let mut alice = servers.client("alice");
    sign_up(&mut alice, "alice");
    let pbem_mailbox = servers.client("pbem");
    let deadline = Instant::now() + WAIT;
    while !pbem_mailbox.folder("INBOX").is_empty() {
        assert!(
            Instant::now() < deadline,
            "the signup never left pbem's INBOX; pbem's log:\n{}",
            pbem.log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    pbem.stop();
    assert!(relay.has_cut(), "no answer held {trigger:?}");
    assert_exactly_once(&servers, &pbem);
    (pbem.warnings(), pbem_mailbox.folder("processed"))
}

#[test]
fn a_connection_lost_after_the_server_copied_a_mail_doubles_nothing() {
    // The COPY was carried out, pbem never heard: not copied again.
    let (warnings, processed) = signup_with_a_cut("Copy completed");
    assert!(
        warnings.len() == 1 && warnings[0].contains("copying mail UID 1"),
        "the one lost connection, and nothing else: {warnings:#?}"
    );
    // The signup and its confirmation.
    assert_eq!(processed.len(), 2, "{processed:?}");
}

#[test]
fn a_connection_lost_before_the_server_copied_a_mail_loses_nothing() {
    // Lost at the \Seen flag, before the COPY: copied after reconnecting.
    let (warnings, processed) = signup_with_a_cut("Store completed");
    assert!(
        warnings.len() == 1 && warnings[0].contains("flagging mail UID 1"),
        "the one lost connection, and nothing else: {warnings:#?}"
    );
    // The signup and its confirmation.
    assert_eq!(processed.len(), 2, "{processed:?}");
    assert!(processed[0].1.contains("Seen"), "{processed:?}");
}

#[test]
fn pbem_killed_during_a_burst_and_restarted_loses_and_doubles_nothing() {
    let servers = MailServers::start(&["p0", "p1", "p2", "p3", "p4", "p5"], Options::default());
    let data = servers.dir.path().join("pbem-data");
    let mut pbem = Pbem::new(&data, &servers.pbem_config("", ""));
    pbem.start();
    let mut burst = Burst::prepare(&servers, 3, 3);
    pbem.stop();
    burst.send(usize::MAX, || {});
    let total = (setup_mails(3) + burst.moves.len()) as i64;
    // Start and SIGKILL pbem at spread-out moments while it works through
    // the burst, then let it finish.
    let mut kills = 0;
    let started = Instant::now();
    for delay_ms in [150u64, 400, 250, 700, 350] {
        pbem.start();
        std::thread::sleep(Duration::from_millis(delay_ms));
        pbem.kill();
        kills += 1;
        // After each kill the store is whole: two board mails per turn.
        let turns = pbem.count("SELECT COUNT(*) FROM turns");
        let replies = pbem.count("SELECT COUNT(*) FROM outbox");
        assert_eq!(
            replies,
            setup_replies(3) as i64 + 2 * turns,
            "after kill {kills}"
        );
        if pbem.count("SELECT COUNT(*) FROM processed") == total {
            break;
        }
    }
    eprintln!("{kills} kills in {:?}", started.elapsed());
    pbem.start();
    pbem.wait_count("SELECT COUNT(*) FROM processed", total, WAIT);
    pbem.wait_count("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL", 0, WAIT);
    burst.check_delivered_allowing(kills);
    burst.check_store(&pbem);
    pbem.stop();
    assert_eq!(pbem.warnings(), Vec::<String>::new());
    let pbem_mailbox = servers.client("pbem");
    assert!(pbem_mailbox.folder("INBOX").is_empty());
    assert_eq!(pbem_mailbox.folder("processed").len() as i64, total);
    // Inbound: every mail had exactly one effect (checked above). Outbound:
    // every reply accepted; a kill between the SMTP server's acceptance and
    // the commit of `sent_at` sends that one mail again with the same
    // Message-ID (RFC 1047), so at most one repeat per kill.
    let accepted = accepted_from_pbem(&servers);
    let repeats: usize = accepted.values().map(|n| n - 1).sum();
    eprintln!("{repeats} repeated deliveries after {kills} kills");
    assert!(repeats <= kills, "{accepted:#?}");
    for (message_id, recipients) in outbox(&pbem) {
        for recipient in recipients {
            assert!(
                accepted.contains_key(&(recipient.clone(), message_id.clone())),
                "{message_id} to {recipient} never sent"
            );
        }
    }
}

impl Burst {
    /// Like `check_delivered`, but a mail may arrive twice (same
    /// Message-ID) up to `repeats` times in all: a mail client shows it
    /// once.
    fn check_delivered_allowing(&mut self, repeats: usize) {
        let per_player = self.moves.len() / self.players.len() * 2;
        let mut repeated = 0;
        for player in &mut self.players {
            let mut mails = player.wait_for(per_player, WAIT);
            std::thread::sleep(Duration::from_millis(300));
            mails.extend(player.fetch_new().expect("mailbox"));
            let mut ids: Vec<&str> = mails.iter().map(|m| m.message_id.as_str()).collect();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), per_player, "{}", player.address());
            repeated += mails.len() - ids.len();
            assert!(mails.iter().all(|m| !m.subject.contains("Error")));
        }
        assert!(repeated <= repeats, "{repeated} repeats");
    }
}

#[test]
fn tls_and_starttls_on_both_sides_with_a_private_ca() {
    let servers = MailServers::start(
        &["alice"],
        Options {
            tls: true,
            ..Options::default()
        },
    );
    let ca = servers.ca_file.clone().expect("a CA");
    let pbem_user = servers.user("pbem").clone();
    let mut alice = servers.client("alice");
    let cases = [
        (
            "tls",
            servers.dovecot.tls_port.expect("imaps"),
            "starttls",
            servers.smtp.port,
        ),
        (
            "starttls",
            servers.dovecot.port,
            "tls",
            servers.smtp.tls_port.expect("smtps"),
        ),
    ];
    for (round, (imap_security, imap_port, smtp_security, smtp_port)) in
        cases.into_iter().enumerate()
    {
        let config = format!(
            "[server]\naddress = \"pbem@example.org\"\n\
             [inbound]\nkind = \"imap\"\nhost = \"localhost\"\nport = {imap_port}\nsecurity = \"{imap_security}\"\nca_file = \"{ca}\"\nuser = \"pbem\"\npassword_env = \"PBEM_TEST_IMAP_PASSWORD\"\n\
             [outbound]\nkind = \"smtp\"\nhost = \"localhost\"\nport = {smtp_port}\nsecurity = \"{smtp_security}\"\nca_file = \"{ca}\"\nuser = \"pbem\"\npassword_env = \"PBEM_TEST_SMTP_PASSWORD\"\nreuse_connection = false\n\
             [limits]\nmin_password_length = 4\n",
            ca = ca.display(),
        );
        let data = servers.dir.path().join(format!("pbem-{round}"));
        let pbem = Pbem::new(&data, &config);
        alice.send(
            "pbem@example.org",
            "hello",
            &format!("signup alice{round} alice{round}-pw"),
            None,
        );
        let deadline = Instant::now() + WAIT;
        loop {
            let (ok, output) = pbem_once_with_env(&pbem, &pbem_user.password);
            assert!(ok, "imap {imap_security}, smtp {smtp_security}: {output}");
            if output.contains("processed 1 mails") {
                assert!(output.contains("sent 1"), "{output}");
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the mail never reached pbem: {output}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        let confirmation = alice.wait_for(1, WAIT);
        assert!(
            confirmation[0].subject.starts_with("confirm "),
            "{}",
            confirmation[0].body
        );
    }
    // A server whose certificate the CA did not sign is refused.
    let config = format!(
        "[inbound]\nkind = \"imap\"\nhost = \"localhost\"\nport = {}\nsecurity = \"tls\"\nuser = \"pbem\"\npassword = \"x\"\n",
        servers.dovecot.tls_port.expect("imaps")
    );
    let pbem = Pbem::new(&servers.dir.path().join("pbem-untrusted"), &config);
    let (ok, output) = pbem.once();
    assert!(!ok && output.contains("TLS"), "{output}");
}

fn pbem_once_with_env(pbem: &Pbem, password: &str) -> (bool, String) {
    pbem.once_with_env(&[
        ("PBEM_TEST_IMAP_PASSWORD", password),
        ("PBEM_TEST_SMTP_PASSWORD", password),
    ])
}

#[test]
fn a_mail_over_the_size_limit_is_answered_from_its_header_alone() {
    let servers = MailServers::start(&["alice"], Options::default());
    let data = servers.dir.path().join("pbem-data");
    // `[limits]` is the configuration's last section.
    let config = servers.pbem_config("", "") + "max_mail_bytes = 20000\n";
    let mut pbem = Pbem::new(&data, &config);
    pbem.start();
    let mut alice = servers.client("alice");
    let line = format!("{}\r\n", "x".repeat(78));
    let body = format!("help\r\n{}", line.repeat(12_000));
    alice.send("pbem@example.org", "a megabyte", &body, None);
    let answer = alice.wait_for(1, WAIT);
    assert!(
        answer[0]
            .body
            .contains("pbem reads mails of up to 20000 bytes"),
        "{}",
        answer[0].body
    );
    let size: usize = answer[0]
        .body
        .split_whitespace()
        .nth(3)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the size in {:?}", answer[0].body));
    assert!(size > 960_000, "the size the server reported: {size}");
    // The big mail is off the inbox: the next mail gets one answer, its own.
    alice.send("pbem@example.org", "help", "", None);
    let next = alice.wait_for(1, WAIT);
    assert_eq!(next[0].subject, "pbem help", "{}", next[0].body);
    pbem.stop();
    let more = alice.fetch_new().expect("alice's mailbox");
    assert!(more.is_empty(), "nothing more came: {more:#?}");
}
