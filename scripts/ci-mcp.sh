#!/usr/bin/env bash
# Installs, idempotently, the MCP memory server the mcp_memory kind is
# tested against, unmodified from npm: @modelcontextprotocol/server-memory,
# pinned with its integrity by methods/mcpmemory/npm/package-lock.json.
# Its test (methods/mcpmemory TestMCPServerMemoryFromNPM) fails under CI
# when this has not run, and skips with this command's name elsewhere.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
npmdir="$root/methods/mcpmemory/npm"
if [ ! -f "$npmdir/node_modules/.package-lock.json" ] || ! cmp -s "$npmdir/package-lock.json" "$npmdir/node_modules/.memharness-lock"; then
	(cd "$npmdir" && npm ci --no-audit --no-fund)
	cp "$npmdir/package-lock.json" "$npmdir/node_modules/.memharness-lock"
fi
echo "mcp memory servers: $(node --version) $(ls "$npmdir/node_modules/@modelcontextprotocol" | tr '\n' ' ')"
