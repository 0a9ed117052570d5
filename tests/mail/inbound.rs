//! The inbound loop's exactly-once promise, for each source: a batch whose
//! results were committed but which was never acknowledged to its source
//! (as after a crash between the commit and the acknowledgement) comes
//! again, and every mail of it is a duplicate: no second effect, no second
//! answer, and the mail then leaves the source.
//!
//! * the Maildir: the mails stay in `new/`, are read again, and move to
//!   `cur/`;
//! * IMAP against a real Dovecot (see `servers/mod.rs`): the mail stays in
//!   the INBOX, is fetched again, and moves to the processed folder.

use std::io;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::servers::{MailServers, Options};
use pbem::config::{Config, Inbound};
use pbem::mail::imap::ImapSource;
use pbem::mail::maildir::MaildirSource;
use pbem::mail::source::{Fetched, InboundSource, SourceError};
use pbem::mail::stop::Stop;
use pbem::server::{Pass, Server, ServerError, TimeSource};
use pbem::store::Store;
use pbem_testkit::{ALICE, BOB, Harness};

/// A source whose acknowledgement never happens, as if pbem died right
/// after the commit: everything else is the wrapped source's.
struct CutBeforeAcknowledgement<S>(S);

impl<S: InboundSource> InboundSource for CutBeforeAcknowledgement<S> {
    fn open(&mut self, stop: &Stop) -> Result<(), SourceError> {
        self.0.open(stop)
    }

    fn fetch(&mut self, max: usize, limit: usize) -> Result<Vec<Fetched>, SourceError> {
        self.0.fetch(max, limit)
    }

    fn acknowledge(&mut self) -> Result<(), SourceError> {
        Err(SourceError::Maildir {
            path: "cut".into(),
            error: io::Error::other("cut off before the acknowledgement"),
        })
    }

    fn wait(&mut self, stop: &Stop) -> Result<(), SourceError> {
        self.0.wait(stop)
    }

    fn close(&mut self) {
        self.0.close()
    }
}

fn files_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).expect("folder").count()
}

fn cut_pass(server: &mut Server, source: &mut dyn InboundSource, time_source: TimeSource) {
    let result = server.process_source(source, time_source, &AtomicBool::new(false));
    assert!(
        matches!(result, Err(ServerError::Inbound(_))),
        "the pass fails at the acknowledgement: {result:?}"
    );
}

#[test]
fn a_maildir_batch_committed_and_never_acknowledged_comes_again_as_duplicates() {
    let mut h = Harness::new();
    let inbox = h.server.inbox().clone();
    let mails = [
        format!(
            "From: {ALICE}\r\nTo: pbem@localhost\r\nSubject: help\r\nMessage-ID: <one@example.org>\r\n\r\nhelp\r\n"
        ),
        format!(
            "From: {BOB}\r\nTo: pbem@localhost\r\nSubject: help\r\nMessage-ID: <two@example.org>\r\n\r\nhelp\r\n"
        ),
        // Without a Message-ID: known by the digest of its bytes.
        format!("From: {BOB}\r\nTo: pbem@localhost\r\nSubject: help\r\n\r\nhelp\r\n"),
    ];
    for mail in &mails {
        inbox.deliver(mail.as_bytes()).expect("delivered");
    }
    let mut cut = CutBeforeAcknowledgement(MaildirSource::new(inbox.clone(), Duration::ZERO));
    cut_pass(&mut h.server, &mut cut, TimeSource::Fixed(h.now));
    // Committed (each mail answered) and still in new/.
    let answers = h.new_mails();
    assert_eq!(answers.len(), 3, "{answers:#?}");
    assert_eq!(files_in(&inbox.root().join("new")), 3);
    assert_eq!(files_in(&inbox.root().join("cur")), 0);

    let pass = h.pass();
    assert_eq!(
        pass,
        Pass {
            mails: 3,
            duplicates: 3,
            ..Pass::default()
        }
    );
    assert!(h.new_mails().is_empty(), "no mail is answered twice");
    assert_eq!(files_in(&inbox.root().join("new")), 0);
    assert_eq!(files_in(&inbox.root().join("cur")), 3);
}

#[test]
fn an_imap_batch_committed_and_never_acknowledged_comes_again_as_a_duplicate() {
    let servers = MailServers::start(&["alice"], Options::default());
    let data = servers.dir.path().join("pbem-data");
    std::fs::create_dir_all(&data).expect("data dir");
    let file = servers.dir.path().join("pbem.toml");
    std::fs::write(&file, servers.pbem_config("", "")).expect("config");
    let config = Config::load(&file, &data).expect("config loads");
    let Inbound::Imap(settings) = &config.inbound else {
        panic!("an IMAP configuration: {:?}", config.inbound);
    };
    let mut server = Server::open(&config).expect("server");
    let time_source = TimeSource::Fixed(time::macros::datetime!(2026-03-01 12:00 UTC));

    let mut alice = servers.client("alice");
    alice.send("pbem@example.org", "help", "", None);
    let pbem_mailbox = servers.client("pbem");
    let deadline = Instant::now() + Duration::from_secs(60);
    while pbem_mailbox.folder("INBOX").is_empty() {
        assert!(Instant::now() < deadline, "the mail never reached pbem");
        std::thread::sleep(Duration::from_millis(100));
    }

    let store = || Store::open(&config.database).expect("store");
    let mut cut = CutBeforeAcknowledgement(ImapSource::new(settings, store()));
    cut_pass(&mut server, &mut cut, time_source);
    let answer = alice.wait_for(1, Duration::from_secs(60));
    assert_eq!(answer[0].subject, "pbem help", "{}", answer[0].body);
    assert_eq!(pbem_mailbox.folder("INBOX").len(), 1, "still in the INBOX");

    let mut source = ImapSource::new(settings, store());
    let pass = server
        .process_source(&mut source, time_source, &AtomicBool::new(false))
        .expect("the pass succeeds");
    assert_eq!(
        pass,
        Pass {
            mails: 1,
            duplicates: 1,
            ..Pass::default()
        }
    );
    assert!(pbem_mailbox.folder("INBOX").is_empty());
    assert_eq!(pbem_mailbox.folder("processed").len(), 1);
    std::thread::sleep(Duration::from_millis(500));
    let more = alice.fetch_new().expect("alice's mailbox");
    assert!(more.is_empty(), "no second answer: {more:#?}");
}

/// `keep_processed_days` on IMAP: at each connection the processed folder
/// loses the mails that came in (internal date) longer ago than that, and
/// keeps the others.
#[test]
fn the_imap_processed_folder_keeps_mails_for_keep_processed_days() {
    use chrono::TimeZone;
    let servers = MailServers::start(&["alice"], Options::default());
    let data = servers.dir.path().join("pbem-data");
    std::fs::create_dir_all(&data).expect("data dir");
    let file = servers.dir.path().join("pbem.toml");
    std::fs::write(&file, servers.pbem_config("keep_processed_days = 10", "")).expect("config");
    let config = Config::load(&file, &data).expect("config loads");
    let Inbound::Imap(settings) = &config.inbound else {
        panic!("an IMAP configuration: {:?}", config.inbound);
    };
    assert!(settings.keep_processed.is_some(), "{settings:?}");
    let pbem = servers.user("pbem");
    let tcp = std::net::TcpStream::connect(("127.0.0.1", servers.dovecot.port)).expect("imap");
    let mut client = imap::Client::new(tcp);
    client.read_greeting().expect("greeting");
    let mut session = client
        .login(&pbem.name, &pbem.password)
        .map_err(|(e, _)| e)
        .expect("login");
    session.create("processed").ok();
    let utc = chrono::FixedOffset::east_opt(0).expect("UTC");
    let days_ago = |days: i64| {
        let now = time::OffsetDateTime::now_utc() - time::Duration::days(days);
        utc.timestamp_opt(now.unix_timestamp(), 0)
            .single()
            .expect("a time")
    };
    for (id, age) in [("old", 11), ("recent", 9)] {
        let mail = format!(
            "From: {}\r\nMessage-ID: <{id}@example.org>\r\nSubject: x\r\n\r\nx\r\n",
            ALICE
        );
        session
            .append("processed", mail.as_bytes())
            .internal_date(days_ago(age))
            .finish()
            .expect("appended");
    }
    session.logout().ok();
    let folder = |servers: &MailServers| -> Vec<String> {
        servers
            .client("pbem")
            .folder("processed")
            .into_iter()
            .map(|(_, _, id)| id)
            .collect()
    };
    assert_eq!(folder(&servers).len(), 2);

    let mut server = Server::open(&config).expect("server");
    let store = Store::open(&config.database).expect("store");
    let mut source = ImapSource::new(settings, store);
    server
        .process_source(
            &mut source,
            TimeSource::Fixed(time::macros::datetime!(2026-03-01 12:00 UTC)),
            &AtomicBool::new(false),
        )
        .expect("the pass succeeds");
    assert_eq!(folder(&servers), vec!["<recent@example.org>".to_string()]);
}
