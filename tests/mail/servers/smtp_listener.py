"""A small SMTP server for pbem's network tests (aiosmtpd).

It stands in for the mail system around pbem: it accepts mail for the test
users (after an AUTH login), delivers each mail into the recipient's mailbox
with Dovecot's own delivery agent (dovecot-lda, which files it and gives it
its UID at once, in delivery order; it does not need Dovecot running, see
deliver), and appends one line per accepted recipient to a journal (time,
envelope sender, recipient, Message-ID), synced to disk before the 250
answer, so the tests can count every acceptance. A delivery that fails is
answered 451, so the sender retries.

Usage: python3 smtp_listener.py CONFIG.json (written by tests/mail/servers/mod.rs).
Stops on SIGTERM or SIGINT.
"""

import asyncio
import json
import os
import signal
import ssl
import subprocess
import sys
import threading
import time
from email.parser import BytesHeaderParser

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

CONFIG = json.load(open(sys.argv[1]))
USERS = CONFIG["users"]
LOCK = threading.Lock()


def user_of(address):
    local = address.rsplit("@", 1)[0]
    return local.split("+", 1)[0].lower()


def authenticator(server, session, envelope, mechanism, auth_data):
    if isinstance(auth_data, LoginPassword):
        user = auth_data.login.decode()
        password = auth_data.password.decode()
        if USERS.get(user) == password:
            return AuthResult(success=True)
    return AuthResult(success=False, handled=False)


def refusals():
    """The refusals a test set with MailServers::refuse (a JSON file read
    at every command, so a test changes them while the listener runs):
    "rcpt" maps a user to the reply to its RCPT TO, "mail" and "data" are
    the replies to every MAIL FROM and to every mail's end of DATA."""
    try:
        with open(CONFIG["refusals"]) as rules:
            return json.load(rules)
    except FileNotFoundError:
        return {}


class Handler:
    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        reply = refusals().get("mail")
        if reply:
            return reply
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        user = user_of(address)
        reply = refusals().get("rcpt", {}).get(user)
        if reply:
            return reply
        if user in CONFIG["reject"]:
            return "550 5.1.1 <%s>: mailbox unavailable (refused by the test listener)" % address
        if user not in USERS:
            return "550 5.1.1 <%s>: no such user here" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        reply = refusals().get("data")
        if reply:
            return reply
        content = envelope.original_content or envelope.content
        headers = BytesHeaderParser().parsebytes(content)
        message_id = (headers.get("Message-ID") or "").strip()
        with LOCK:
            for rcpt in envelope.rcpt_tos:
                failure = deliver(envelope.mail_from, rcpt, content)
                if failure:
                    return "451 4.3.0 delivery to %s failed: %s" % (rcpt, failure)
            with open(CONFIG["journal"], "a") as journal:
                for rcpt in envelope.rcpt_tos:
                    journal.write(
                        "%.6f\t%s\t%s\t%s\n" % (time.time(), envelope.mail_from, rcpt, message_id)
                    )
                journal.flush()
                os.fsync(journal.fileno())
        return "250 2.0.0 Message accepted for delivery"


def deliver(mail_from, rcpt, content):
    """Delivers with dovecot-lda; returns None, or why it failed.

    dovecot-lda runs as the mailboxes' owner, told the user by USER and HOME
    instead of "-d user": with -d it looks the user up through the Dovecot
    master's auth socket, and so fails (exit 75, answered 451) while a test
    restarts Dovecot. A real MTA would queue the mail and retry unseen; this
    listener has no queue, so its delivery must not depend on Dovecot's
    processes, and a restart of Dovecot disturbs IMAP only.
    """
    user = user_of(rcpt)
    owner = {}
    if os.geteuid() != CONFIG["uid"]:
        # Run as root: drop to the owner (Dovecot refuses to deliver as root).
        owner = dict(user=CONFIG["uid"], group=CONFIG["gid"], extra_groups=[])
    result = subprocess.run(
        [
            CONFIG["lda"],
            "-c", CONFIG["dovecot_conf"],
            # The owner may not use the stats socket of Dovecot (root's);
            # without this, every delivery's stderr starts with that error.
            "-o", "stats_writer_socket_path=",
            "-f", mail_from,
            "-a", rcpt,
        ],
        input=content,
        capture_output=True,
        timeout=30,
        env={"USER": user, "HOME": os.path.join(CONFIG["mail"], user)},
        **owner,
    )
    if result.returncode != 0:
        return (result.stderr.decode(errors="replace").strip() or "exit %d" % result.returncode)[:200]
    return None


def main():
    controllers = []
    tls = CONFIG.get("tls")
    context = None
    if tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(tls["cert"], tls["key"])
    common = dict(
        hostname="127.0.0.1",
        authenticator=authenticator,
        auth_required=True,
        auth_require_tls=False,
        server_hostname="localhost",
    )
    controllers.append(
        Controller(Handler(), port=CONFIG["port"], tls_context=context, **common)
    )
    if tls and tls.get("wrapped_port"):
        controllers.append(
            Controller(Handler(), port=tls["wrapped_port"], ssl_context=context, **common)
        )
    for controller in controllers:
        controller.start()
    print("ready", flush=True)
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    stopped.wait()
    for controller in controllers:
        controller.stop()


main()
