#!/usr/bin/env bash
# End to end: type-ahead never answers a question. At 120x40, 80x24 and
# 60x16, prose is typed one key every 60 to 150 ms (at random), Enter
# presses included, while the demo agent's questions come up: /all (a
# form, a URL consent and a permission at once), /risky (a look-alike URL,
# google.com@evil.example, and a permission to run rm -rf ~) and /exit
# (the agent-stopped dialog). The prose is full of keys that would answer
# a question that took them: o, y, 1, d, c, space, Enter. Checked each
# time, from the --log protocol trace and the stand-in browsers: no
# response went to any of the agent's requests while typing, nothing was
# opened, no prompt was sent; the questions docked under the prompt; the
# prompt holds every character typed (read off the screen, then sent and
# read from the trace, exactly). Then each question is cancelled by hand
# (Tab or a pause, then Esc): nothing was granted, accepted or opened.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup
long_typing_window # prose is typed while questions come up
opened="$work/opened"

# The stand-in browsers: xdg-open on PATH and $BROWSER both record the URL
# they were asked to open, and succeed.
mkdir -p "$work/fakebin"
cat >"$work/fakebin/xdg-open" <<EOS
#!/bin/sh
printf '%s\n' "\$1" >>'$opened'
exit 0
EOS
chmod +x "$work/fakebin/xdg-open"
cp "$work/fakebin/xdg-open" "$work/fakebin/browser"

# since LINE: the trace after its first LINE lines.
since() { tail -n +"$(($1 + 1))" "$log"; }

# round_requests LINE: the ids of the questions the agent asked after
# trace line LINE (elicitation/create and session/request_permission).
round_requests() {
	since "$1" | { grep -E '<- \{"jsonrpc":"2.0","id":[0-9]+,"method":"(elicitation/create|session/request_permission)"' || true; } |
		sed -E 's/^.*<- \{"jsonrpc":"2.0","id":([0-9]+),"method".*/\1/'
}

# nothing_answered LINE: no question asked after LINE has a response, no
# prompt but the command was sent and nothing was opened.
nothing_answered() {
	local id
	for id in $(round_requests "$1"); do
		[ -z "$(response_to "$id")" ] || fail "typing: request $id was answered"
	done
	[ ! -s "$opened" ] || fail "the browser was asked to open: $(cat "$opened")"
	[ "$(since "$1" | grep -cF '"method":"session/prompt"')" = 1 ] || fail "an Enter in the prose sent a prompt (only the command may be)"
}

# waiting_count: how many questions the status bar says wait (0: none).
waiting_count() {
	local n
	n="$(screen_tail 1 | grep -oE '[0-9]+ questions?' | grep -oE '^[0-9]+')" || true
	echo "${n:-0}"
}

# fewer_than N: fewer than N questions wait.
fewer_than() { (($(waiting_count) < $1)); }

# cancelled_or_asking N: fewer than N questions wait, or the front form
# asks before it discards what it holds.
cancelled_or_asking() { fewer_than "$1" || on_screen "Discard what you typed and cancel?"; }

# cancel_questions: take each waiting question in turn and cancel it with
# Esc (a form that holds something asks first: y).
cancel_questions() {
	local n
	while n="$(waiting_count)" && ((n > 0)); do
		focus_question
		keys Escape
		poll "the question cancelled" cancelled_or_asking "$n"
		if ! fewer_than "$n"; then
			keys y
			poll "the question cancelled" fewer_than "$n"
		fi
	done
}

# round COMMAND N PROSE: send COMMAND, type until its first question docks,
# then type PROSE slowly; N questions must come. Checks that none was
# answered and the prompt holds every character typed, cancels them,
# checks their answers, then sends the prompt and checks its exact text.
round() {
	local cmd="$1" n="$2" prose="$3" start id got want resp
	start="$(wc -l <"$log")"
	type_text "$cmd"
	keys Enter
	type_until_docked "so "
	type_slowly "$prose"
	typed+="$prose"
	nothing_answered "$start"
	got="$(round_requests "$start" | wc -l)"
	[ "$got" = "$n" ] || fail "$cmd: $got questions came while typing, want $n"
	passed_check "$size $cmd: $n questions docked while typing $(printf '%q' "$typed"); nothing answered, opened or sent"

	cancel_questions
	wait_for "· ready"
	for id in $(round_requests "$start"); do
		resp="$(response_to "$id")"
		case "$resp" in
		*'"result":{"action":"cancel"}}' | *'"result":{"outcome":{"outcome":"cancelled"}}}') ;;
		*) fail "request $id answered '$resp', want cancel" ;;
		esac
	done
	[ ! -s "$opened" ] || fail "the browser was asked to open: $(cat "$opened")"
	want="${typed//$'\n'/}"
	got="$(prompt_squeezed)"
	[ "$got" = "${want// /}" ] || fail "the prompt holds '$got', want '${want// /}' (spaces aside)"

	keys Enter
	wait_log "\"text\":\"$want\""
	[ "$(since "$start" | grep -cF '"method":"session/prompt"')" = 2 ] || fail "more than one prompt sent"
	# The turn runs: "working" until its permission comes (half a second
	# of the demo's steps, which a loaded machine's poll can miss), then
	# "⏸ waiting"; Ctrl+C cancels it either way.
	poll "the turn running in the status bar" turn_shown
	keys C-c
	wait_for "· ready"
	passed_check "$size $cmd: each question cancelled by hand; the prompt kept and sent exactly what was typed"
}

# turn_shown: the status bar says a turn runs.
turn_shown() { screen_tail 1 | grep -qE 'working|⏸ waiting'; }

# size_checks: the rounds and the agent-stopped dialog at one size, in a
# new session.
size_checks() {
	: >"$log"
	typed=""
	start_elicit env PATH="$work/fakebin:$PATH" BROWSER="$work/fakebin/browser" "$bin" --cwd "$work" --log "$log"
	wait_for "connected to Demo agent"
	wait_for "· ready"

	round /all 3 $'that is really annoying now\ntell me about the 1st item open yes y o 1\n d c ok\n'
	round /risky 2 $'no really open it y 1 yes\n\ndelete it 2 c o\n'

	# The agent stops while the user types: the dialog docks; Enter does not
	# pick (neither restart nor quit).
	start="$(wc -l <"$log")"
	type_text "/exit 3"
	keys Enter
	type_until_docked "so "
	type_slowly $'restart it 1 y\n and quit\n q\n'
	wait_for "the agent exited"
	[ "$(since "$start" | grep -cF '"method":"session/new"')" = 0 ] || fail "typing restarted the agent"
	off_screen "[elicit exited" || fail "typing quit elicit"
	typed+=$'restart it 1 y\n and quit\n q\n'
	passed_check "$size the agent-stopped dialog docked while typing; nothing restarted or quit"

	# Take it with Tab (look at the transcript first is selected): the prompt kept
	# every character; then quit with Ctrl+C twice (the first pair clears
	# the draft).
	focus_question
	wait_for "> look at the transcript first"
	keys Enter
	wait_gone "> look at the transcript first"
	want="${typed//$'\n'/}"
	got="$(prompt_squeezed)"
	[ "$got" = "${want// /}" ] || fail "the prompt holds '$got', want '${want// /}' (spaces aside)"
	keys C-u
	status="$(quit_elicit)"
	[ "$status" = 0 ] || fail "exit status $status"
	assert_restored
	[ ! -s "$opened" ] || fail "the browser was asked to open: $(cat "$opened")"
	grep -qE -- '-> .*"result":\{"outcome":\{"optionId":"allow' "$log" && fail "a permission was granted"
	passed_check "$size the prompt kept what was typed past the dialog; quit, terminal restored; nothing granted or opened"
	cp "$log" "$work/trace-$size.log"
}

for size in 120x40 80x24 60x16; do
	E2E_COLS="${size%x*}" E2E_ROWS="${size#*x}"
	size_checks
	t kill-session -t e2e
done
echo "e2e-typeahead: $passed passed, 0 failed"
