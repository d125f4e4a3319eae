#!/usr/bin/env bash
# Checks a new user's first run: clones the committed repository into a
# temporary folder and runs the README's two set-up commands there as on a
# machine with only Go — no ../shared beside the clone, no Chromium or
# MariaDB on PATH, no C compiler on PATH (so Go builds with CGO_ENABLED=0, as
# the Dockerfile does), no npm modules, no MEMHARNESS_* settings. `make bench`
# must finish with exit 0 and its summary must name MiniWoB++ as left out;
# the test packages that depend on the optional parts must pass by skipping.
#
# Usage: scripts/ci-bare.sh [REPO]   (default: the repository holding this script)
set -euo pipefail

repo="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
start=$SECONDS

# The clone sits in a folder with nothing beside it, so ../shared is absent.
git clone -q "$repo" "$work/box/main"
cd "$work/box/main"

# A PATH holding every tool of this machine except the optional ones and
# the C compilers (cgo must not be needed anywhere).
mkdir -p "$work/bin"
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
	[ -d "$d" ] || continue
	for f in "$d"/*; do
		name="$(basename "$f")"
		case "$name" in
		chromium* | chrome* | google-chrome* | headless-shell | mariadb* | mysql* | mysqld*) continue ;;
		cc | gcc | gcc-* | c++ | g++ | g++-* | clang | clang-* | clang++* | tcc | *-linux-gnu-gcc* | *-linux-gnu-g++*) continue ;;
		esac
		[ -x "$f" ] && [ ! -e "$work/bin/$name" ] && ln -s "$f" "$work/bin/$name"
	done
done
for tool in chromium mariadbd mysqld cc gcc clang; do
	if PATH="$work/bin" command -v "$tool" >/dev/null 2>&1; then
		echo "ci-bare: could not hide $tool" >&2
		exit 1
	fi
done

bare_env=(env -u MEMHARNESS_MYSQL_DSN -u MEMHARNESS_CHROMIUM -u MEMHARNESS_MINIWOB_JS
	-u OPENAI_BASE_URL -u OPENAI_API_KEY -u OPENAI_MODEL -u CC -u CXX
	CGO_ENABLED=0 PATH="$work/bin")

echo "== ci-bare: make bench in a bare clone"
"${bare_env[@]}" make bench OUT="$work/runs" 2>&1 | tee "$work/bench.log" | tail -25
status=${PIPESTATUS[0]}
if [ "$status" != 0 ]; then
	echo "ci-bare: make bench exited $status" >&2
	exit 1
fi
if ! grep -q '^left out: miniwob' "$work/bench.log"; then
	echo "ci-bare: the summary of make bench does not name MiniWoB++ as left out" >&2
	exit 1
fi

# The database task's SQL sandbox (envs/dbbench: engine process, deadline
# kill, memory ceiling) runs here without cgo, as in the shipped image.
echo "== ci-bare: tests of the parts with optional prerequisites, CGO_ENABLED=0 and no cc"
if [ "$("${bare_env[@]}" go env CGO_ENABLED)" != 0 ]; then
	echo "ci-bare: cgo is still enabled" >&2
	exit 1
fi
"${bare_env[@]}" go test -count=1 ./envs/miniwob/ ./envs/dbbench/... ./cmd/bench-sql/ ./bench/ -run . 2>&1 | tee "$work/test.log" | tail -15
status=${PIPESTATUS[0]}
if [ "$status" != 0 ]; then
	echo "ci-bare: tests failed without the optional parts" >&2
	exit 1
fi
echo "ci-bare: passed in $((SECONDS - start)) s"
