//! Bounces through a real Postfix: pbem's outbox sends a mail with its
//! SMTP sender and with its sendmail sender to an unknown user, Postfix
//! bounces it with a real DSN to the mail's VERP envelope sender, and
//! reading that DSN names exactly the mail that was sent; a forged DSN
//! (the right form, a wrong MAC) names none.
//!
//! Each test starts a private Postfix instance of its own, as root: its
//! own `config_directory`, `queue_directory` and `data_directory` in a
//! temporary directory, `smtpd` on a free loopback port only, no local
//! delivery; the domain `pbem.test` is a virtual mailbox domain whose one
//! mailbox `pbem@pbem.test` (and so `pbem+anything@pbem.test`) is a Maildir
//! owned by `nobody`, and whose unknown users are accepted and then
//! bounced (or, in [`Postfix::start_refusing_unknown`], refused at RCPT TO). The system's own Postfix (`/etc/postfix`), if any, is never
//! read nor touched. Nothing here skips: without root or without Postfix
//! (`./scripts/test` installs it) the test fails and says why.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt, chown};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use pbem::mail::bounce::{self, Original, SentMail, Verp};
use pbem::mail::outbox::Outbox;
use pbem::mail::token::TokenKey;
use pbem::mail::transport::smtp::SmtpConfig;
use pbem::mail::transport::{MailSender, SendmailSender, SmtpSender};
use pbem::mail::{Endpoint, Security, ServerAddress};
use pbem::store::{Store, mailbox};
use pbem_testkit::free_port;
use time::OffsetDateTime;

const POSTFIX: &str = "/usr/sbin/postfix";
const POSTCONF: &str = "/usr/sbin/postconf";
const SENDMAIL: &str = "/usr/sbin/sendmail";
/// The owner of the Maildir (Postfix's virtual delivery refuses uid 0).
const MAIL_UID: u32 = 65534;
/// How long a bounce may take to arrive.
const BOUNCE_WAIT: Duration = Duration::from_secs(60);

/// Runs `program` with `args`, failing the test with its output.
fn run(program: &str, args: &[&str]) {
    let output = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    assert!(
        output.status.success(),
        "{program} {args:?} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A private Postfix instance, stopped when dropped.
pub(crate) struct Postfix {
    dir: tempfile::TempDir,
    pub(crate) port: u16,
}

impl Postfix {
    pub(crate) fn start() -> Postfix {
        Postfix::start_with(None, false)
    }

    /// A private Postfix whose smtpd refuses unknown users of `pbem.test`
    /// at RCPT TO (`550 5.1.1 ... User unknown`, Postfix's default) rather
    /// than accepting and bouncing them.
    pub(crate) fn start_refusing_unknown() -> Postfix {
        Postfix::start_with(None, true)
    }

    /// A private Postfix that delivers `pbem@pbem.test` (and so every
    /// `pbem+...@pbem.test`: bounce addresses and reply tokens) by piping
    /// the mail to `pbem_process` as user `nobody`, the way the guide's
    /// `.forward` (`"|/usr/local/bin/pbem --config ... process"`) does for
    /// the pbem user: local(8) runs a `.forward` pipe with the user's
    /// rights and pipe(8) runs this one with nobody's, the same command on
    /// standard input with the same meaning of its exit code (75: try
    /// again later). A pipe transport stands in for the `.forward` because
    /// this instance has no local users of its own. `alice@pbem.test` has
    /// a mailbox; every other user of `pbem.test` bounces.
    pub(crate) fn start_piping_to(pbem_process: &str) -> Postfix {
        Postfix::start_with(Some(pbem_process), false)
    }

    fn start_with(pbem_process: Option<&str>, refuse_unknown: bool) -> Postfix {
        assert!(
            Path::new(POSTFIX).exists(),
            "Postfix is not installed ({POSTFIX} is missing): ./scripts/test installs it (apt-get install -y postfix)"
        );
        let uid = fs::metadata("/proc/self").expect("/proc/self").uid();
        assert_eq!(uid, 0, "a private Postfix instance must be started as root");
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        // Postfix's daemons (user postfix) and virtual delivery (nobody)
        // must get in.
        fs::set_permissions(root, fs::Permissions::from_mode(0o755)).expect("chmod");
        for sub in ["etc", "queue", "data", "mail"] {
            fs::create_dir(root.join(sub)).expect("mkdir");
        }
        chown(root.join("mail"), Some(MAIL_UID), Some(MAIL_UID)).expect("chown mail");
        let postfix_user = postfix_uid();
        chown(root.join("data"), Some(postfix_user), None).expect("chown data");
        fs::copy(
            "/usr/share/postfix/master.cf.dist",
            root.join("etc/master.cf"),
        )
        .expect("Postfix's master.cf.dist (Debian's postfix package)");
        let port = free_port();
        let d = root.display();
        let reject = if refuse_unknown { "yes" } else { "no" };
        let main_cf = format!(
            "compatibility_level = 3.6
queue_directory = {d}/queue
data_directory = {d}/data
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = pbem.test
mydomain = pbem.test
myorigin = $myhostname
mydestination =
local_transport = error:no local delivery here
alias_maps =
alias_database =
relayhost =
mynetworks = 127.0.0.0/8
smtp_dns_support_level = disabled
virtual_mailbox_domains = pbem.test
virtual_mailbox_base = {d}/mail
virtual_mailbox_maps = inline:{{ pbem@pbem.test=pbem/Maildir/, alice@pbem.test=alice/Maildir/ }}
virtual_uid_maps = static:{MAIL_UID}
virtual_gid_maps = static:{MAIL_UID}
smtpd_reject_unlisted_recipient = {reject}
recipient_delimiter = +
syslog_name = postfix-pbem-test
maillog_file = {d}/postfix.log
maillog_file_prefixes = {d}
biff = no
"
        );
        fs::write(root.join("etc/main.cf"), main_cf).expect("main.cf");
        let etc = root.join("etc");
        let etc = etc.to_str().expect("utf-8 path");
        run(POSTCONF, &["-c", etc, "-M#", "smtp/inet"]);
        let smtpd = format!("127.0.0.1:{port}/inet = 127.0.0.1:{port} inet n - n - - smtpd");
        run(POSTCONF, &["-c", etc, "-M", &smtpd]);
        run(POSTCONF, &["-c", etc, "-F", "*/*/chroot = n"]);
        if let Some(command) = pbem_process {
            let pipe = format!(
                "pbem/unix = pbem unix - n n - - pipe flags=DRq user=nobody argv={command}"
            );
            run(POSTCONF, &["-c", etc, "-M", &pipe]);
            run(
                POSTCONF,
                &[
                    "-c",
                    etc,
                    "transport_maps = inline:{ pbem@pbem.test=pbem: }",
                    "pbem_destination_recipient_limit = 1",
                ],
            );
        }
        let postfix = Postfix { dir, port };
        postfix.control("start");
        postfix
    }

    fn etc(&self) -> PathBuf {
        self.dir.path().join("etc")
    }

    fn control(&self, command: &str) {
        let etc = self.etc();
        let output = Command::new(POSTFIX)
            .arg("-c")
            .arg(&etc)
            .arg(command)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {POSTFIX}: {e}"));
        assert!(
            output.status.success(),
            "postfix {command} failed: {}{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
            self.log()
        );
    }

    /// Hands `raw` to this Postfix (its own sendmail) from `from` to `to`.
    pub(crate) fn submit(&self, from: &str, to: &str, raw: &[u8]) {
        use std::io::Write;
        let mut child = Command::new(SENDMAIL)
            .arg("-C")
            .arg(self.etc())
            .args(["-i", "-f", from, to])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {SENDMAIL}: {e}"));
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(raw)
            .expect("write the mail");
        let status = child.wait().expect("sendmail ends");
        assert!(status.success(), "sendmail failed\n{}", self.log());
    }

    /// How many mails Postfix has handed to `pbem process` and seen exit 0.
    pub(crate) fn delivered_to_pbem(&self) -> usize {
        self.log().matches("delivered via pbem service").count()
    }

    /// The mails `alice@pbem.test` received.
    pub(crate) fn alice_mails(&self) -> Vec<String> {
        let dir = self.dir.path().join("mail/alice/Maildir/new");
        fs::read_dir(dir)
            .map(|dir| {
                dir.flatten()
                    .filter_map(|entry| fs::read_to_string(entry.path()).ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    pub(crate) fn log(&self) -> String {
        fs::read_to_string(self.dir.path().join("postfix.log")).unwrap_or_default()
    }

    /// The new mails of `pbem@pbem.test`.
    fn maildir_new(&self) -> PathBuf {
        self.dir.path().join("mail/pbem/Maildir/new")
    }

    /// Waits for the one mail delivered to `pbem@pbem.test` and takes it.
    pub(crate) fn take_bounce(&self) -> Vec<u8> {
        let start = Instant::now();
        loop {
            let files: Vec<PathBuf> = fs::read_dir(self.maildir_new())
                .map(|dir| dir.flatten().map(|entry| entry.path()).collect())
                .unwrap_or_default();
            if let [file] = &files[..] {
                let raw = fs::read(file).expect("the bounce");
                fs::remove_file(file).expect("take the bounce");
                return raw;
            }
            assert!(files.len() <= 1, "more than one mail came: {files:?}");
            assert!(
                start.elapsed() < BOUNCE_WAIT,
                "no bounce came within {BOUNCE_WAIT:?}; Postfix's log:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Postfix {
    fn drop(&mut self) {
        Command::new(POSTFIX)
            .arg("-c")
            .arg(self.etc())
            .arg("stop")
            .output()
            .ok();
    }
}

/// The uid of the `postfix` user.
fn postfix_uid() -> u32 {
    let passwd = fs::read_to_string("/etc/passwd").expect("/etc/passwd");
    passwd
        .lines()
        .find_map(|line| {
            let fields: Vec<&str> = line.split(':').collect();
            (fields.first() == Some(&"postfix")).then(|| fields.get(2)?.parse().ok())?
        })
        .expect("a postfix user (made by the postfix package)")
}

pub(crate) fn server() -> ServerAddress {
    ServerAddress::parse("pbem@pbem.test").expect("address")
}

/// A board mail as pbem sends it, to an unknown user of Postfix's.
const BOARD_MAIL: &str = "From: pbem@pbem.test\r\n\
To: ghost@pbem.test\r\n\
Subject: pbem: board 101, your move\r\n\
Message-ID: <board101@pbem.test>\r\n\
MIME-Version: 1.0\r\n\
Content-Type: text/plain; charset=utf-8\r\n\
\r\n\
Board 101: White to move (your move).\r\n";

/// Queues mails until the outbox holds `id`, sends them with `sender`, and
/// returns the bounce Postfix sent back and the key it was signed with.
fn send_and_bounce(
    postfix: &Postfix,
    sender: Box<dyn MailSender + Send>,
    id: i64,
) -> (Vec<u8>, Verp, OffsetDateTime) {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("pbem.sqlite3");
    let store = Store::open(&database).expect("store");
    let now = OffsetDateTime::now_utc();
    for n in 1..=id {
        let tx = store.transaction().expect("transaction");
        mailbox::enqueue(
            &tx,
            &format!("<m{n}@pbem.test>"),
            &["ghost@pbem.test".to_string()],
            BOARD_MAIL.as_bytes(),
            None,
            now,
        )
        .expect("enqueue");
        tx.commit().expect("commit");
        if n < id {
            // Sent before: only the last one goes to Postfix.
            mailbox::mark_all_sent(&store, &[n], now).expect("mark sent");
        }
    }
    let verp = Verp::new(server(), TokenKey::generate().expect("randomness"));
    let mut outbox = Outbox::new(sender, &database, verp.clone());
    assert_eq!(
        outbox.drain(&store, now).expect("Postfix takes the mail"),
        1
    );
    (postfix.take_bounce(), verp, now)
}

/// The DSN is Postfix's, says 5.1.1 for ghost, and names mail `id`, sent
/// on `now`'s day; a forged copy with another MAC names none.
fn check_bounce(raw: &[u8], verp: &Verp, now: OffsetDateTime, id: i64) {
    let text = String::from_utf8_lossy(raw);
    let bounce = bounce::read(raw).unwrap_or_else(|| panic!("not read as a bounce:\n{text}"));
    assert_eq!(bounce.format, bounce::Format::Dsn, "{text}");
    let [report] = &bounce.reports[..] else {
        panic!("one recipient expected: {:?}", bounce.reports)
    };
    assert_eq!(report.recipient.as_deref(), Some("ghost@pbem.test"));
    assert_eq!(report.action, bounce::Action::Failed);
    let status = report.status.as_ref().map(ToString::to_string);
    assert_eq!(status.as_deref(), Some("5.1.1"));
    assert_eq!(report.severity, Some(bounce::Severity::Permanent));
    let today = now.date();
    let sent = SentMail {
        outbox_id: id,
        sent_on: today,
    };
    assert_eq!(bounce.original(verp, today), Some(Original::Verp(sent)));
    let verp_address = verp.sender(sent);
    let delivered: Vec<&String> = bounce
        .envelope
        .iter()
        .filter(|address| verp.read(address, today).is_some())
        .collect();
    assert!(
        delivered
            .iter()
            .any(|a| a.eq_ignore_ascii_case(&verp_address)),
        "{:?}",
        bounce.envelope
    );
    for address in &bounce.envelope {
        if let Some(named) = verp.read(address, today) {
            assert_eq!(named, sent, "{address}");
        }
    }

    // A forgery: the same DSN to the same mail's address with another MAC.
    let mac = verp_address
        .split('@')
        .next()
        .and_then(|local| local.rsplit('.').next())
        .expect("a MAC");
    let wrong_mac: String = mac
        .chars()
        .map(|c| if c == '0' { '1' } else { '0' })
        .collect();
    let forged_address = verp_address.replace(mac, &wrong_mac);
    let forged = text.replace(&verp_address, &forged_address);
    assert_ne!(forged, text, "the VERP address is in the DSN");
    let forged = bounce::read(forged.as_bytes()).expect("still a DSN");
    assert_eq!(forged.reports.len(), 1);
    assert!(verp.read(&forged_address, today).is_none());
    assert!(
        forged
            .envelope
            .iter()
            .all(|address| verp.read(address, today).is_none()),
        "{:?}",
        forged.envelope
    );
    assert!(
        !matches!(forged.original(verp, today), Some(Original::Verp(_))),
        "a forged bounce address verified"
    );
    // Another server's key does not verify it either.
    let other = Verp::new(server(), TokenKey::generate().expect("randomness"));
    assert!(other.read(&verp_address, today).is_none());
}

#[test]
fn a_postfix_dsn_for_a_mail_sent_over_smtp_names_that_mail() {
    let postfix = Postfix::start();
    let config = SmtpConfig {
        endpoint: Endpoint {
            host: "127.0.0.1".to_string(),
            port: postfix.port,
            security: Security::Plain,
            ca_file: None,
            timeout: Duration::from_secs(10),
        },
        login: None,
        reuse_connection: false,
    };
    let sender = SmtpSender::new(&config, &server()).expect("SMTP sender");
    let (raw, verp, now) = send_and_bounce(&postfix, Box::new(sender), 3);
    check_bounce(&raw, &verp, now, 3);
}

#[test]
fn a_postfix_dsn_for_a_mail_sent_with_sendmail_names_that_mail() {
    let postfix = Postfix::start();
    // Postfix's sendmail, for this instance (-C): lettre passes the
    // envelope sender as -f.
    let wrapper = postfix.dir.path().join("sendmail");
    fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nexec {SENDMAIL} -C '{}' \"$@\"\n",
            postfix.etc().display()
        ),
    )
    .expect("wrapper");
    fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).expect("chmod");
    let sender = SendmailSender::new(Some(wrapper.to_str().expect("utf-8 path")));
    let (raw, verp, now) = send_and_bounce(&postfix, Box::new(sender), 5);
    check_bounce(&raw, &verp, now, 5);
}
