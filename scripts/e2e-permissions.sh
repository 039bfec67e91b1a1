#!/usr/bin/env bash
# End to end (issue 33): "always allow here", then the next run allowing by
# rule. The hostile agent's "npm-test" scenario asks permission for
# `npm test` in claude-agent-acp's shape (options allow_once, allow_always,
# reject_once) and prints the outcome. Checked: the full screen offers
# "Always allow here: Bash(npm test:*)" after the agent's options; choosing
# it answers with the agent's allow_once option (never its always one),
# keeps the rule in this directory's rules file beside the config file, and
# says where; the next run (the full screen, then -p without --approve)
# allows npm test by that rule without asking, saying which rule did;
# /permissions lists it and removes it, and -p refuses npm test again.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup
agent="$(dirname "$bin")/hostile-agent" # test furniture, not in elicit
go build -o "$agent" ./internal/hostile/cmd/hostile-agent
run=(env ELICIT_HOSTILE_SCENARIO=npm-test "$bin" --cwd "$work" --log "$log" --no-history -- "$agent")

# The first run: the person chooses "always allow here".
start_elicit "${run[@]}"
wait_for "session in"
type_text "go"
keys Enter
focus_question
wait_for "4 Always allow here: Bash(npm test:*)"
on_screen "1 Yes" || fail "the agent's options are not offered first"
passed_check "a permission offers 'always allow here' with the narrowest rule, after the agent's options"
keys 4 Enter
wait_for "npm test: chose allow"
wait_log '"outcome":{"optionId":"allow","outcome":"selected"}'
grep -qF '"optionId":"always"' "$log" && fail "the agent's always option was chosen"
wait_for "always allowed here: Bash(npm test:*)"
kept="$(ls "$XDG_CONFIG_HOME"/elicit/projects/*.toml)"
grep -qF "Bash(npm test:*)" "$kept" || fail "the rule is not in $kept"
grep -qF "dir = '$(cd "$work" && pwd -P)'" "$kept" || fail "$kept does not name the directory: $(cat "$kept")"
[ "$(stat -c %a "$kept")" = 600 ] || fail "$kept has mode $(stat -c %a "$kept")"
passed_check "the agent got allow_once; the rule went to $(basename "$kept"), and the transcript says so"
quit_elicit >/dev/null

# The next run, in the full screen: allowed by the rule, nobody asked.
t kill-server 2>/dev/null || true
E2E_SOCK="elicit-e2e-$$-2"
: >"$log"
start_elicit "${run[@]}"
wait_for "session in"
type_text "go"
keys Enter
wait_for "npm test: chose allow"
wait_for "(allowed by Bash(npm test:*) in $(basename "$kept"))"
on_screen "Always allow here" && fail "the permission was asked again"
passed_check "the next run allows npm test by the rule, without asking, and names the rule"

# And with -p, without --approve.
out="$(ELICIT_HOSTILE_SCENARIO=npm-test "$bin" --cwd "$work" --no-history -p go -- "$agent" 2>"$work/p.err")" ||
	fail "-p failed: $(cat "$work/p.err")"
grep -qF "npm test: chose allow" <<<"$out" || fail "-p: $out"
grep -qF "permission for npm test: Yes (allowed by Bash(npm test:*) in $(basename "$kept"))" "$work/p.err" || fail "-p stderr: $(cat "$work/p.err")"
passed_check "-p allows it by the rule too, and says so on stderr"

# /permissions lists it and removes it.
type_text "/permissions"
keys Enter
wait_for "1. allow Bash(npm test:*)"
type_text "/permissions remove 1"
keys Enter
wait_for "removed Bash(npm test:*)"
grep -qF "npm test" "$kept" && fail "the rule is still in $kept"
quit_elicit >/dev/null
out="$(ELICIT_HOSTILE_SCENARIO=npm-test "$bin" --cwd "$work" --no-history -p go -- "$agent" 2>/dev/null)" || true
grep -qF "npm test: chose reject" <<<"$out" || fail "-p after /permissions remove: $out"
passed_check "/permissions lists the rule and removes it; -p refuses npm test again"
echo "e2e-permissions: $passed checks passed"
