# tests/servers/start.sh — real mail servers on 127.0.0.1 for the tests.
#
# Source it (bash):   source tests/servers/start.sh
# It installs Dovecot, Debian's python3-aiosmtpd and Postfix if they are
# missing (apt-get, as root; Postfix is not started here: tests/parallel.rs
# starts a private instance), starts, in a fresh temporary folder
# $JUDGE_TEST_MAIL_DIR:
#   - Dovecot: IMAP on $JUDGE_TEST_IMAP_PORT (default 10143), POP3 on 10110,
#     any user name with password "secret", one Maildir per user under
#     $JUDGE_TEST_MAIL_DIR/mail/<user>/Maildir; on 127.0.0.2
#     ($JUDGE_TEST_IMAP_PLAIN_HOST), same port, the same mailboxes offered
#     without IDLE, MOVE or UIDPLUS, for the client's fallbacks;
#   - an SMTP server (tests/servers/smtp_deliver.py) on $JUDGE_TEST_SMTP_PORT
#     (default 10025) that delivers each message into the Maildir of each
#     recipient's local part (p1@localhost -> user p1);
# waits for the ports, and exports JUDGE_TEST_IMAP_PORT, JUDGE_TEST_SMTP_PORT,
# JUDGE_TEST_POP3_PORT, JUDGE_TEST_MAIL_DIR, JUDGE_TEST_MAIL_PASSWORD.
# `judge_servers_stop` stops both and removes the folder; the sourcing
# script should call it from a trap. Run as a program instead
# (`bash tests/servers/start.sh`), it starts the servers, prints the
# exports, and leaves them running: stop them with
# `bash tests/servers/start.sh stop <folder>`.
# The set-up and its traps: shared/docs/mail-servers.md.

JUDGE_SERVERS_HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

judge_servers_install() {
    if dpkg-query -W -f='${Status}\n' dovecot-imapd dovecot-pop3d python3-aiosmtpd postfix 2>/dev/null |
        grep -c "install ok installed" | grep -qx 4; then
        return 0
    fi
    echo "mail servers: installing dovecot-imapd dovecot-pop3d python3-aiosmtpd postfix" >&2
    local sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    # Postfix only for tests/parallel.rs, which starts a private instance of
    # its own: the system's own stays unconfigured (and, on these machines,
    # is not started by the package).
    echo "postfix postfix/main_mailer_type select No configuration" |
        $sudo debconf-set-selections &&
        $sudo apt-get update -qq >&2 &&
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
            dovecot-imapd dovecot-pop3d python3-aiosmtpd postfix >&2
}

# Is something listening on 127.0.0.1:$1?
judge_servers_port_open() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Waits up to $2 seconds for the port $1; fails with the log $3 if it never opens.
judge_servers_wait_port() {
    local port=$1 seconds=$2 log=$3 i
    for ((i = 0; i < seconds * 10; i++)); do
        if judge_servers_port_open "$port"; then return 0; fi
        sleep 0.1
    done
    echo "mail servers: nothing listens on 127.0.0.1:$port after ${seconds}s; $log says:" >&2
    tail -20 "$log" >&2 || true
    return 1
}

judge_servers_start() {
    judge_servers_install || { echo "mail servers: install failed" >&2; return 1; }
    local imap smtp pop3 port offset busy
    if [ -n "${JUDGE_TEST_IMAP_PORT:-}${JUDGE_TEST_SMTP_PORT:-}" ]; then
        # Ports chosen by the caller: those or nothing.
        imap=${JUDGE_TEST_IMAP_PORT:-10143} smtp=${JUDGE_TEST_SMTP_PORT:-10025}
        pop3=${JUDGE_TEST_POP3_PORT:-10110}
        for port in "$imap" "$smtp" "$pop3"; do
            if judge_servers_port_open "$port"; then
                echo "mail servers: 127.0.0.1:$port is already in use" >&2
                return 1
            fi
        done
    else
        # 10143/10025/10110, or the first free set 1000 further up (servers
        # of another checkout may be running).
        for offset in 0 1000 2000 3000 4000 5000; do
            imap=$((10143 + offset)) smtp=$((10025 + offset)) pop3=$((10110 + offset)) busy=""
            for port in "$imap" "$smtp" "$pop3"; do
                if judge_servers_port_open "$port"; then busy=$port; fi
            done
            [ -z "$busy" ] && break
        done
        if [ -n "$busy" ]; then
            echo "mail servers: no free ports (127.0.0.1:$busy and others are in use)" >&2
            return 1
        fi
    fi
    local D
    D=$(mktemp -d /tmp/judge-mail.XXXXXX)
    # Dovecot's mail processes run as 65534 and must reach $D/mail.
    chmod 755 "$D"
    mkdir -p "$D/run" "$D/state" "$D/mail"
    chown 65534:65534 "$D/mail"
    cat >"$D/dovecot.conf" <<CONF
base_dir = $D/run
state_dir = $D/state
log_path = $D/dovecot.log
protocols = imap pop3
listen = 127.0.0.1, 127.0.0.2
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:$D/mail/%n/Maildir
namespace inbox {
  inbox = yes
  separator = /
  mailbox processed {
    auto = create
  }
}
passdb {
  driver = static
  args = password=secret
}
userdb {
  driver = static
  args = uid=65534 gid=65534 home=$D/mail/%n
}
service imap-login {
  inet_listener imap {
    port = $imap
  }
  inet_listener imaps {
    port = 0
  }
}
# A server without the extensions: the judge must poll, copy and expunge.
local 127.0.0.2 {
  protocol imap {
    imap_capability = IMAP4rev1 LITERAL+ SASL-IR LOGIN-REFERRALS ID ENABLE
  }
}
service pop3-login {
  inet_listener pop3 {
    port = $pop3
  }
  inet_listener pop3s {
    port = 0
  }
}
CONF
    /usr/sbin/dovecot -F -c "$D/dovecot.conf" >"$D/dovecot.out" 2>&1 &
    echo $! >"$D/dovecot.pid"
    # Debian's python (its aiosmtpd), as root: it writes each file owned by 65534.
    /usr/bin/python3 "$JUDGE_SERVERS_HERE/smtp_deliver.py" 127.0.0.1 "$smtp" "$D/mail" \
        >"$D/smtp.log" 2>&1 &
    echo $! >"$D/smtp.pid"
    export JUDGE_TEST_MAIL_DIR=$D
    if ! judge_servers_wait_port "$imap" 20 "$D/dovecot.log" ||
        ! judge_servers_wait_port "$smtp" 20 "$D/smtp.log"; then
        judge_servers_stop
        return 1
    fi
    export JUDGE_TEST_IMAP_PORT=$imap JUDGE_TEST_SMTP_PORT=$smtp JUDGE_TEST_POP3_PORT=$pop3
    export JUDGE_TEST_MAIL_PASSWORD=secret JUDGE_TEST_IMAP_PLAIN_HOST=127.0.0.2
    echo "mail servers: IMAP 127.0.0.1:$imap, SMTP 127.0.0.1:$smtp, POP3 127.0.0.1:$pop3, mail in $D" >&2
}

# Stops the servers of $1 (default: $JUDGE_TEST_MAIL_DIR), waits until they are gone.
judge_servers_stop() {
    local D=${1:-${JUDGE_TEST_MAIL_DIR:-}} f pid i
    [ -n "$D" ] && [ -d "$D" ] || return 0
    for f in smtp dovecot; do
        if [ -f "$D/$f.pid" ]; then
            pid=$(cat "$D/$f.pid")
            kill -TERM "$pid" 2>/dev/null || true
            for ((i = 0; i < 100; i++)); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$D"
    unset JUDGE_TEST_IMAP_PORT JUDGE_TEST_SMTP_PORT JUDGE_TEST_POP3_PORT
    unset JUDGE_TEST_MAIL_DIR JUDGE_TEST_MAIL_PASSWORD JUDGE_TEST_IMAP_PLAIN_HOST
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    # Run as a program.
    set -euo pipefail
    if [ "${1:-}" = stop ]; then
        judge_servers_stop "${2:?the folder printed at start}"
        exit 0
    fi
    judge_servers_start
    echo "export JUDGE_TEST_IMAP_PORT=$JUDGE_TEST_IMAP_PORT JUDGE_TEST_SMTP_PORT=$JUDGE_TEST_SMTP_PORT" \
        "JUDGE_TEST_POP3_PORT=$JUDGE_TEST_POP3_PORT JUDGE_TEST_MAIL_DIR=$JUDGE_TEST_MAIL_DIR" \
        "JUDGE_TEST_MAIL_PASSWORD=$JUDGE_TEST_MAIL_PASSWORD" \
        "JUDGE_TEST_IMAP_PLAIN_HOST=$JUDGE_TEST_IMAP_PLAIN_HOST"
    echo "# stop with: bash $0 stop $JUDGE_TEST_MAIL_DIR"
else
    judge_servers_start
fi
