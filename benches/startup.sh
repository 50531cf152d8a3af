#!/usr/bin/env bash
# Measures the real binary in tmux against the scripted provider (echo mode):
# process start → first frame, RSS after a few turns, CPU while idle for 10 s, and the
# wall time and peak RSS of a one-shot headless turn with three tool round-trips.
# Usage: benches/startup.sh   (builds release binaries first; needs tmux)
#        WITH_MCP=1 benches/startup.sh   also configures the two npm MCP test servers
#        (tests/mcp/node_modules, installed by scripts/test.sh) as stdio servers.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin hermes --example scripted_provider
BIN=$PWD/target/release/hermes
SERVER=$PWD/target/release/examples/scripted_provider
WORK=$(mktemp -d)
trap 'tmux kill-session -t hermes-bench 2>/dev/null || true; kill $SERVER_PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
mkdir -p "$WORK/home" "$WORK/work"
"$SERVER" --echo --port-file "$WORK/port" > "$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do [ -s "$WORK/port" ] && break; sleep 0.1; done
PORT=$(cat "$WORK/port")
printf 'model:\n  provider: custom\n  base_url: http://127.0.0.1:%s/v1\n  default: echo\n' "$PORT" > "$WORK/home/config.yaml"
if [ -n "${WITH_MCP:-}" ]; then
  MODULES=$PWD/tests/mcp/node_modules/.bin
  printf 'mcp_servers:\n  files:\n    command: %s\n    args: [%s]\n  everything:\n    command: %s\n' \
    "$MODULES/mcp-server-filesystem" "$WORK/work" "$MODULES/mcp-server-everything" >> "$WORK/home/config.yaml"
fi

first_frames=()
for run in 1 2 3 4 5; do
  rm -f "$WORK/home/logs/"hermes*.log
  tmux new-session -d -s hermes-bench -x 200 -y 60 -c "$WORK/work" "HERMES_HOME=$WORK/home $BIN; sleep 30"
  for _ in $(seq 100); do
    grep -qh "first frame drawn" "$WORK/home/logs/"hermes*.log 2>/dev/null && break; sleep 0.05
  done
  ms=$(grep -h "first frame drawn" "$WORK/home/logs/"hermes*.log | sed -E 's/.*ms=([0-9.]+).*/\1/' | head -1)
  first_frames+=("$ms")
  if [ "$run" -lt 5 ]; then tmux kill-session -t hermes-bench; sleep 0.2; fi
done
echo "process start → first frame (ms), 5 runs: ${first_frames[*]}"

PID=$(pgrep -n -f "^$BIN$" || pgrep -n -x hermes)
for i in 1 2 3; do
  tmux send-keys -t hermes-bench -l "message number $i with some words"; tmux send-keys -t hermes-bench Enter
  sleep 0.5
done
sleep 1
echo "RSS after 3 turns: $(grep VmRSS /proc/$PID/status | awk '{print $2/1024 " MB"}'), peak $(grep VmHWM /proc/$PID/status | awk '{print $2/1024 " MB"}')"

ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
HZ=$(getconf CLK_TCK)
before=$(ticks); sleep 10; after=$(ticks)
echo "CPU while idle for 10 s: $(( after - before )) ticks of 1/$HZ s ($(awk -v t=$(( after - before )) -v hz="$HZ" 'BEGIN{printf "%.2f", 100*t/hz/10}') %)"
tmux kill-session -t hermes-bench

kill $SERVER_PID
"$SERVER" --script tests/fixtures/scripts/three_tools.json --port-file "$WORK/port3" > "$WORK/server3.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do [ -s "$WORK/port3" ] && break; sleep 0.1; done
( cd "$WORK/work" && /usr/bin/time -o "$WORK/time.txt" -f "one-shot with 3 tool round-trips: %e s wall, %M KB peak RSS" \
    env HERMES_HOME="$WORK/home" "$BIN" --yolo --base-url "http://127.0.0.1:$(cat "$WORK/port3")/v1" -z "write three notes" >/dev/null 2>"$WORK/oneshot.err" )
cat "$WORK/time.txt"
