//! `pbem demo`: a newcomer's first look. Two demo players sign up (and
//! confirm their addresses by replying to the confirmation mail), one
//! challenges the other to chess2, and they play a short game to
//! checkmate, each turn sent as a reply to the board mail the server sent,
//! all through the real pipeline (mails into the Maildir, a server pass,
//! replies in the outbox). Prints the text of the last mail, as a mail
//! program shows it, and the file that holds it whole (MIME, with its HTML
//! part, the board picture and the game's PGN). Runs in `<data-dir>/demo`,
//! which it starts afresh.

use std::fs;
use std::path::{Path, PathBuf};

use mail_parser::MessageParser;

use super::CliError;
use crate::config::{Config, Outbound};
use crate::server::{Server, TimeSource};

const ALICE: &str = "alice@example.org";
const BOB: &str = "bob@example.org";

/// The game: Alice (White) mates on her third turn.
const TURNS: &[(&str, &str)] = &[
    (ALICE, "e4"),
    (BOB, "a6,h6"),
    (ALICE, "Bc4,Qh5"),
    (BOB, "a5,b6"),
    (ALICE, "Qxf7#"),
];

pub fn run(data_dir: &Path) -> Result<(), CliError> {
    let dir = data_dir.join("demo");
    if dir.exists() {
        fs::remove_dir_all(&dir)
            .map_err(|e| server_error(format!("cannot clear {}: {e}", dir.display())))?;
    }
    let config = Config::defaults(&dir);
    let Outbound::Directory(outbox) = &config.outbound else {
        return Err(server_error(
            "the demo writes mail into a directory".to_string(),
        ));
    };
    let outbox = outbox.clone();
    let mut server = Server::open(&config).map_err(|e| server_error(e.to_string()))?;
    let mut demo = Demo {
        server: &mut server,
        outbox,
        sequence: 0,
    };

    demo.send(
        ALICE,
        "pbem@localhost",
        "Hello pbem",
        "signup alice alice-secret",
    )?;
    demo.confirm(ALICE)?;
    demo.send(BOB, "pbem@localhost", "Hello pbem", "signup bob bob-secret")?;
    demo.confirm(BOB)?;
    demo.send(
        ALICE,
        "pbem@localhost",
        "chess2 challenge alice alice-secret bob --white",
        "",
    )?;
    for (player, turn) in TURNS {
        let (reply_to, subject) = demo.latest_board_mail(player)?;
        demo.send(player, &reply_to, &format!("Re: {subject}"), turn)?;
    }
    let (path, raw) = demo.last_mail()?;
    let (subject, text) = text_part(&raw)?;
    println!(
        "pbem demo: alice and bob played a chess2 game by mail in {}.\nEvery mail the server sent is in {}; this is the text of the last one\n(the whole mail, with its HTML part and attachments, is {}):\n",
        dir.display(),
        demo.outbox.display(),
        path.display()
    );
    println!("Subject: {subject}\n");
    println!("{}", text.trim_end());
    Ok(())
}

/// The Subject and the plain-text part of a mail.
fn text_part(raw: &[u8]) -> Result<(String, String), CliError> {
    let message = MessageParser::default()
        .parse(raw)
        .ok_or_else(|| server_error("the last mail cannot be read".to_string()))?;
    let text = message
        .body_text(0)
        .ok_or_else(|| server_error("the last mail has no text part".to_string()))?;
    Ok((
        message.subject().unwrap_or_default().to_string(),
        text.into_owned(),
    ))
}

fn server_error(message: String) -> CliError {
    CliError::Server(message)
}

struct Demo<'a> {
    server: &'a mut Server,
    outbox: PathBuf,
    sequence: u32,
}

impl Demo<'_> {
    /// Delivers a mail into the inbox and runs one server pass.
    fn send(&mut self, from: &str, to: &str, subject: &str, body: &str) -> Result<(), CliError> {
        self.sequence += 1;
        let mail = format!(
            "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <demo-{}@example.org>\r\n\r\n{body}\r\n",
            self.sequence
        );
        self.server
            .inbox()
            .deliver(mail.as_bytes())
            .map_err(|e| server_error(format!("cannot deliver into the inbox: {e}")))?;
        let stop = std::sync::atomic::AtomicBool::new(false);
        self.server
            .process_waiting(TimeSource::System, &stop)
            .map_err(|e| server_error(e.to_string()))?;
        Ok(())
    }

    fn mails(&self) -> Result<Vec<PathBuf>, CliError> {
        let mut paths: Vec<PathBuf> = fs::read_dir(&self.outbox)
            .map_err(|e| server_error(format!("cannot read {}: {e}", self.outbox.display())))?
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|e| e == "eml"))
            .collect();
        paths.sort();
        Ok(paths)
    }

    /// Replies from `player` to the newest confirmation mail it got.
    fn confirm(&mut self, player: &str) -> Result<(), CliError> {
        let subject = self
            .latest_mail(player, |subject, _| subject.starts_with("confirm "))?
            .1;
        self.send(player, "pbem@localhost", &format!("Re: {subject}"), "")
    }

    /// The Reply-To and Subject of the newest board mail to `player`.
    fn latest_board_mail(&self, player: &str) -> Result<(String, String), CliError> {
        let (reply_to, subject) = self.latest_mail(player, |_, reply_to| reply_to.is_some())?;
        Ok((reply_to.unwrap_or_default(), subject))
    }

    /// The Reply-To and Subject of the newest mail to `player` that `wanted`
    /// (given the subject and the Reply-To) picks.
    fn latest_mail(
        &self,
        player: &str,
        wanted: impl Fn(&str, Option<&str>) -> bool,
    ) -> Result<(Option<String>, String), CliError> {
        for path in self.mails()?.iter().rev() {
            let raw = fs::read(path).map_err(|e| server_error(e.to_string()))?;
            let Some(message) = MessageParser::default().parse(&raw) else {
                continue;
            };
            let to = message
                .to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or_default();
            let reply_to = message
                .reply_to()
                .and_then(|a| a.first())
                .and_then(|a| a.address());
            let subject = message.subject().unwrap_or_default();
            if to.eq_ignore_ascii_case(player) && wanted(subject, reply_to) {
                return Ok((reply_to.map(str::to_string), subject.to_string()));
            }
        }
        Err(server_error(format!(
            "the server sent {player} no such mail"
        )))
    }

    /// The newest mail of the outbox: its file and its bytes.
    fn last_mail(&self) -> Result<(PathBuf, Vec<u8>), CliError> {
        let last = self
            .mails()?
            .pop()
            .ok_or_else(|| server_error("the server sent no mail".to_string()))?;
        let raw = fs::read(&last).map_err(|e| server_error(e.to_string()))?;
        Ok((last, raw))
    }
}
