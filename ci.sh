#!/usr/bin/env bash
# Everything CI needs, in order. Runs from a clean clone; starts (and always stops) its own relay,
# demo agent and adapter daemons on ephemeral loopback ports. Usable locally: `bash ci.sh`.
#
# Environment:
#   AEP_STANDARD_DIR   the standard's checkout (default ../shared/aep-standard); stages that need it
#                      are skipped with a note when it is absent.
#   AEP_VENDORS_CACHE  where the real-vendors stage installs the pinned vendor CLIs (default
#                      ~/.cache/aep-vendors; the first run installs, later runs reuse it).
#   AEP_SKIP_VENDORS   1 skips the real-vendors stage.
set -euo pipefail
cd "$(dirname "$0")"

STANDARD=${AEP_STANDARD_DIR:-../shared/aep-standard}
CORPUS="$STANDARD/conformance/fixtures"
# Families of the standard's corpus this project implements so far.
FAMILIES=(golden invalid attr-match ce-roundtrip otlp ocsf redaction capture-gating downlevel mappings bridge-mappings)
# It names no check: every source of that corpus is implemented, so a failure or a skip fails the run.
STANDARD_EXPECTED=conformance/standard-expected-failures.json
AEP="node bin/aep.js"
WORK=$(mktemp -d)
PIDS=()
STAGES_PASSED=0

cleanup() {
  for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

stage() { printf '\n==> %s\n' "$*"; }
passed() { STAGES_PASSED=$((STAGES_PASSED + 1)); }

# Starts a long-running `aep` verb in the background; waits until its stdout or stderr has a line
# matching $2 (at most 15 s) and prints that line. Its output goes to $WORK/$1.log and $1.err.
start_bg() {
  local name=$1 ready=$2; shift 2
  "$@" >"$WORK/$name.log" 2>"$WORK/$name.err" &
  PIDS+=($!)
  for _ in $(seq 1 150); do
    if grep -h -m1 -E "$ready" "$WORK/$name.log" "$WORK/$name.err" 2>/dev/null; then return 0; fi
    if ! kill -0 "${PIDS[-1]}" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "ci: $name did not become ready; its stderr:" >&2
  cat "$WORK/$name.err" >&2
  return 1
}

# Kills the most recently started background process.
stop_last() { kill "${PIDS[-1]}" 2>/dev/null || true; wait "${PIDS[-1]}" 2>/dev/null || true; unset 'PIDS[-1]'; }

relay_url() { grep -h -m1 -oE 'http://[0-9.]+:[0-9]+' "$WORK/$1.log" "$WORK/$1.err" | head -n1; }

# Waits (at most 10 s) until the relay at $1 (token $2) holds an event of session $3.
wait_session() {
  node -e '
    const [url, token, session] = process.argv.slice(1);
    const deadline = Date.now() + 10000;
    (async () => {
      while (Date.now() < deadline) {
        const res = await fetch(`${url}/stream?from=all&live=0`, { headers: { authorization: `Bearer ${token}` } }).catch(() => null);
        if (res && res.ok && (await res.text()).includes(`"session":"${session}"`)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      console.error(`ci: session ${session} never reached the relay`);
      process.exit(1);
    })();
  ' "$1" "$2" "$3"
}

# The Node range package.json claims ("engines": one caret range, ^22.13.0) is proven at both
# ends: every stage runs on the lowest version of it (22.13.0, exactly), and the newest release of
# its major (asked of the registry each run) gets its own stage below. Both come from the npm
# registry (the "node" package: the binary ships inside a registry package) into a cache folder,
# the lowest put first on PATH, so every stage, npm included, runs on it. AEP_NODE_CACHE moves
# the cache.
NODE_CACHE=${AEP_NODE_CACHE:-$HOME/.cache/aep-node}
NODE_RANGE=$(node -p 'require("./package.json").engines.node')
case "$NODE_RANGE" in
  ^[0-9]*.[0-9]*.[0-9]*) ;;
  *) echo "ci: engines.node must be one caret range (^MAJOR.MINOR.PATCH), got '$NODE_RANGE'" >&2; exit 1 ;;
esac
NODE_LOWEST=${NODE_RANGE#^}
NODE_HIGHEST=$(npm view "node@${NODE_LOWEST%%.*}" version --json | node -e '
  const v = [].concat(JSON.parse(require("fs").readFileSync(0, "utf8")));
  const key = (s) => s.split(".").map(Number);
  v.sort((a, b) => { const p = key(a), q = key(b); return p[0] - q[0] || p[1] - q[1] || p[2] - q[2]; });
  console.log(v.at(-1));
')
provision_node() {
  local version=$1
  if [ ! -x "$NODE_CACHE/$version/node_modules/node/bin/node" ]; then
    mkdir -p "$NODE_CACHE/$version"
    npm install --prefix "$NODE_CACHE/$version" --no-audit --no-fund --no-save "node@$version" >/dev/null
  fi
  echo "$NODE_CACHE/$version/node_modules/node/bin"
}
if [ "$(node --version)" != "v$NODE_LOWEST" ]; then
  stage "node: this machine has $(node --version); every stage runs on the lowest claimed version, $NODE_LOWEST ($NODE_RANGE; the newest, $NODE_HIGHEST, has its own stage)"
  PATH="$(provision_node "$NODE_LOWEST"):$PATH"
  export PATH
  node --version
  passed
fi

stage "install (npm install, as the README says): no EBADENGINE, no unreviewed install script"
npm install --no-audit --no-fund 2>&1 | tee "$WORK/install.log"
if grep -E 'EBADENGINE|not yet covered by allowScripts' "$WORK/install.log"; then
  echo "ci: npm install warned on Node $(node --version): the lockfile has left the engines range ($NODE_RANGE), or a dependency's install script is not in allowScripts" >&2
  exit 1
fi
passed

stage "headless Chromium for the HTML report's browser test (Debian's chromium package)"
if ! command -v chromium >/dev/null 2>&1; then
  SUDO=; [ "$(id -u)" != 0 ] && SUDO=sudo
  $SUDO apt-get install -y chromium || { $SUDO apt-get update && $SUDO apt-get install -y chromium; }
fi
passed

stage "nats-server for the relay fleet tests (Debian's nats-server package)"
if ! command -v nats-server >/dev/null 2>&1 && [ ! -x /usr/sbin/nats-server ]; then
  SUDO=; [ "$(id -u)" != 0 ] && SUDO=sudo
  $SUDO apt-get install -y nats-server || { $SUDO apt-get update && $SUDO apt-get install -y nats-server; }
fi
NATS_SERVER=$(command -v nats-server || echo /usr/sbin/nats-server)
passed

stage "import cycles (npm run cycles: madge --circular over every module, tests included)"
npm run cycles
passed

stage "unit and integration tests (npm test)"
npm test 2>&1 | tee "$WORK/npm-test.log"
passed

stage "reliability suite, bounded (AEP_RELIABILITY=ci npm run test:reliability)"
AEP_RELIABILITY=ci npm run test:reliability 2>&1 | tee "$WORK/reliability.log"
grep -h '\[reliability\]' "$WORK/reliability.log" || true
passed

stage "benchmarks, quick mode (npm run bench -- --quick --json): every benchmark runs and its workload checks pass; no timing is judged"
# peer-fanout's baseline is Debian's nats-server (core pub/sub, installed above), started by the benchmark itself.
npm run bench -- --quick --json "$WORK/bench.json"
node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); if(!Array.isArray(d.benchmarks)||d.benchmarks.length===0) throw new Error("bench: no rows in the --json report"); console.log(`bench: ${d.benchmarks.length} rows`)' "$WORK/bench.json"
passed

stage "the project's own corpus (npm run conformance)"
npm run conformance -- --json "$WORK/report-own.json"
passed

# The highest end of the claimed range, the newest release of its major: a clean install in a
# scratch copy (no EBADENGINE), the unit tests of the protocol library and the CLI (impl/core,
# impl/cli: every verb, the EPIPE and path checks among them) and the project's corpus.
if [ "$NODE_HIGHEST" != "$NODE_LOWEST" ]; then
  stage "node $NODE_HIGHEST (the newest $NODE_RANGE): a clean install, the core and CLI tests, the project's corpus"
  HIGH_BIN="$(provision_node "$NODE_HIGHEST")"
  HIGH="$WORK/node-$NODE_HIGHEST"
  git ls-files -z | tar --null -T - -cf - | (mkdir -p "$HIGH" && tar -xf - -C "$HIGH")
  (
    cd "$HIGH"
    export PATH="$HIGH_BIN:$PATH"
    node --version
    npm install --no-audit --no-fund 2>&1 | tee "$WORK/install-$NODE_HIGHEST.log"
    if grep -E 'EBADENGINE|not yet covered by allowScripts' "$WORK/install-$NODE_HIGHEST.log"; then
      echo "ci: npm install warned on Node $NODE_HIGHEST" >&2
      exit 1
    fi
    node node_modules/vitest/vitest.mjs run impl/core impl/cli --coverage=false
    node bin/aep.js conformance --json "$WORK/report-node$NODE_HIGHEST.json"
  )
  passed
fi

if [ -d "$CORPUS" ]; then
  stage "the standard's corpus in $CORPUS: ${FAMILIES[*]}"
  $AEP conformance --corpus "$CORPUS" --family "${FAMILIES[@]}" --expected-failures "$STANDARD_EXPECTED" --json "$WORK/report-standard.json"
  passed
else
  stage "the standard's corpus: skipped ($CORPUS not found)"
fi

stage "the live runner: mappings and control-loop scenarios through a relay and the adapter daemons, AG-UI entries through the tee proxy"
$AEP conformance --family mappings control-loop bridge-mappings --live --json "$WORK/report-live-runner.json"
if [ -d "$CORPUS" ]; then
  $AEP conformance --corpus "$CORPUS" --family mappings bridge-mappings --live --expected-failures "$STANDARD_EXPECTED" --json "$WORK/report-live-standard.json"
fi
passed

stage "live: open relay with AEP_BUFFER=8, check-live --evict"
AEP_BUFFER=8 start_bg relay-open 'listening on' $AEP relay --port 0
URL=$(relay_url relay-open)
$AEP check-live "$URL" --evict --json "$WORK/report-live-open.json"
stop_last
passed

stage "live: tokened relay + demo-agent, check-live --control-session --control-cancel"
TOKEN="ci-$RANDOM$RANDOM"
AEP_TOKEN=$TOKEN start_bg relay-tok 'listening on' $AEP relay --port 0
URL=$(relay_url relay-tok)
start_bg demo 'demo-agent ready' $AEP demo-agent --relay "$URL" --token "$TOKEN" --session ci-demo --run ci-run
$AEP check-live "$URL" --token "$TOKEN" --control-session ci-demo --control-cancel ci-run --json "$WORK/report-live-tokened.json"
stop_last
stop_last
passed

stage "the relay suites against the fleet hub (AEP_TEST_HUB=nats: the same cases, each relay a node on a real nats-server)"
AEP_TEST_HUB=nats npx vitest run impl/relay/ 2>&1 | tee "$WORK/relay-fleet.log"
passed

stage "live: a three-node fleet on NATS JetStream, check-live against every node, open (--evict) and tokened (--control-session, the target on node a)"
NATS_SERVER=${NATS_SERVER:-$(command -v nats-server || echo /usr/sbin/nats-server)}
NATS_PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
start_bg nats 'Server is ready' "$NATS_SERVER" -js -a 127.0.0.1 -p "$NATS_PORT" -sd "$WORK/nats-store"
NATS_URL="nats://127.0.0.1:$NATS_PORT"
for n in a b c; do AEP_BUFFER=8 AEP_NATS_STREAM=CIOPEN AEP_NATS_NODE=$n start_bg "fleet-open-$n" 'listening on' $AEP relay --port 0 --nats "$NATS_URL"; done
for n in a b c; do $AEP check-live "$(relay_url "fleet-open-$n")" --evict --json "$WORK/report-fleet-open-$n.json"; done
for _ in a b c; do stop_last; done
TOKEN="ci-$RANDOM$RANDOM"
for n in a b c; do AEP_TOKEN=$TOKEN AEP_NATS_STREAM=CITOK AEP_NATS_NODE=$n start_bg "fleet-tok-$n" 'listening on' $AEP relay --port 0 --nats "$NATS_URL"; done
# One demo agent per check (each check cancels its run), all attached to node a: the checks on b and c route across nodes.
for n in a b c; do start_bg "fleet-demo-$n" 'demo-agent ready' $AEP demo-agent --relay "$(relay_url fleet-tok-a)" --token "$TOKEN" --session "ci-fleet-$n" --run "ci-fleet-run-$n"; done
for n in a b c; do
  $AEP check-live "$(relay_url "fleet-tok-$n")" --token "$TOKEN" --control-session "ci-fleet-$n" --control-cancel "ci-fleet-run-$n" --json "$WORK/report-fleet-tokened-$n.json"
done
for _ in 1 2 3 4 5 6 7; do stop_last; done
passed

stage "the fleet on a three-server NATS cluster (bounded): ten servers killed one after the other under load (each time ingest answers 202 again within 5 s, or, when the broker's own recovery takes longer, within 2.5 s of it; no POST past its bound), a relay node killed with a command in flight, a partition healed; loss 0, duplicates 0 at the consumers (the full run is npm run test:reliability)"
AEP_CLUSTER_TESTS=1 npx vitest run impl/relay/fleet/cluster.test.ts
passed

stage "live: each adapter daemon (and the SSE bridges' opt-in gate), attached to a tokened relay, as a control-capable target"
TOKEN="ci-$RANDOM$RANDOM"
AEP_TOKEN=$TOKEN start_bg relay-adapters 'listening on' $AEP relay --port 0
URL=$(relay_url relay-adapters)
# Each entry is an adapter name, optionally `:VAR=1` for the opt-in variable that turns its answerable
# leg on, from the registry (impl/integrations/registry.ts answerableEntries); Cline's needs a hub (below).
ENTRIES=$(node -e "import('./dist/impl/integrations/registry.js').then((m) => console.log(m.answerableEntries().join(' ')))")
[ -n "$ENTRIES" ] || { echo "ci.sh: the registry lists no answerable adapter" >&2; exit 1; }
for entry in $ENTRIES; do
  name=${entry%%:*}
  optin=; [ "$entry" != "$name" ] && optin=${entry#*:}
  AEP_HOME="$WORK/home-$name" start_bg "adapter-$name" 'listening on' env $optin $AEP adapter "$name" --port 0 --relay "$URL" --token "$TOKEN"
  PORT=$(relay_url "adapter-$name" | sed 's/.*://')
  # The first moment of a session, in each vendor's own shape (plugins POST moments, not hook JSON).
  case $name in
    opencode|kilocode) printf '{"kind":"bus","event":{"type":"session.created","properties":{"info":{"id":"ci-%s","version":"ci"}}}}' "$name" | $AEP hook "$name" bus --port "$PORT" ;;
    pi) printf '{"session":"ci-pi","event":{"type":"session_start","reason":"startup"}}' | $AEP hook pi session_start --port "$PORT" ;;
    hermes) printf '{"hook_event_name":"on_session_start","session_id":"ci-hermes","cwd":"/tmp","extra":{}}' | $AEP hook hermes on_session_start --port "$PORT" ;;
    *) printf '{"hook_event_name":"SessionStart","session_id":"ci-%s","source":"startup","cwd":"/tmp"}' "$name" | $AEP hook "$name" SessionStart --port "$PORT" ;;
  esac
  echo
  wait_session "$URL" "$TOKEN" "ci-$name"
  $AEP check-live "$URL" --token "$TOKEN" --control-session "ci-$name" \
    --checks control-behalf-refusal,control-ack,control-nack-unsupported,control-dedupe --json "$WORK/report-live-$name.json"
  stop_last
done
# Cline's hub control needs a hub WebSocket: impl/adapters/cline/check-live.test.ts runs these
# checks against a stub hub.
# The SSE bridges' opt-in gate (primary mode, AEP_<VENDOR>_SSE_CONTROL=1) against a stub vendor
# server (impl/bridges/opencode-sse/stub-server.ts) that opens the session on its /event stream.
for vendor in opencode kilocode; do
  V=$(echo "$vendor" | tr a-z A-Z)
  start_bg "stub-$vendor" 'listening on' node dist/impl/bridges/opencode-sse/stub-server.js "ci-$vendor-sse"
  SERVER=$(relay_url "stub-$vendor")
  AEP_HOME="$WORK/home-$vendor-sse" start_bg "bridge-$vendor-sse" 'attached to' env "AEP_${V}_SSE_CONTROL=1" $AEP bridge "$vendor-sse" --primary --port 0 --server "$SERVER" --relay "$URL" --token "$TOKEN"
  wait_session "$URL" "$TOKEN" "ci-$vendor-sse"
  $AEP check-live "$URL" --token "$TOKEN" --control-session "ci-$vendor-sse" \
    --checks control-behalf-refusal,control-ack,control-nack-unsupported,control-dedupe --json "$WORK/report-live-$vendor-sse.json"
  stop_last
  stop_last
done
# The WebSocket bridges' opt-in gates against their stubs: Kimi web (primary, AEP_KIMI_WEB_CONTROL=1;
# impl/bridges/kimi-web/stub-server.ts opens the session on subscribe) and OpenHands
# (AEP_OPENHANDS_CONTROL=1; impl/bridges/openhands/stub-server.ts lists the conversation).
KAP_TOKEN="ci-kap-$RANDOM$RANDOM"
start_bg stub-kimi-web 'listening on' node dist/impl/bridges/kimi-web/stub-server.js "$KAP_TOKEN" ci-kimi-web
SERVER=$(relay_url stub-kimi-web)
AEP_HOME="$WORK/home-kimi-web" start_bg bridge-kimi-web 'observing' env AEP_KIMI_WEB_CONTROL=1 AEP_KIMI_WEB_TOKEN="$KAP_TOKEN" $AEP bridge kimi-web --primary --port 0 --server "$SERVER" --relay "$URL" --token "$TOKEN"
wait_session "$URL" "$TOKEN" ci-kimi-web
$AEP check-live "$URL" --token "$TOKEN" --control-session ci-kimi-web \
  --checks control-behalf-refusal,control-ack,control-nack-unsupported,control-dedupe --json "$WORK/report-live-kimi-web.json"
stop_last
stop_last
start_bg stub-openhands 'listening on' node dist/impl/bridges/openhands/stub-server.js ci-openhands
SERVER=$(relay_url stub-openhands)
AEP_HOME="$WORK/home-openhands" start_bg bridge-openhands 'observing' env AEP_OPENHANDS_CONTROL=1 $AEP bridge openhands --port 0 --server "$SERVER" --relay "$URL" --token "$TOKEN"
wait_session "$URL" "$TOKEN" ci-openhands
# OpenHands declares control.pause, so the undeclared probe is control.cancel (not adopted: no write terminates a run).
$AEP check-live "$URL" --token "$TOKEN" --control-session ci-openhands --control-undeclared control.cancel \
  --checks control-behalf-refusal,control-ack,control-nack-unsupported,control-dedupe --json "$WORK/report-live-openhands.json"
stop_last
stop_last
stop_last
passed

stage "the demo: five beats through real processes (npm run demo)"
npm run demo
passed

stage "real vendors in the loop: the pinned Claude Code, Codex, Gemini, Qwen Code, Cline, OpenCode, Kilo Code and pi CLIs against scripted model servers"
if [ "${AEP_SKIP_VENDORS:-}" = "1" ]; then
  echo "skipped (AEP_SKIP_VENDORS=1)"
else
  if ! command -v tmux >/dev/null 2>&1; then
    echo "ci: tmux is missing (the Codex TUI runs under it); installing it from Debian"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux
  fi
  AEP_VENDORS_CAPTURE_DIR="$WORK/vendor-captures" $AEP conformance --family mappings --vendors --json "$WORK/report-vendors.json"
  # The ACP bridge's real peer: the pinned @zed-industries/codex-acp into the same cache, then its test.
  node dist/runners/vendors/acp-agent.js --install
  npx vitest run runners/vendors/acp-agent.test.ts
  # A vendor's release in one command: the pinned Claude Code, its scenarios and its hook surface
  # against the committed captures (exit 1 on a failed scenario or a changed used surface).
  $AEP certify claude-code --report "$WORK/certification"
  passed
fi

# One closing line for the whole run: vitest's test counts plus every check of every report.
node -e '
  const fs = require("fs"), path = require("path");
  const dir = process.argv[1];
  const log = fs.readFileSync(path.join(dir, "npm-test.log"), "utf8").replace(/\x1b\[[0-9;]*m/g, "");
  const m = /Tests\s+(?:(\d+) failed \| )?(\d+) passed(?: \| (\d+) skipped)?/.exec(log);
  let pass = m ? Number(m[2]) : 0, fail = m && m[1] ? Number(m[1]) : 0, skip = m && m[3] ? Number(m[3]) : 0;
  for (const f of fs.readdirSync(dir).filter((f) => f.startsWith("report-"))) {
    const s = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")).summary;
    pass += s.pass; fail += s.fail; skip += s.skip;
  }
  console.log(`\n${process.argv[2]} stages; tests and checks:`);
  console.log(`ci: ${pass} passed, ${fail} failed, ${skip} skipped`);
' "$WORK" "$STAGES_PASSED"
