//! Real mail servers for the network tests, each test its own set in a
//! temporary directory (mode 0755: Dovecot's auth process runs as another
//! user and must get in), on loopback ports chosen free at run time:
//!
//! * **Dovecot** (`dovecot -F`, the master in the foreground as our child):
//!   IMAP for pbem's mailbox and every player's, a `passwd-file` passdb, a
//!   static userdb (mail owned by `nobody` when run as root, since Dovecot
//!   refuses uid 0), Maildirs under `mail/<user>/Maildir`, its own
//!   `base_dir`, `listen = 127.0.0.1`; optionally TLS (IMAPS and STARTTLS)
//!   with a certificate of a private CA made with `openssl`, and a reduced
//!   CAPABILITY list (no IDLE, no MOVE) to exercise polling.
//! * **An SMTP listener** (`tests/mail/servers/smtp_listener.py`, aiosmtpd run by
//!   Debian's `/usr/bin/python3`): AUTH required, delivers into the
//!   recipients' Dovecot mailboxes with `dovecot-lda` (so UIDs follow the
//!   delivery order), journals every acceptance. It delivers as the
//!   mailboxes' owner without asking Dovecot's auth service, so it goes on
//!   taking mail while Dovecot restarts, as an MTA with a queue would.
//!
//! pbem itself runs as the real binary (`pbem serve`) with a configuration
//! file naming these servers, or a [`CuttingRelay`] in front of Dovecot
//! that drops one connection at a chosen moment. The players' side ([`MailClient`]) sends over
//! SMTP (lettre) and reads its mailbox over IMAP, as a mail client does.
//!
//! Nothing here skips: a server that cannot start fails the test with the
//! reason and the server's log. `./scripts/test` installs `dovecot-imapd`
//! and `python3-aiosmtpd` when they are missing.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mail_parser::MessageParser;
use pbem_testkit::free_port;

/// The Python that has Debian's `python3-aiosmtpd`.
const PYTHON: &str = "/usr/bin/python3";
/// Dovecot's delivery agent, which the SMTP listener delivers with.
const LDA: &str = "/usr/lib/dovecot/dovecot-lda";
const LISTENER: &str = include_str!("smtp_listener.py");

/// What to start.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// TLS on both servers (IMAPS + STARTTLS; SMTPS + STARTTLS).
    pub tls: bool,
    /// Advertise no IDLE and no MOVE (pbem must poll and copy).
    pub plain_imap4: bool,
    /// Users whose mail the SMTP listener refuses with 550.
    pub refused: Vec<String>,
}

/// Sends SIGTERM to a process we started.
fn terminate(child: &Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
}

/// Waits for a child to exit, SIGKILLing it after `grace`.
fn reap(child: &mut Child, grace: Duration) {
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn wait_for_port(port: u16, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    false
}

fn tail(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

fn require_tool(path: &str, package: &str) {
    if !Path::new(path).exists() {
        panic!(
            "{path} is missing, so the real mail servers for this test cannot start; install {package} (./scripts/test does it: apt-get install -y dovecot-imapd python3-aiosmtpd openssl)"
        );
    }
}

/// A test user: mailbox name, password, address.
#[derive(Clone, Debug)]
pub struct User {
    pub name: String,
    pub password: String,
}

impl User {
    pub fn address(&self) -> String {
        format!("{}@example.org", self.name)
    }
}

/// Dovecot and the SMTP listener, running.
pub struct MailServers {
    pub dir: tempfile::TempDir,
    pub dovecot: Dovecot,
    pub smtp: SmtpListener,
    pub users: HashMap<String, User>,
    /// The CA certificate that signed both servers' certificates (TLS).
    pub ca_file: Option<PathBuf>,
}

impl MailServers {
    /// Starts both servers for `users` (besides `pbem`); panics with the
    /// reason when one cannot start.
    pub fn start(users: &[&str], options: Options) -> MailServers {
        require_tool("/usr/sbin/dovecot", "dovecot-imapd");
        require_tool(LDA, "dovecot-core");
        require_tool(PYTHON, "python3");
        let dir = tempfile::Builder::new()
            .prefix("pbem-net-")
            .tempdir()
            .expect("a temporary directory");
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod 0755");
        let root = dir.path().to_path_buf();
        let mut all: Vec<&str> = vec!["pbem"];
        all.extend_from_slice(users);
        let users: HashMap<String, User> = all
            .iter()
            .map(|name| {
                (
                    name.to_string(),
                    User {
                        name: name.to_string(),
                        password: format!("{name}-mail-pw"),
                    },
                )
            })
            .collect();
        // Mail owned by nobody when root (Dovecot refuses uid 0), else by us.
        let me = fs::metadata(&root).expect("stat").uid();
        let (uid, gid) = if me == 0 { (65534, 65534) } else { (me, me) };
        for user in users.keys() {
            for sub in [
                "",
                "/Maildir",
                "/Maildir/new",
                "/Maildir/cur",
                "/Maildir/tmp",
            ] {
                let path = root.join(format!("mail/{user}{sub}"));
                fs::create_dir_all(&path).expect("mail dir");
                std::os::unix::fs::chown(&path, Some(uid), Some(gid)).expect("chown mail dir");
            }
        }
        for sub in ["mail", "run", "state"] {
            fs::set_permissions(root.join(sub), fs::Permissions::from_mode(0o755)).ok();
        }
        // Dovecot's log, owned by the mail's owner: dovecot-lda runs as
        // that user (see smtp_listener.py) and appends to it too.
        let log = root.join("dovecot.log");
        fs::write(&log, "").expect("dovecot.log");
        std::os::unix::fs::chown(&log, Some(uid), Some(gid)).expect("chown dovecot.log");
        let ca_file = options.tls.then(|| make_certificates(&root));
        let dovecot = Dovecot::configure(&root, &users, uid, gid, me, &options);
        let smtp = SmtpListener::configure(&root, &users, uid, gid, &options);
        let mut servers = MailServers {
            dir,
            dovecot,
            smtp,
            users,
            ca_file,
        };
        servers.dovecot.start();
        servers.smtp.start();
        servers
    }

    pub fn user(&self, name: &str) -> &User {
        self.users
            .get(name)
            .unwrap_or_else(|| panic!("no test user {name}"))
    }

    /// A mail client for `name`.
    pub fn client(&self, name: &str) -> MailClient {
        MailClient {
            user: self.user(name).clone(),
            imap_port: self.dovecot.port,
            smtp_port: self.smtp.port,
            seen: HashSet::new(),
            sequence: 0,
        }
    }

    /// pbem's configuration for these servers: IMAP in (plain on
    /// loopback, IDLE), SMTP out (plain, with login); `extra` lines are
    /// appended to `[inbound]` and `[outbound]`.
    pub fn pbem_config(&self, inbound_extra: &str, outbound_extra: &str) -> String {
        self.pbem_config_via(self.dovecot.port, inbound_extra, outbound_extra)
    }

    /// [`MailServers::pbem_config`] with pbem reaching Dovecot's IMAP on
    /// `imap_port` (a [`CuttingRelay`]'s).
    pub fn pbem_config_via(
        &self,
        imap_port: u16,
        inbound_extra: &str,
        outbound_extra: &str,
    ) -> String {
        let pbem = self.user("pbem");
        format!(
            "[server]\naddress = \"pbem@example.org\"\n\n[inbound]\nkind = \"imap\"\nhost = \"127.0.0.1\"\nport = {imap}\nsecurity = \"plain\"\nuser = \"pbem\"\npassword = \"{pw}\"\ntimeout_seconds = 10\n{inbound_extra}\n\n[outbound]\nkind = \"smtp\"\nhost = \"127.0.0.1\"\nport = {smtp}\nsecurity = \"plain\"\nuser = \"pbem\"\npassword = \"{pw}\"\ntimeout_seconds = 10\n{outbound_extra}\n\n# These tests count pbem's warnings: no web site, whose port 8080 another\n# test's server may hold.\n[web]\nlisten = \"\"\n\n[limits]\n# The tests' passwords are short (p0-pw); a test may add to this section.\nmin_password_length = 4\n",
            imap = imap_port,
            smtp = self.smtp.port,
            pw = pbem.password,
        )
    }

    /// Sets the SMTP listener's refusals from now on (it reads them at
    /// every command): `rules` is JSON, `{"rcpt": {"bob": "550 5.1.1 User
    /// unknown"}}` refuses bob's RCPT TO, `{"mail": "..."}` every MAIL
    /// FROM, `{"data": "..."}` every mail at the end of DATA; `{}` none.
    pub fn refuse(&self, rules: &str) {
        let path = self.dir.path().join("smtp-refusals.json");
        let partial = self.dir.path().join("smtp-refusals.json.new");
        fs::write(&partial, rules).expect("refusals");
        fs::rename(&partial, &path).expect("refusals in place");
    }

    /// Every acceptance the SMTP listener journaled: (recipient, Message-ID).
    pub fn journal(&self) -> Vec<(String, String)> {
        fs::read_to_string(&self.smtp.journal)
            .unwrap_or_default()
            .lines()
            .filter_map(|line| {
                let fields: Vec<&str> = line.split('\t').collect();
                (fields.len() == 4).then(|| (fields[2].to_string(), fields[3].to_string()))
            })
            .collect()
    }
}

/// Makes a private CA and a certificate for `localhost`/127.0.0.1 signed
/// by it; returns the CA's PEM file.
fn make_certificates(root: &Path) -> PathBuf {
    require_tool("/usr/bin/openssl", "openssl");
    let tls = root.join("tls");
    fs::create_dir_all(&tls).expect("tls dir");
    fs::write(
        tls.join("ext.cnf"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
    )
    .expect("ext");
    let steps: [&[&str]; 3] = [
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=pbem test CA",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
        ],
        &[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-subj",
            "/CN=localhost",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
        ],
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "ext.cnf",
            "-out",
            "server.pem",
        ],
    ];
    for args in steps {
        let output = Command::new("openssl")
            .args(args)
            .current_dir(&tls)
            .output()
            .expect("openssl runs");
        assert!(
            output.status.success(),
            "openssl {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    for file in ["server.key", "server.pem", "ca.pem"] {
        fs::set_permissions(tls.join(file), fs::Permissions::from_mode(0o644)).ok();
    }
    tls.join("ca.pem")
}

/// The Dovecot master, our child.
pub struct Dovecot {
    conf: PathBuf,
    log: PathBuf,
    pub port: u16,
    pub tls_port: Option<u16>,
    check_user: User,
    child: Option<Child>,
}

impl Dovecot {
    fn configure(
        root: &Path,
        users: &HashMap<String, User>,
        uid: u32,
        gid: u32,
        me: u32,
        options: &Options,
    ) -> Dovecot {
        let r = root.display();
        let passwd: String = users
            .values()
            .map(|u| format!("{}:{{PLAIN}}{}::::::\n", u.name, u.password))
            .collect();
        fs::write(root.join("passwd"), passwd).expect("passwd");
        let port = free_port();
        let tls_port = options.tls.then(free_port);
        let ssl = if options.tls {
            format!("ssl = yes\nssl_cert = <{r}/tls/server.pem\nssl_key = <{r}/tls/server.key\n")
        } else {
            "ssl = no\n".to_string()
        };
        let capability = if options.plain_imap4 {
            "imap_capability = IMAP4rev1 LITERAL+ SASL-IR LOGIN-REFERRALS ID ENABLE UIDPLUS\n"
        } else {
            ""
        };
        let users_line = if me == 0 {
            String::new()
        } else {
            let name = std::env::var("USER").unwrap_or_default();
            format!("default_internal_user = {name}\ndefault_login_user = {name}\n")
        };
        let conf = format!(
            "protocols = imap\nlisten = 127.0.0.1\nbase_dir = {r}/run\nstate_dir = {r}/state\n\
             log_path = {r}/dovecot.log\npostmaster_address = postmaster@example.org\n{ssl}{capability}{users_line}\
             disable_plaintext_auth = no\nauth_mechanisms = plain login\n\
             mail_location = maildir:{r}/mail/%n/Maildir\nfirst_valid_uid = {uid}\nfirst_valid_gid = {gid}\n\
             passdb {{\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%n {r}/passwd\n}}\n\
             userdb {{\n  driver = static\n  args = uid={uid} gid={gid} home={r}/mail/%n\n}}\n\
             service imap-login {{\n  inet_listener imap {{\n    address = 127.0.0.1\n    port = {port}\n  }}\n  inet_listener imaps {{\n    address = 127.0.0.1\n    port = {imaps}\n  }}\n}}\n",
            imaps = tls_port.unwrap_or(0),
        );
        let path = root.join("dovecot.conf");
        fs::write(&path, conf).expect("dovecot.conf");
        Dovecot {
            conf: path,
            log: root.join("dovecot.log"),
            port,
            tls_port,
            check_user: users["pbem"].clone(),
            child: None,
        }
    }

    /// Starts the master and waits until a login works.
    pub fn start(&mut self) {
        let child = Command::new("/usr/sbin/dovecot")
            .args(["-F", "-c"])
            .arg(&self.conf)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start dovecot: {e}"));
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(child) = &mut self.child
                && let Ok(Some(status)) = child.try_wait()
            {
                panic!(
                    "dovecot exited at start ({status}); its log:\n{}",
                    tail(&self.log)
                );
            }
            if wait_for_port(self.port, Duration::from_millis(200))
                && imap_login(self.port, &self.check_user).is_ok()
            {
                return;
            }
            if Instant::now() > deadline {
                panic!(
                    "dovecot did not accept a login on 127.0.0.1:{} within 20 s; its log:\n{}",
                    self.port,
                    tail(&self.log)
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops Dovecot as `systemctl restart` would: SIGTERM to the master,
    /// then every process it had started that is still running (IMAP
    /// sessions outlive the master otherwise) is ended, so every client
    /// connection drops.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let family = descendants(child.id());
            terminate(&child);
            reap(&mut child, Duration::from_secs(10));
            for pid in family {
                if Path::new(&format!("/proc/{pid}")).exists() {
                    let _ = Command::new("kill")
                        .args(["-KILL", &pid.to_string()])
                        .status();
                }
            }
            // The master removes its pid file last; wait for it to go.
            let pid = self.conf.with_file_name("run").join("master.pid");
            let deadline = Instant::now() + Duration::from_secs(5);
            while pid.exists() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }

    pub fn restart(&mut self) {
        self.stop();
        self.start();
    }
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The processes started by `pid`, and theirs (from /proc).
fn descendants(pid: u32) -> Vec<u32> {
    let mut parents: Vec<(u32, u32)> = Vec::new();
    for entry in fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let stat = fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        let parent = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|ppid| ppid.parse::<u32>().ok());
        if let Some(parent) = parent {
            parents.push((child, parent));
        }
    }
    let mut family = vec![pid];
    let mut index = 0;
    while index < family.len() {
        let parent = family[index];
        family.extend(
            parents
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(c, _)| *c),
        );
        index += 1;
    }
    family.remove(0);
    family
}

fn imap_login(port: u16, user: &User) -> Result<(), String> {
    let tcp = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    tcp.set_read_timeout(Some(Duration::from_secs(5))).ok();
    let mut client = imap::Client::new(tcp);
    client.read_greeting().map_err(|e| e.to_string())?;
    let mut session = client
        .login(&user.name, &user.password)
        .map_err(|(e, _)| e.to_string())?;
    session.select("INBOX").map_err(|e| e.to_string())?;
    session.logout().ok();
    Ok(())
}

/// The aiosmtpd listener, our child.
pub struct SmtpListener {
    config: PathBuf,
    script: PathBuf,
    log: PathBuf,
    pub journal: PathBuf,
    pub port: u16,
    pub tls_port: Option<u16>,
    child: Option<Child>,
}

impl SmtpListener {
    /// `uid` and `gid` own the mailboxes under `root/mail`, which the
    /// listener delivers into.
    fn configure(
        root: &Path,
        users: &HashMap<String, User>,
        uid: u32,
        gid: u32,
        options: &Options,
    ) -> SmtpListener {
        let port = free_port();
        let tls_port = options.tls.then(free_port);
        let mut config = String::from("{");
        config.push_str(&format!(
            "\"port\": {port}, \"lda\": \"{LDA}\", \"dovecot_conf\": \"{}\", \"journal\": \"{}\", \"mail\": \"{}\", \"uid\": {uid}, \"gid\": {gid},",
            root.join("dovecot.conf").display(),
            root.join("smtp-journal.tsv").display(),
            root.join("mail").display()
        ));
        let users_json: Vec<String> = users
            .values()
            .map(|u| format!("\"{}\": \"{}\"", u.name, u.password))
            .collect();
        config.push_str(&format!(" \"users\": {{{}}},", users_json.join(", ")));
        let refused: Vec<String> = options.refused.iter().map(|r| format!("\"{r}\"")).collect();
        config.push_str(&format!(" \"reject\": [{}],", refused.join(", ")));
        config.push_str(&format!(
            " \"refusals\": \"{}\"",
            root.join("smtp-refusals.json").display()
        ));
        if let Some(tls_port) = tls_port {
            config.push_str(&format!(
                ", \"tls\": {{\"cert\": \"{r}/tls/server.pem\", \"key\": \"{r}/tls/server.key\", \"wrapped_port\": {tls_port}}}",
                r = root.display()
            ));
        }
        config.push('}');
        let config_path = root.join("smtp.json");
        fs::write(&config_path, config).expect("smtp.json");
        let script = root.join("smtp_listener.py");
        fs::write(&script, LISTENER).expect("listener script");
        SmtpListener {
            config: config_path,
            script,
            log: root.join("smtp.log"),
            journal: root.join("smtp-journal.tsv"),
            port,
            tls_port,
            child: None,
        }
    }

    /// Starts the listener and waits for its "ready". Its ports were free
    /// when chosen, but a parallel test's outgoing connection may hold one
    /// of them for a moment (an ephemeral port, or the listener started
    /// again on the same port): a start that finds it in use is tried
    /// again for a few seconds.
    pub fn start(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let log_before = fs::read_to_string(&self.log).unwrap_or_default().len();
            match self.try_start() {
                Ok(child) => {
                    self.child = Some(child);
                    return;
                }
                Err(log) => {
                    let this_try = log.get(log_before..).unwrap_or_default();
                    if this_try.contains("address already in use") && Instant::now() < deadline {
                        std::thread::sleep(Duration::from_millis(250));
                        continue;
                    }
                    panic!(
                        "the SMTP listener (aiosmtpd) did not start on 127.0.0.1:{}; is python3-aiosmtpd installed for {PYTHON}? Its log:\n{}",
                        self.port,
                        tail(&self.log)
                    );
                }
            }
        }
    }

    /// One start of the listener: the child once it is ready, or the
    /// whole log when it did not start.
    fn try_start(&self) -> Result<Child, String> {
        let log = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("smtp log");
        let mut child = Command::new(PYTHON)
            .arg(&self.script)
            .arg(&self.config)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {PYTHON} for the SMTP listener: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let mut first = String::new();
        let _ = BufReader::new(stdout).read_line(&mut first);
        if first.trim() != "ready" || !wait_for_port(self.port, Duration::from_secs(10)) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(fs::read_to_string(&self.log).unwrap_or_default());
        }
        Ok(child)
    }

    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            terminate(&child);
            reap(&mut child, Duration::from_secs(10));
        }
    }
}

impl Drop for SmtpListener {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A TCP relay on loopback in front of a server's port that cuts one
/// connection at a chosen moment: the first time an answer of the server
/// holds `trigger`, that answer is dropped and the connection closed on
/// both sides, so the server has carried out the command and the client
/// never learns it. Every other connection, before and after, is relayed
/// untouched.
pub struct CuttingRelay {
    pub port: u16,
    cut: Arc<AtomicBool>,
    stopping: Arc<AtomicBool>,
}

impl CuttingRelay {
    pub fn start(target: u16, trigger: &'static str) -> CuttingRelay {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port for the relay");
        let port = listener.local_addr().expect("the relay's address").port();
        // Polled, so that dropping the relay ends its thread.
        listener
            .set_nonblocking(true)
            .expect("a non-blocking listener");
        let cut = Arc::new(AtomicBool::new(false));
        let stopping = Arc::new(AtomicBool::new(false));
        let (relay_cut, relay_stopping) = (cut.clone(), stopping.clone());
        std::thread::spawn(move || {
            while !relay_stopping.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((client, _)) => relay(client, target, trigger, &relay_cut),
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(10));
                    }
                    Err(e) => panic!("the relay cannot accept: {e}"),
                }
            }
        });
        CuttingRelay {
            port,
            cut,
            stopping,
        }
    }

    /// Whether it has cut its connection.
    pub fn has_cut(&self) -> bool {
        self.cut.load(Ordering::SeqCst)
    }
}

impl Drop for CuttingRelay {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
    }
}

/// Relays one connection to `target` on two threads; the server's side is
/// watched for `trigger` until some connection has been cut.
fn relay(client: TcpStream, target: u16, trigger: &'static str, cut: &Arc<AtomicBool>) {
    client
        .set_nonblocking(false)
        .expect("a blocking relayed socket");
    let Ok(server) = TcpStream::connect(("127.0.0.1", target)) else {
        // Server down: the client sees its connection refused, in effect.
        return;
    };
    let (Ok(mut from_client), Ok(mut to_server)) = (client.try_clone(), server.try_clone()) else {
        return;
    };
    std::thread::spawn(move || {
        std::io::copy(&mut from_client, &mut to_server).ok();
        to_server.shutdown(Shutdown::Write).ok();
    });
    let cut = cut.clone();
    std::thread::spawn(move || {
        let (mut from_server, mut to_client) = (server, client);
        let mut buffer = [0u8; 16384];
        // The end of the previous read, for a trigger split between two.
        let mut carried: Vec<u8> = Vec::new();
        loop {
            let read = match from_server.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(read) => read,
            };
            let chunk = &buffer[..read];
            carried.extend_from_slice(chunk);
            let holds_trigger = carried
                .windows(trigger.len())
                .any(|window| window == trigger.as_bytes());
            if holds_trigger && !cut.swap(true, Ordering::SeqCst) {
                from_server.shutdown(Shutdown::Both).ok();
                to_client.shutdown(Shutdown::Both).ok();
                return;
            }
            carried.drain(..carried.len().saturating_sub(trigger.len()));
            if to_client.write_all(chunk).is_err() {
                break;
            }
        }
        to_client.shutdown(Shutdown::Write).ok();
    });
}

/// A mail as the player's client reads it.
#[derive(Clone, Debug)]
pub struct Received {
    pub subject: String,
    pub body: String,
    pub reply_to: Option<String>,
    pub message_id: String,
}

/// A player's mail client: SMTP out, IMAP in.
pub struct MailClient {
    pub user: User,
    imap_port: u16,
    smtp_port: u16,
    seen: HashSet<u32>,
    sequence: u32,
}

impl MailClient {
    pub fn address(&self) -> String {
        self.user.address()
    }

    /// Sends a plain-text mail over SMTP (with login); returns its
    /// Message-ID.
    pub fn send(
        &mut self,
        to: &str,
        subject: &str,
        body: &str,
        in_reply_to: Option<&str>,
    ) -> String {
        use lettre::Transport;
        self.sequence += 1;
        let id = format!(
            "<{}-{}-{}@players.example>",
            self.user.name,
            self.sequence,
            std::process::id()
        );
        let threading = in_reply_to
            .map(|parent| format!("In-Reply-To: {parent}\r\nReferences: {parent}\r\n"))
            .unwrap_or_default();
        let raw = format!(
            "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {id}\r\n{threading}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
            from = self.address()
        );
        let envelope = lettre::address::Envelope::new(
            Some(self.address().parse().expect("address")),
            vec![to.parse().expect("address")],
        )
        .expect("envelope");
        let transport = lettre::SmtpTransport::builder_dangerous("127.0.0.1")
            .port(self.smtp_port)
            .credentials(lettre::transport::smtp::authentication::Credentials::new(
                self.user.name.clone(),
                self.user.password.clone(),
            ))
            .timeout(Some(Duration::from_secs(10)))
            .build();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match transport.send_raw(&envelope, raw.as_bytes()) {
                Ok(_) => return id,
                Err(e) if Instant::now() < deadline => {
                    eprintln!("{} cannot send yet: {e}", self.user.name);
                    std::thread::sleep(Duration::from_millis(200));
                }
                Err(e) => panic!("{} cannot send over SMTP: {e}", self.user.name),
            }
        }
    }

    /// Replies to a mail the way a mail client does: to its Reply-To, with
    /// `Re:`, threaded, the original quoted below the text.
    pub fn reply(&mut self, to: &Received, text: &str) -> String {
        let quoted: String = to
            .body
            .lines()
            .map(|line| format!("> {line}\r\n"))
            .collect();
        let reply_to = to.reply_to.clone().expect("board mails carry a Reply-To");
        let body = format!("{text}\r\n\r\nOn Sun, 1 Mar 2026, pbem wrote:\r\n{quoted}");
        self.send(
            &reply_to,
            &format!("Re: {}", to.subject),
            &body,
            Some(&to.message_id),
        )
    }

    /// Mails in the INBOX not returned before, oldest first (one IMAP
    /// session: login, select, search, fetch, logout). Errors are returned
    /// (a server restarting), not panics.
    pub fn fetch_new(&mut self) -> Result<Vec<Received>, String> {
        let tcp = TcpStream::connect(("127.0.0.1", self.imap_port)).map_err(|e| e.to_string())?;
        tcp.set_read_timeout(Some(Duration::from_secs(10))).ok();
        let mut client = imap::Client::new(tcp);
        client.read_greeting().map_err(|e| e.to_string())?;
        let mut session = client
            .login(&self.user.name, &self.user.password)
            .map_err(|(e, _)| e.to_string())?;
        session.select("INBOX").map_err(|e| e.to_string())?;
        let mut uids: Vec<u32> = session
            .uid_search("ALL")
            .map_err(|e| e.to_string())?
            .into_iter()
            .filter(|uid| !self.seen.contains(uid))
            .collect();
        uids.sort_unstable();
        let mut mails = Vec::new();
        for uid in uids {
            let fetches = session
                .uid_fetch(uid.to_string(), "BODY.PEEK[]")
                .map_err(|e| e.to_string())?;
            let Some(raw) = fetches
                .iter()
                .find(|f| f.uid == Some(uid))
                .and_then(|f| f.body())
            else {
                continue;
            };
            let message = MessageParser::default()
                .parse(raw)
                .ok_or_else(|| format!("unparseable mail UID {uid}"))?;
            let address = |a: Option<&mail_parser::Address<'_>>| {
                a.and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .map(str::to_string)
            };
            mails.push(Received {
                subject: message.subject().unwrap_or_default().to_string(),
                body: message
                    .body_text(0)
                    .map(|b| b.replace("\r\n", "\n"))
                    .unwrap_or_default(),
                reply_to: address(message.reply_to()),
                message_id: message
                    .message_id()
                    .map(|id| format!("<{id}>"))
                    .unwrap_or_default(),
            });
            self.seen.insert(uid);
        }
        session.logout().ok();
        Ok(mails)
    }

    /// Waits (polling the INBOX) until `count` new mails arrived; returns
    /// them. Panics with what arrived when they do not come in `within`.
    pub fn wait_for(&mut self, count: usize, within: Duration) -> Vec<Received> {
        let deadline = Instant::now() + within;
        let mut got = Vec::new();
        while got.len() < count {
            match self.fetch_new() {
                Ok(mails) => got.extend(mails),
                Err(e) => eprintln!("{} cannot read the mailbox yet: {e}", self.user.name),
            }
            if got.len() >= count {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{} waited {within:?} for {count} mails and got {}: {:#?}",
                self.user.name,
                got.len(),
                got.iter().map(|m| &m.subject).collect::<Vec<_>>()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        got
    }

    /// Every mail in another folder of this account (e.g. pbem's
    /// `processed`): (UID, flags as text, Message-ID).
    pub fn folder(&self, folder: &str) -> Vec<(u32, String, String)> {
        let tcp = TcpStream::connect(("127.0.0.1", self.imap_port)).expect("imap");
        let mut client = imap::Client::new(tcp);
        client.read_greeting().expect("greeting");
        let mut session = client
            .login(&self.user.name, &self.user.password)
            .map_err(|(e, _)| e)
            .expect("login");
        session.select(folder).expect("select");
        let fetches = session
            .uid_fetch("1:*", "(FLAGS BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
            .map(|f| {
                f.iter()
                    .map(|fetch| {
                        let header = String::from_utf8_lossy(fetch.header().unwrap_or_default());
                        let id = header
                            .split_once(':')
                            .map(|(_, v)| v.trim().to_string())
                            .unwrap_or_default();
                        (fetch.uid.unwrap_or(0), format!("{:?}", fetch.flags()), id)
                    })
                    .collect()
            })
            .unwrap_or_default();
        session.logout().ok();
        fetches
    }
}

/// `pbem serve`, our child, on its own data directory.
pub struct Pbem {
    pub data_dir: PathBuf,
    config: PathBuf,
    log: PathBuf,
    child: Option<Child>,
    pub starts: u32,
}

impl Pbem {
    /// Writes the configuration into `data_dir`; does not start.
    pub fn new(data_dir: &Path, config: &str) -> Pbem {
        fs::create_dir_all(data_dir).expect("data dir");
        let path = data_dir.join("pbem.toml");
        fs::write(&path, config).expect("pbem.toml");
        Pbem {
            data_dir: data_dir.to_path_buf(),
            config: path,
            log: data_dir.join("pbem.log"),
            child: None,
            starts: 0,
        }
    }

    fn command(&self) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_pbem"));
        command
            .arg("--data-dir")
            .arg(&self.data_dir)
            .arg("--config")
            .arg(&self.config);
        command
            .env("RUST_LOG", "info,pbem=debug")
            .env("NO_COLOR", "1");
        command
    }

    fn log_file(&self) -> fs::File {
        fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("pbem log")
    }

    /// Starts `pbem serve`.
    pub fn start(&mut self) {
        self.starts += 1;
        writeln!(self.log_file(), "=== start {} ===", self.starts).ok();
        let child = self
            .command()
            .arg("serve")
            .stdin(Stdio::null())
            .stdout(self.log_file())
            .stderr(self.log_file())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start pbem: {e}"));
        self.child = Some(child);
    }

    /// Runs `pbem serve --once` to the end; returns whether it succeeded
    /// and its output.
    pub fn once(&self) -> (bool, String) {
        self.once_with_env(&[])
    }

    /// `pbem serve --once` with extra environment variables.
    pub fn once_with_env(&self, env: &[(&str, &str)]) -> (bool, String) {
        let output = self
            .command()
            .envs(env.iter().copied())
            .args(["serve", "--once"])
            .output()
            .expect("pbem runs");
        (
            output.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ),
        )
    }

    /// SIGKILL, no goodbye.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
            writeln!(self.log_file(), "=== SIGKILL ===").ok();
        }
    }

    /// SIGTERM; asserts that pbem stops by itself, and cleanly.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            terminate(&child);
            let deadline = Instant::now() + Duration::from_secs(20);
            loop {
                if let Ok(Some(status)) = child.try_wait() {
                    assert!(
                        status.success(),
                        "pbem exited with {status}; log:\n{}",
                        self.log()
                    );
                    return;
                }
                if Instant::now() > deadline {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!(
                        "pbem did not stop within 20 s of SIGTERM; log:\n{}",
                        self.log()
                    );
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }

    /// The last lines of pbem's log, for failure messages.
    pub fn log(&self) -> String {
        tail(&self.log)
    }

    /// Whether any line of pbem's whole log holds `text` (its tail may
    /// have moved past it: every handled mail logs a line).
    pub fn logged(&self, text: &str) -> bool {
        fs::read_to_string(&self.log)
            .unwrap_or_default()
            .contains(text)
    }

    /// pbem's log lines at WARN or ERROR level.
    pub fn warnings(&self) -> Vec<String> {
        fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter(|line| line.contains(" WARN ") || line.contains(" ERROR "))
            .map(str::to_string)
            .collect()
    }

    /// A read-only look at pbem's database.
    pub fn db(&self) -> rusqlite::Connection {
        rusqlite::Connection::open_with_flags(
            self.data_dir.join("pbem.sqlite3"),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .expect("database")
    }

    /// A count from the database (0 while it does not exist yet).
    pub fn count(&self, sql: &str) -> i64 {
        if !self.data_dir.join("pbem.sqlite3").exists() {
            return 0;
        }
        rusqlite::Connection::open_with_flags(
            self.data_dir.join("pbem.sqlite3"),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .and_then(|db| db.query_row(sql, [], |row| row.get(0)))
        .unwrap_or(0)
    }

    /// Waits until `sql` counts `expected`; panics with the log if not.
    pub fn wait_count(&self, sql: &str, expected: i64, within: Duration) {
        let deadline = Instant::now() + within;
        loop {
            let count = self.count(sql);
            if count == expected {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "waited {within:?} for `{sql}` to be {expected}, it is {count}; pbem's log:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Pbem {
    fn drop(&mut self) {
        self.kill();
    }
}
