#!/usr/bin/env bash
# Installs what envs/miniwob needs, idempotently: Debian's chromium and the
# npm libraries served to MiniWoB++ pages (jquery, jquery-ui, d3@3,
# seedrandom, pinned by envs/miniwob/js/package-lock.json).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"

if ! command -v chromium >/dev/null 2>&1; then
	sudo=""
	if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
	$sudo apt-get update
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends chromium
fi
chromium --version

js="$root/envs/miniwob/js"
if [ ! -f "$js/node_modules/.package-lock.json" ] || ! cmp -s "$js/package-lock.json" "$js/node_modules/.memharness-lock"; then
	(cd "$js" && npm ci --no-audit --no-fund)
	cp "$js/package-lock.json" "$js/node_modules/.memharness-lock"
fi
echo "miniwob runtime libraries: $(ls "$js/node_modules" | tr '\n' ' ')"
