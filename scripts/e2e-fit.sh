#!/usr/bin/env bash
# End to end: every dialog fits a short terminal. The real binary with the
# demo agent in tmux at 80x24 and at 60x16: a form (/form defaults), the
# URL consent (/url) and the settings (Ctrl+O) each keep their title, who
# asks and their key line on screen; the form keeps the focused field in
# view as it moves down and its review reaches the last answer.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup

# all_on_screen WHAT TEXT...: every TEXT (fixed strings) comes on the
# screen at once, and the screen is no taller than the terminal.
all_on_screen() {
	local what="$1" s
	shift
	poll "$what at ${W}x$H: $(printf '"%s" ' "$@")together" all_on "$@"
	s="$(screen)"
	[ "$(wc -l <<<"$s")" -le "$H" ] || fail "$what at ${W}x$H: taller than the terminal"
}

# turn_over: the agent answered every prompt sent (in the trace), and the
# status bar says ready.
turn_over() {
	turns_over && screen_tail 1 | grep -qF "· ready"
}

for size in 80x24 60x16; do
	W="${size%x*}" H="${size#*x}"
	t kill-server 2>/dev/null || true
	# A server of its own per size: a new one on a socket whose server is
	# still going away can die at birth ("server exited unexpectedly").
	E2E_SOCK="elicit-e2e-$$-$size"
	cmd="$(printf '%q ' "$bin" --cwd "$work" --log "$log")"
	t new-session -d -s e2e -x "$W" -y "$H" "$cmd; echo \"[elicit exited \$?]\"; exec sleep 3600"
	wait_for "ready"

	# A form: who asks, the title and the keys, for every field.
	type_text "/form defaults"
	keys Enter
	wait_for "Demo agent asks"
	focus_question
	all_on_screen "the form" "Demo agent asks" "Profile" "› Name" "decline"
	for f in Age Score Status Verified; do
		keys Tab
		wait_for "› $f"
		all_on_screen "the form at $f" "Demo agent asks" "Profile" "› $f" "decline"
	done
	keys Enter
	wait_for "Review your answers"
	for _ in 1 2 3 4 5 6; do keys Down; done
	wait_for 'Verified: true'
	all_on_screen "the review" "Demo agent asks" "Profile" "enter send"
	keys Enter
	wait_for '"action": "accept"'
	poll "end of the turn" turn_over
	passed_check "$size: the form and its review fit"

	# The URL consent: title, who asks, the URL and its site, the buttons
	# and the keys; the warnings scroll to the last.
	type_text "/url"
	keys Enter
	wait_for "Open a link?"
	focus_question
	all_on_screen "the URL consent" "Open a link?" "Agent: Demo agent" "URL     http://127.0.0.1:" "Site    127.0.0.1" "Open in browser" "esc cancel"
	keys End
	wait_for "nonstandard_port"
	all_on_screen "the URL consent at its end" "Open a link?" "Agent: Demo agent" "Open in browser" "esc cancel"
	keys Escape
	wait_for "never completes"
	focus_question
	all_on_screen "the second URL consent" "Open a link?" "Agent: Demo agent" "Open in browser" "esc cancel"
	keys Escape
	wait_gone "Open a link?"
	poll "end of the turn" turn_over
	passed_check "$size: the URL consent fits"

	# The settings: title, who asks, the cursor's row and the keys.
	keys C-o
	wait_for "Session settings"
	all_on_screen "the settings" "Session settings · elicit" "> 1 mode" "esc dismiss"
	for _ in 1 2 3 4; do keys Down; done
	wait_for "> 5 pause questions"
	all_on_screen "the settings at the last" "Session settings · elicit" "esc dismiss"
	keys Escape
	wait_gone "Session settings"
	passed_check "$size: the settings fit"
done
echo "e2e-fit: $passed checks passed"
