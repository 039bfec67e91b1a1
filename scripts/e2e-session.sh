#!/usr/bin/env bash
# End to end: the real binary with the demo agent in tmux. Type a prompt,
# answer the permission with a key, see the reply, cancel a turn with
# Ctrl+C, quit, and check the terminal was restored.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup

start_elicit "$bin" --cwd "$work" --log "$log"
wait_for "ready"
wait_for "connected to Demo agent"

type_text "hello from tmux"
keys Enter
wait_for "Permission"
wait_for "Add a note to NOTES.md"
sleep 0.5 # the modal ignores keys for its first 400 ms
keys 1
wait_for "you allowed the edit once"
wait_for "ready"
passed_check "prompt, permission, reply"

type_text "/slow"
keys Enter
wait_for "working"
keys C-c
wait_for "turn cancelled"
wait_for "ready"
passed_check "Ctrl+C cancelled the turn"

keys C-c
status="$(wait_dead)"
[ "$status" = 0 ] || { echo "FAIL: exit status $status" >&2; exit 1; }
assert_restored
grep -q '"method":"session/cancel"' "$log" || { echo "FAIL: no session/cancel in the trace" >&2; exit 1; }
grep -q 'agent exited' "$log" || { echo "FAIL: no clean shutdown in the trace" >&2; exit 1; }
passed_check "quit with Ctrl+C, terminal restored, exit 0"
echo "e2e-session: $passed passed, 0 failed"
