#!/usr/bin/env bash
# Real-host smoke for the plugin-shaped adapters (manual; not part of ci.sh: it installs a vendor
# CLI from npm). It runs the vendor's real CLI with our plugin/extension loaded, against a scripted
# model server, with a tokened relay, the adapter daemon and an operator that answers every ask,
# then prints the session's AEP log, validates it and shows what the model got back.
#
#   bash impl/adapter-kit/real-host/smoke.sh opencode [ANSWER]   # opencode-ai, `opencode serve`
#   bash impl/adapter-kit/real-host/smoke.sh kilocode [ANSWER]   # @kilocode/cli, `kilo serve`
#   bash impl/adapter-kit/real-host/smoke.sh pi [ANSWER]         # @mariozechner/pi-coding-agent, --mode json
#
# ANSWER is the operator's text: an option word (`once`, `allow`) or free text (a refusal whose
# text should reach the model). SMOKE_TOOL=question makes the model ask a question instead of
# running bash (OpenCode/Kilo Code: the form loop). Versions: SMOKE_OPENCODE (1.18.33),
# SMOKE_KILO (7.7.9, the newest linux-x64 binary published), SMOKE_PI (0.73.1, the last release
# that runs on Node 20). CLIs are cached under AEP_SMOKE_CACHE (default ~/.cache/aep-smoke).
set -euo pipefail
VENDOR=${1:?usage: smoke.sh opencode|kilocode|pi [ANSWER]}
ANSWER=${2:-once}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
AEP="node $ROOT/bin/aep.js"
CACHE=${AEP_SMOKE_CACHE:-$HOME/.cache/aep-smoke}
W=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$W"; }
trap cleanup EXIT

# Waits for the first http://host:port in file $1 and prints it.
url_in() { for _ in $(seq 300); do local u; u=$(grep -h -m1 -oE 'http://127\.0\.0\.1:[0-9]+' "$@" 2>/dev/null | head -n1); [ -n "$u" ] && { echo "$u"; return; }; sleep 0.1; done; echo "smoke: nothing listening in $*" >&2; return 1; }
install() { local dir="$CACHE/$1"; shift; [ -d "$dir/node_modules" ] || { mkdir -p "$dir"; (cd "$dir" && npm install --no-audit --no-fund --ignore-scripts "$@" >/dev/null); }; echo "$dir"; }

case $VENDOR in
  opencode) DIR=$(install "opencode-${SMOKE_OPENCODE:-1.18.33}" "opencode-ai@${SMOKE_OPENCODE:-1.18.33}"); BIN=$(find "$DIR/node_modules" -path '*opencode-linux-x64/bin/opencode' | head -n1) ;;
  kilocode) DIR=$(install "kilo-${SMOKE_KILO:-7.7.9}" "@kilocode/cli-linux-x64@${SMOKE_KILO:-7.7.9}"); BIN="$DIR/node_modules/@kilocode/cli-linux-x64/bin/kilo" ;;
  pi) DIR=$(install "pi-${SMOKE_PI:-0.73.1}" "@mariozechner/pi-coding-agent@${SMOKE_PI:-0.73.1}"); BIN="$DIR/node_modules/@mariozechner/pi-coding-agent/dist/cli.js" ;;
  *) echo "smoke: unknown vendor $VENDOR" >&2; exit 2 ;;
esac

# The vendor's own state goes to the temporary home.
export HOME="$W/home" XDG_CONFIG_HOME="$W/home/.config" XDG_DATA_HOME="$W/home/.local/share" XDG_CACHE_HOME="$W/home/.cache" XDG_STATE_HOME="$W/home/.local/state"
mkdir -p "$HOME"
TOKEN="smoke-$RANDOM$RANDOM"
AEP_TOKEN=$TOKEN $AEP relay --port 0 >"$W/relay.log" 2>&1 & PIDS+=($!)
RELAY=$(url_in "$W/relay.log")
node "$HERE/answerer.mjs" "$RELAY" "$TOKEN" "$ANSWER" >"$W/answerer.log" 2>&1 & PIDS+=($!)
SMOKE_VENDOR=$VENDOR node "$HERE/scripted-model.mjs" >"$W/model.log" 2>&1 & PIDS+=($!)
MODEL=$(url_in "$W/model.log")
AEP_HOME="$W/aep" AEP_PI_CONTROL=1 AEP_ATTENTION_TIMEOUT_MS=20000 $AEP adapter "$VENDOR" --port 0 --relay "$RELAY" --token "$TOKEN" >"$W/daemon.log" 2>&1 & PIDS+=($!)
PORT=$(url_in "$W/daemon.log" | sed 's/.*://')
export AEP_OPENCODE_PORT=$PORT AEP_KILOCODE_PORT=$PORT AEP_PI_PORT=$PORT AEP_ATTENTION_TIMEOUT_MS=20000 AEP_PI_CONTROL=1
P="$W/project"; mkdir -p "$P"; (cd "$P" && git init -q . 2>/dev/null || true)
PROVIDER="{\"scripted\": {\"npm\": \"@ai-sdk/openai-compatible\", \"name\": \"Scripted\", \"options\": {\"baseURL\": \"$MODEL/v1\", \"apiKey\": \"none\"}, \"models\": {\"scripted-1\": {\"name\": \"Scripted 1\", \"tool_call\": true}}}}"
CONFIG="{\"provider\": $PROVIDER, \"model\": \"scripted/scripted-1\", \"permission\": {\"bash\": \"ask\", \"question\": \"allow\"}}"

if [ "$VENDOR" = pi ]; then
  mkdir -p "$W/pi-agent"
  echo "{\"providers\": {\"scripted\": {\"baseUrl\": \"$MODEL/v1\", \"api\": \"openai-completions\", \"apiKey\": \"none\", \"models\": [{\"id\": \"scripted-1\"}]}}}" >"$W/pi-agent/models.json"
  (cd "$P" && PI_CODING_AGENT_DIR="$W/pi-agent" timeout 90 node "$BIN" --offline --no-extensions -e "$ROOT/impl/adapter-pi/pi-extension.js" \
    --provider scripted --model scripted-1 --mode json -p "say hi" >"$W/vendor.out" 2>"$W/vendor.err") || echo "smoke: pi exited $?"
else
  if [ "$VENDOR" = opencode ]; then mkdir -p "$P/.opencode/plugins"; cp "$ROOT/impl/adapter-opencode/opencode-plugin.js" "$P/.opencode/plugins/"; echo "$CONFIG" >"$P/opencode.json"
  else mkdir -p "$P/.kilo/plugin"; cp "$ROOT/impl/adapter-kilocode/kilocode-plugin.js" "$P/.kilo/plugin/"; echo "$CONFIG" >"$P/kilo.json"; fi
  (cd "$P" && exec "$BIN" serve --port 0 --print-logs >"$W/vendor.out" 2>"$W/vendor.err") & PIDS+=($!)
  SERVER=$(url_in "$W/vendor.out" "$W/vendor.err")
  SID=$(curl -s -X POST "$SERVER/session" -H 'content-type: application/json' -d '{}' | node -e 'let s="";process.stdin.on("data",(c)=>s+=c).on("end",()=>console.log(JSON.parse(s).id))')
  curl -s -m 90 -X POST "$SERVER/session/$SID/message" -H 'content-type: application/json' -d '{"parts":[{"type":"text","text":"say hi"}]}' >/dev/null
  sleep 2
fi
sleep 1
echo "--- operator"; cat "$W/answerer.log"
echo "--- what the model got back"; grep TOOL-RESULT "$W/model.log" || echo "(no tool result)"
OK=1
for LOG in "$W"/aep/logs/"$VENDOR"/*.jsonl; do
  [ -f "$LOG" ] || { echo "smoke: no AEP session log"; exit 1; }
  echo "--- AEP session $(basename "$LOG" .jsonl) (machinery x.$VENDOR.* debug events not shown)"
  node -e 'for (const l of require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean)) { const e = JSON.parse(l); if (e.severity === "debug") continue; console.log(`${e.type} ${JSON.stringify(e.data ?? {}).slice(0, 140)}`); }' "$LOG"
  $AEP validate "$LOG" || OK=0
  grep -q '"type":"attention.answered"' "$LOG" || { echo "smoke: no attention.answered in the session"; OK=0; }
done
[ "$OK" = 1 ] && echo "smoke: $VENDOR OK" || { echo "smoke: $VENDOR FAILED"; exit 1; }
