#!/usr/bin/env bash
# Installs what the browser tests need, idempotently: Debian's chromium, the
# npm libraries served to MiniWoB++ pages (jquery, jquery-ui, d3@3,
# seedrandom, pinned by envs/miniwob/js/package-lock.json) and the bundled
# Inspect log viewer the export browser test opens (export/inspectview).
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

# Inspect's published log viewer (npm @metrevals/inspect-log-viewer, pinned by
# export/inspectview/package-lock.json), bundled so the export browser test
# can open an exported log in it.
view="$root/export/inspectview"
if [ ! -f "$view/node_modules/.package-lock.json" ] || ! cmp -s "$view/package-lock.json" "$view/node_modules/.memharness-lock"; then
	(cd "$view" && npm ci --no-audit --no-fund)
	cp "$view/package-lock.json" "$view/node_modules/.memharness-lock"
fi
if [ ! -f "$view/dist/main.js" ] || [ "$view/main.jsx" -nt "$view/dist/main.js" ] || [ "$view/package-lock.json" -nt "$view/dist/main.js" ]; then
	(cd "$view" && npm run build)
fi
echo "inspect log viewer: $(ls "$view/dist" | tr '\n' ' ')"
