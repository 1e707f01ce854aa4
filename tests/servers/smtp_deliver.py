#!/usr/bin/python3
"""A local SMTP server for the tests: delivers each message into the Maildir
of each recipient's local part, `ROOT/<user>/Maildir/new`, where Dovecot
(uid 65534) serves it over IMAP. Run with Debian's python3-aiosmtpd:

    /usr/bin/python3 tests/servers/smtp_deliver.py 127.0.0.1 10025 $D/mail

A message is written to tmp/ and renamed into new/ before the server says
250, so an accepted message is never lost. SIGTERM stops it at once.
"""

import asyncio
import os
import signal
import socket
import sys
import time

from aiosmtpd.smtp import SMTP

OWNER = 65534  # Dovecot's userdb uid/gid for every mailbox


def make_dirs(path):
    """Creates `path` and its missing parents below the root, owned by OWNER."""
    missing = []
    while not os.path.isdir(path):
        missing.append(path)
        path = os.path.dirname(path)
    for p in reversed(missing):
        try:
            os.mkdir(p, 0o700)
        except FileExistsError:
            # Dovecot made it meanwhile (a login creates the user's home):
            # then it is Dovecot's, owned as it should be.
            continue
        os.chown(p, OWNER, OWNER)


class Deliver:
    def __init__(self, root):
        self.root = root
        self.count = 0

    def deliver(self, user, data):
        maildir = os.path.join(self.root, user, "Maildir")
        for sub in ("tmp", "new", "cur"):
            make_dirs(os.path.join(maildir, sub))
        self.count += 1
        name = "%d.M%dP%dQ%d.%s" % (
            int(time.time()),
            time.time_ns() // 1000 % 1000000,
            os.getpid(),
            self.count,
            socket.gethostname(),
        )
        tmp = os.path.join(maildir, "tmp", name)
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chown(tmp, OWNER, OWNER)
        os.chmod(tmp, 0o600)
        os.rename(tmp, os.path.join(maildir, "new", name))

    async def handle_DATA(self, server, session, envelope):
        data = envelope.original_content or envelope.content
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        header = "Return-Path: <%s>\r\n" % (envelope.mail_from or "")
        for rcpt in envelope.rcpt_tos:
            local = rcpt.rsplit("@", 1)[0].strip("<>").lower()
            # One mailbox per local part; nothing may climb out of the root.
            local = "".join(c for c in local if c.isalnum() or c in "-_.").strip(".")
            if not local:
                return "550 no such mailbox"
            self.deliver(local, header.encode() + data)
        return "250 OK delivered"


def main():
    host, port, root = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    make_dirs(root)
    handler = Deliver(root)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(
        loop.create_server(
            lambda: SMTP(handler, hostname="localhost", data_size_limit=33554432),
            host=host,
            port=port,
        )
    )
    loop.add_signal_handler(signal.SIGTERM, loop.stop)
    loop.add_signal_handler(signal.SIGINT, loop.stop)
    print("smtp_deliver: listening on %s:%d, delivering under %s" % (host, port, root), flush=True)
    loop.run_forever()
    server.close()


if __name__ == "__main__":
    main()
