#!/usr/bin/env bash
# End to end: Ctrl+Z suspends elicit and `fg` resumes it, under a real
# interactive shell (bash with job control) in tmux: in the full screen at
# the prompt and in a dialog (the terminal restored while stopped, the
# whole screen drawn again after fg, a question the agent asked meanwhile
# announced), and in the accessible session.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup

# start_shell: an interactive bash (job control on) in the tmux session.
start_shell() {
	t kill-session -t e2e 2>/dev/null || true
	t new-session -d -s e2e -x "$E2E_COLS" -y "$E2E_ROWS" \
		"env -i HOME='$work' PATH='$PATH' TERM=xterm-256color XDG_CONFIG_HOME='$XDG_CONFIG_HOME' XDG_STATE_HOME='$XDG_STATE_HOME' XDG_CACHE_HOME='$XDG_CACHE_HOME' PS1='E2E\$ ' bash --norc --noprofile -i"
	t set-option -s exit-empty off # the next size's session reuses the server
	wait_for 'E2E$'
}

# run_in_shell ARGS...: type the elicit command line at the shell prompt,
# followed by the exit status line tmux-lib's exit_status reads, in one
# job (bash drops the rest of a list whose job was stopped and continued).
run_in_shell() {
	local cmd
	cmd="$(printf '%q ' "$bin" "$@")"'; echo "[elicit exited $?]"'
	type_text "bash -c $(printf '%q' "$cmd")"
	keys Enter
}

# run_direct ARGS...: type the elicit command line alone, so that the
# shell's job is elicit itself and the shell sees it stop only once it
# stopped itself. (Under run_in_shell's wrapper the terminal's SIGTSTP also
# stops the wrapping bash, at once: the shell may take the terminal back
# before the accessible session has said it suspends.) exit_direct reads
# its exit status.
run_direct() {
	type_text "$(printf '%q ' "$bin" "$@")"
	keys Enter
}

# exit_direct: after run_direct's elicit ended, the shell's prompt is back;
# print its exit status as exit_status reads it.
exit_direct() {
	poll "shell prompt after elicit ended" fresh_prompt
	type_text 'echo "[elicit exited $?]"'
	keys Enter
	wait_dead
}

# The demo agent, its output copied to agent.out as it writes it: the
# question it asks while elicit is stopped (and reads nothing) shows
# there, a line whole.
cat >"$work/agent.sh" <<EOS
#!/bin/sh
"$bin" __demo-agent | tee -a "$work/agent.out"
EOS

# hold_agent: stop the demo agent (SIGSTOP), so that what it is asked next
# is answered only once release_agent lets it go on: after elicit was
# stopped, however long that took.
hold_agent() {
	: >"$work/agent.out"
	agent="$(pgrep -n -f -- "$bin __demo-agent")" || fail "no demo agent runs"
	kill -STOP "$agent"
}

# asked: the agent wrote its permission question.
asked() { grep -qF '"method":"session/request_permission"' "$work/agent.out"; }

# release_agent: let the agent go on, and wait until it asked (elicit,
# stopped, reads the question after fg).
release_agent() {
	kill -CONT "$agent"
	poll "the agent's question while elicit is stopped" asked
}

# fresh_prompt: the shell's last line is its prompt with nothing typed
# after it: the shell has the terminal again. (A "Stopped" line alone may
# be an earlier stop's, on the normal screen that elicit leaves before it
# stops; the prompt under it then holds the "fg" typed since.)
fresh_prompt() {
	local s
	s="$(screen)"
	[ "$(grep -v '^[[:space:]]*$' <<<"$s" | tail -n 1 | sed 's/[[:space:]]*$//')" = 'E2E$' ]
}

# stopped: the shell took the terminal back, elicit stopped as a job.
stopped() {
	poll "shell prompt after the stop" fresh_prompt
	on_screen "Stopped" || fail "the shell does not say elicit stopped"
	[ "$(pane '#{alternate_on}')" = 0 ] || fail "still on the alternate screen while stopped"
	[ "$(pane '#{cursor_flag}')" = 1 ] || fail "the cursor is hidden while stopped"
}

for size in 120x40 80x24; do
	E2E_COLS="${size%x*}" E2E_ROWS="${size#*x}"
	start_shell
	log="$work/trace-$size.log"
	run_in_shell --no-history --log "$log" --cwd "$work" -- sh "$work/agent.sh"
	wait_for "ready"

	# At the prompt: the agent asks while elicit is stopped.
	hold_agent
	type_text "/later 1"
	keys Enter
	wait_log '"text":"/later 1"' # on its way to the agent
	keys C-z
	stopped
	release_agent
	type_text "fg"
	keys Enter
	wait_for "Allow once" # the question asked meanwhile, up at once
	[ "$(pane '#{alternate_on}')" = 1 ] || fail "fg did not bring the full screen back"
	on_screen "Stopped" && fail "fg left the shell's lines on screen (no full redraw)"
	on_screen "Demo agent 0.1" || fail "no status bar after fg"

	# In a dialog: the question survives the stop.
	focus_question
	keys C-z
	stopped
	type_text "fg"
	keys Enter
	wait_for "Allow once"
	focus_question
	keys 1 Enter
	wait_for "you allowed the edit"
	wait_for "asked a permission question while elicit was suspended"
	wait_for "resumed; a question waits for you"
	passed_check "$size: Ctrl+Z at the prompt and in a dialog stops elicit with the terminal restored; fg redraws the whole screen, the dialog answers, and the question asked meanwhile is announced"

	quit_elicit >/dev/null
	assert_restored || fail "the terminal is not restored after quitting"
done

# The accessible session: SIGTSTP from the terminal's own Ctrl+Z.
E2E_COLS=100 E2E_ROWS=30
start_shell
log="$work/trace-accessible.log"
run_direct --accessible --no-history --log "$log" --cwd "$work" -- sh "$work/agent.sh"
wait_for "Connected to"
hold_agent
type_text "/later 1"
keys Enter
wait_log '"text":"/later 1"'
keys C-z
wait_for "Suspended; fg resumes elicit"
poll "shell prompt after the stop" fresh_prompt
on_screen "Stopped" || fail "the shell does not say elicit stopped"
release_agent
type_text "fg"
keys Enter
wait_for "While elicit was suspended, the agent asked this:"
# A line typed before the question is asked counts as typed ahead: type
# once its own prompt is up.
wait_for "Type an option's number or name"
type_text "1"
keys Enter
wait_for "you allowed the edit"
passed_check "accessible session: Ctrl+Z says it suspends, fg says so, and the question asked meanwhile is announced"
keys C-d
[ "$(exit_direct)" = 0 ] || fail "the accessible session did not end with Ctrl+D"

echo "e2e-suspend: $passed checks passed"
