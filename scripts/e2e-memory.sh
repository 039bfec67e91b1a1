#!/usr/bin/env bash
# End to end: a hook from the config file answers a form before anyone
# sees it, and the history brings back last time's answers, marked, as a
# person would meet them in the full screen.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup

# ready: the status bar says the turn is over.
ready() { screen_tail 1 | grep -qF "· ready"; }

# wait_ready: wait until the status bar says the turn is over.
wait_ready() { poll "end of the turn" ready; }

# A hook that answers the numbers form, as Claude Code's Elicitation hook
# contract has it; every other question passes to the user.
mkdir -p "$XDG_CONFIG_HOME/elicit"
cat >"$work/hook.sh" <<'EOF2'
#!/bin/sh
input=$(cat)
case "$input" in
*'"quantity"'*) echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"quantity":3,"rating":2}}}' ;;
esac
EOF2
chmod +x "$work/hook.sh"
cat >"$XDG_CONFIG_HOME/elicit/config.toml" <<EOF2
[[hooks]]
event = "Elicitation"
command = ["$work/hook.sh"]
EOF2

start_elicit "$bin" --log "$log" --cwd "$work" --audit "$work/audit.jsonl"
wait_ready
type_text "/form numbers"
keys Enter
wait_log '"action":"accept","content":{"quantity":3,"rating":2}'
wait_for "(hook)"
on_screen "Quantity *" && fail "the form was shown although the hook answered it"
# The audit log is written in the background: wait for its line.
poll "hook's answer in the audit log" grep -qF '"answered_by":"hook"' "$work/audit.jsonl"
passed_check "a hook answers a form before the screen; the transcript and the audit log say so"

# The history: answer the defaults form, then ask it again (once the
# numbers turn is over: the agent still reports after the hook's answer).
wait_ready
type_text "/form defaults"
keys Enter
focus_question
keys C-u
type_text "Grace Hopper"
keys Enter Enter Enter Enter Enter # name, age, score, status, verified
wait_for "Review your answers"
keys Enter
wait_log '"name":"Grace Hopper"'
wait_ready
type_text "/form defaults"
keys Enter
focus_question
wait_for "answers from last time"
wait_for "↺ from last time"
on_screen "Grace Hopper" || fail "last time's answer is not prefilled"
keys Escape
wait_ready
passed_check "the same form again starts from last time's answers, marked"

quit_elicit
"$bin" history >"$work/history.txt"
grep -q "demo" "$work/history.txt" || fail "elicit history does not list the demo agent: $(cat "$work/history.txt")"
passed_check "elicit history lists what is remembered"
echo "e2e-memory: $passed checks passed"
