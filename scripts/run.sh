#!/usr/bin/env bash
# The one entry point on a fresh machine: installs the pinned pnpm when it is missing, the dependencies,
# builds, then runs what was asked:
#   bash scripts/run.sh test              # build, install missing gopls/rust-analyzer, type-check, lint, then every test (prints "N passed, N failed, N skipped")
#   bash scripts/run.sh codeseam ARGS...  # the codeseam CLI / MCP server
#   bash scripts/run.sh example           # the custom-provider example of @codeseam/lsp
set -euo pipefail
cd "$(dirname "$0")/.."
PNPM_VERSION=12.4.2
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  npm install -g -E "pnpm@$PNPM_VERSION" >&2
fi
pnpm install --frozen-lockfile --reporter=silent >&2
what="${1:-}"
[ $# -gt 0 ] && shift
case "$what" in
  test)
    # Tests need the build; a type or lint failure fails the run but the tests still run and report.
    pnpm build
    # The built-in servers that are not npm dependencies (gopls, rust-analyzer), from their records' install
    # commands, when missing; the first build of rust-analyzer takes about 12 minutes on 2 cores, later runs reuse it.
    node scripts/install-language-servers.mjs
    status=0
    pnpm typecheck || status=1
    pnpm lint || status=1
    pnpm test || status=1
    exit $status
    ;;
  codeseam)
    pnpm --silent build >&2
    exec node packages/lsp-mcp/dist/cli.js "$@"
    ;;
  example)
    pnpm --silent --filter @codeseam/lsp build >&2
    exec node packages/lsp/examples/custom-provider.mjs "$@"
    ;;
  *)
    echo "usage: bash scripts/run.sh test | codeseam [args...] | example" >&2
    exit 2
    ;;
esac
