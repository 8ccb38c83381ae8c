#!/usr/bin/env bash
# PgBouncer ≥ 1.21 (named prepared statements in transaction mode: max_prepared_statements) for the
# PgBouncer drill (test/pgbouncer.test.ts). Debian 12 ships 1.18, which has none: this builds the
# version of Debian 13 (trixie) from its source package, off the mirror apt already uses, once; the
# binary is cached outside the clone, so a second run only prints its path.
# Prints the binary's path as its last line; exits non-zero (with the reason on stderr) when it cannot.
# Usage: .ci/pgbouncer.sh   (CI and locally; root the first time, for apt-get; cached in
# /var/cache/pgbouncer-ci as root, else ~/.cache/pgbouncer; PGBOUNCER_CACHE overrides)
set -euo pipefail

# PgBouncer refuses to run as root: as root the build goes where another user can run it from.
if [ "$(id -u)" = 0 ]; then DEFAULT_CACHE=/var/cache/pgbouncer-ci; else DEFAULT_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/pgbouncer"; fi
CACHE="${PGBOUNCER_CACHE:-$DEFAULT_CACHE}"
BIN="$CACHE/bin/pgbouncer"
MIN_MINOR=21

# "PgBouncer 1.24.1" → 24 when the major version is 1; 0 otherwise.
minor_of() { "$1" --version 2>/dev/null | sed -n 's/^PgBouncer 1\.\([0-9]*\).*/\1/p' | head -1; }
recent() { [ -x "$1" ] && [ "$(minor_of "$1")" -ge "$MIN_MINOR" ] 2>/dev/null; }

if recent "$BIN"; then echo "$BIN"; exit 0; fi
if SYSTEM=$(command -v pgbouncer) && recent "$SYSTEM"; then echo "$SYSTEM"; exit 0; fi

if [ "$(id -u)" != 0 ]; then
  echo "pgbouncer.sh: no PgBouncer ≥ 1.$MIN_MINOR and not root (apt-get needed to build one)" >&2
  exit 1
fi

# Source packages only: trixie's binaries never reach this system. Same mirror as the deb lines.
MIRROR=$(grep -hom1 'https\?://[^ ]*debian/\?$' /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list 2>/dev/null | head -1 || true)
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
cat >/etc/apt/sources.list.d/trixie-src.sources <<EOF
Types: deb-src
URIs: $MIRROR
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-trixie-stable.gpg /usr/share/keyrings/debian-archive-trixie-automatic.gpg
EOF
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --no-upgrade \
  dpkg-dev gcc make pkg-config libevent-dev libssl-dev libc-ares-dev >&2

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(
  cd "$WORK"
  apt-get source -qq --download-only pgbouncer/trixie >&2
  dpkg-source -x --skip-patches ./pgbouncer_*.dsc src >&2
  cd src
  ./configure --prefix="$CACHE" --without-systemd --with-cares >&2
  make -j"$(nproc)" >&2
  make install >&2
)
if ! recent "$BIN"; then
  echo "pgbouncer.sh: the build finished without a PgBouncer ≥ 1.$MIN_MINOR at $BIN" >&2
  exit 1
fi
echo "$BIN"
