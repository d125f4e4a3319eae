#!/usr/bin/env bash
# ci-mariadb.sh: starts a throwaway MariaDB server for the dbbench tests
# (envs/dbbench runs agents' SQL against it when MEMHARNESS_MYSQL_DSN is
# set). Installs Debian's mariadb-server when missing, runs the server in the
# background without systemd (data dir and socket under $MH_MARIADB_DIR),
# waits until it answers, creates a test user that may only touch databases
# named mhdb_*, and prints the export line for the DSN on stdout:
#
#   eval "$(scripts/ci-mariadb.sh)"
#   go test ./envs/dbbench/
#
# Stop it with: scripts/ci-mariadb.sh stop
# Needs root for apt-get (or mariadb-server already installed).
set -euo pipefail

DIR="${MH_MARIADB_DIR:-/tmp/memharness-mariadb}"
PORT="${MH_MARIADB_PORT:-33306}"
USER_NAME="${MH_MARIADB_USER:-memharness}"
USER_PASS="${MH_MARIADB_PASSWORD:-memharness}"
SOCK="$DIR/mysqld.sock"
PIDFILE="$DIR/mysqld.pid"

log() { echo "ci-mariadb: $*" >&2; }

if [ "${1:-}" = "stop" ]; then
	if [ -f "$PIDFILE" ]; then
		kill "$(cat "$PIDFILE")" && log "stopped $(cat "$PIDFILE")"
	else
		log "no server running under $DIR"
	fi
	exit 0
fi

server_bin() { command -v mariadbd || command -v mysqld || ls /usr/sbin/mariadbd /usr/sbin/mysqld 2>/dev/null | head -n1 || true; }
client_bin() { command -v mariadb || command -v mysql || true; }

if [ -z "$(server_bin)" ]; then
	log "installing mariadb-server (apt-get)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	# Debian's postinst tries to start the service; without systemd that
	# fails harmlessly, so refuse service starts for the install.
	printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
	apt-get install -y -qq --no-install-recommends mariadb-server mariadb-client >&2
	rm -f /usr/sbin/policy-rc.d
fi
MYSQLD="$(server_bin)"
CLIENT="$(client_bin)"
[ -n "$MYSQLD" ] && [ -n "$CLIENT" ] || { log "mariadb server or client not found"; exit 1; }

client() { "$CLIENT" --protocol=socket --socket="$SOCK" -uroot "$@"; }

if [ -S "$SOCK" ] && client -e 'SELECT 1' >/dev/null 2>&1; then
	log "server already running on $SOCK"
else
	mkdir -p "$DIR"
	RUNAS=()
	if [ "$(id -u)" = 0 ]; then
		id mysql >/dev/null 2>&1 && RUNAS=(--user=mysql) && chown -R mysql:mysql "$DIR" || RUNAS=(--user=root)
	fi
	if [ ! -d "$DIR/data/mysql" ]; then
		log "initialising data dir $DIR/data"
		INSTALL_DB="$(command -v mariadb-install-db || command -v mysql_install_db)"
		"$INSTALL_DB" "${RUNAS[@]}" --datadir="$DIR/data" --auth-root-authentication-method=socket \
			--skip-test-db >"$DIR/install.log" 2>&1 || { cat "$DIR/install.log" >&2; exit 1; }
		[ "$(id -u)" = 0 ] && [ "${RUNAS[0]:-}" = "--user=mysql" ] && chown -R mysql:mysql "$DIR"
	fi
	log "starting $MYSQLD on 127.0.0.1:$PORT (socket $SOCK)"
	# --secure-file-priv to an empty dir and local-infile off: the server
	# itself refuses file access even if a statement slipped past the guard.
	# Durability is traded for speed: every database here is throwaway.
	nohup "$MYSQLD" "${RUNAS[@]}" --datadir="$DIR/data" --socket="$SOCK" --pid-file="$PIDFILE" \
		--port="$PORT" --bind-address=127.0.0.1 --skip-name-resolve --local-infile=0 \
		--secure-file-priv="$DIR/nofiles" --log-error="$DIR/error.log" \
		--innodb-buffer-pool-size=64M --max-connections=200 \
		--innodb-flush-log-at-trx-commit=0 --innodb-doublewrite=0 --sync-frm=0 --innodb-file-per-table=0 >/dev/null 2>&1 &
	mkdir -p "$DIR/nofiles"
	for _ in $(seq 1 60); do
		client -e 'SELECT 1' >/dev/null 2>&1 && break
		sleep 1
	done
	client -e 'SELECT 1' >/dev/null 2>&1 || { log "server did not come up"; tail -n 30 "$DIR/error.log" >&2; exit 1; }
fi

# The test user may create and drop only databases named mhdb_* and holds no
# global privileges (no FILE, PROCESS, SUPER, CREATE USER).
client <<SQL
CREATE USER IF NOT EXISTS '$USER_NAME'@'127.0.0.1' IDENTIFIED BY '$USER_PASS';
CREATE USER IF NOT EXISTS '$USER_NAME'@'localhost' IDENTIFIED BY '$USER_PASS';
GRANT ALL PRIVILEGES ON \`mhdb\\_%\`.* TO '$USER_NAME'@'127.0.0.1';
GRANT ALL PRIVILEGES ON \`mhdb\\_%\`.* TO '$USER_NAME'@'localhost';
FLUSH PRIVILEGES;
SQL
log "ready"
echo "export MEMHARNESS_MYSQL_DSN='$USER_NAME:$USER_PASS@tcp(127.0.0.1:$PORT)/'"
