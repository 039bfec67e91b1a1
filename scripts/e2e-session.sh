#!/usr/bin/env bash
# End to end: the real binary with the demo agent in tmux. Type a prompt
# and keep typing while its permission comes up: the question docks under
# the prompt, the keys and an Enter stay with the prompt; once it takes the
# keys, the reject option is selected and 1 then Enter allows once. Alt+T
# shows the thought; Ctrl+C cancels a turn; on an idle prompt Ctrl+C needs
# a second press to clear a draft (↑ brings it back); F1 shows the keys;
# Ctrl+O pauses questions (a form is cancelled unasked) and resumes them;
# the agent-stopped dialog docks while typing, Ctrl+C does not quit past
# it, "look first" is selected, Ctrl+C closes it once focused, Ctrl+R
# restarts; a second Ctrl+C after the window closed (its hint gone) does
# not quit, two within the window do, and the terminal is restored.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup
long_typing_window # prose is typed while questions come up

start_elicit "$bin" --cwd "$work" --log "$log"
wait_for "ready"
wait_for "connected to Demo agent"

# 1. A permission that comes up while the user types docks; typed keys
# and Enter go to the prompt.
type_text "hello from tmux"
keys Enter
type_until_docked "and more "
keys 1 Enter
{ grep -qF "Demo agent asks a permission question" <<<"$dock_line" && grep -qF "for Add a note to NOTES.md" <<<"$dock_line"; } || fail "dock line: $dock_line"
wait_for "a question is waiting"
[ "$(grep -cF '"method":"session/prompt"' "$log")" = 1 ] || fail "Enter sent a prompt past a docked question"
perm="$(request_ids session/request_permission | tail -1)"
[ -z "$(response_to "$perm")" ] || fail "the permission was answered while docked: $(response_to "$perm")"
want="${typed}1"
passed_check "a permission docks while typing: '$want' and Enter go to the prompt, nothing is sent or answered"

focus_question
wait_for "Add a note to NOTES.md"
on_screen "> 3 Reject once" || fail "the reject option is not selected at first"
keys 1
wait_for "> 1 Allow once"
[ -z "$(response_to "$perm")" ] || fail "1 alone answered the permission"
keys Enter
wait_for "you allowed the edit once"
wait_log "-> {\"jsonrpc\":\"2.0\",\"id\":$perm,\"result\":{\"outcome\":{\"optionId\":\"allow-once\",\"outcome\":\"selected\"}}}"
wait_for "· ready"
[ "$(prompt_squeezed)" = "${want// /}" ] || fail "the prompt lost what was typed: '$(prompt_squeezed)'"
passed_check "focused: reject selected at first, 1 then Enter allows once; the prompt kept its text"
keys C-u

# 2. Alt+T shows the folded thought, and folds it again (it is at the top
# of the turn: scroll up to it; End comes back).
keys PageUp
wait_for "(end returns)"
wait_for "▸ thought ("
keys M-t
wait_for "▾ thought"
wait_for "The user wrote something."
keys M-t
wait_gone "The user wrote something."
wait_for "▸ thought ("
keys End
wait_gone "(end returns)"
passed_check "alt+t shows and folds the thought"

# 3. Ctrl+C cancels a running turn.
type_text "/slow"
keys Enter
wait_for "working"
keys C-c
wait_for "turn cancelled"
wait_for "· ready"
grep -q '"method":"session/cancel"' "$log" || fail "no session/cancel in the trace"
passed_check "Ctrl+C cancelled the turn"

# 4. On an idle prompt with a draft, Ctrl+C asks for a second press, which
# clears the draft; ↑ brings it back. (The Ctrl+C that cancelled the turn
# armed nothing.)
type_text "a draft to keep"
keys C-c
wait_for "ctrl+c again clears the prompt"
[ "$(prompt_squeezed)" = "adrafttokeep" ] || fail "one ctrl+c changed the draft: '$(prompt_squeezed)'"
# The second press clears it. A third follows at once: the second may
# come after elicit's 1.5 s window (this saw the first press late, on a
# loaded machine) and arm again, and then the third clears; after a
# clear, a press only arms quitting, which ↑ disarms.
keys C-c C-c
wait_for "prompt cleared (↑ brings it back)"
[ -z "$(prompt_squeezed)" ] || fail "the draft is still there: '$(prompt_squeezed)'"
keys Up
wait_for "› a draft to keep"
keys C-u
on_screen "[elicit exited" && fail "ctrl+c twice with a draft quit"
passed_check "ctrl+c twice clears a draft (kept in history), does not quit"

# 5. F1 shows the keys screen.
keys F1
wait_for "Keys"
wait_for "answer the waiting question"
keys Escape
wait_gone "answer the waiting question"
passed_check "f1 shows the keys"

# 6. Ctrl+O: pausing questions cancels a form unasked (pausing is "not
# now", never a made-up decline); resuming asks again.
keys C-o
wait_for "Session settings"
pause="$(screen | grep -F "pause questions from this agent" | sed -E 's/^│ *>? *([0-9a-z]) .*/\1/')" || true
[ -n "$pause" ] || fail "no pause entry in the settings"
keys "$pause"
wait_gone "Session settings"
wait_for "questions paused"
type_text "/form defaults"
keys Enter
wait_for "You chose cancel"
wait_for "· ready"
form="$(request_ids elicitation/create | tail -1)"
wait_log "-> {\"jsonrpc\":\"2.0\",\"id\":$form,\"result\":{\"action\":\"cancel\"}}"
keys C-o
wait_for "resume questions from this agent"
resume="$(screen | grep -F "resume questions from this agent" | sed -E 's/^│ *>? *([0-9a-z]) .*/\1/')" || true
keys "$resume"
wait_gone "Session settings"
wait_gone "questions paused"
passed_check "ctrl+o pauses questions (a form is cancelled unasked) and resumes them"

# 7. The agent stops while the user types: the dialog docks; Enter does
# not pick, Ctrl+C twice does not quit; focused, "look first" is selected
# and Ctrl+C closes it as Esc would; Ctrl+R restarts the agent.
type_text "/exit 3"
keys Enter
type_until_docked "still typing "
keys Enter C-c C-c
wait_for "the agent exited"
grep -qF "elicit asks what to do now the agent stopped" <<<"$dock_line" || fail "the dock line does not announce the dialog: $dock_line"
wait_for "a question is waiting: tab answers it; quit once it is answered"
# (Had the second press quit, the dialog below would never take the keys.)
on_screen "[elicit exited" && fail "ctrl+c twice quit past the agent-stopped dialog"
focus_question
wait_for "The agent stopped"
on_screen "> look at the transcript first" || fail "'look at the transcript first' is not selected at first"
keys C-c # on a focused question with no turn: as Esc
wait_gone "The agent stopped"
wait_for "ctrl+r restarts the agent; ctrl+c twice quits"
on_screen "[elicit exited" && fail "ctrl+c on the focused dialog quit"
keys C-u C-r
wait_for "restart the agent with a new session" # the sessions dialog, opened on purpose
keys Enter
wait_for "restarting the agent"
wait_for "· ready"
[ "$(screen | grep -cF "connected to Demo agent")" -ge 1 ] || fail "no new session"
[ "$(grep -cF '"method":"session/new"' "$log")" -ge 2 ] || fail "no second session/new in the trace"
passed_check "the agent-stopped dialog docks while typing, does not quit on ctrl+c; ctrl+r offers a restart"

keys C-c
wait_for "ctrl+c again quits"
# elicit's window for the second press (1.5 s from the first) closes: the
# hint goes when it does.
wait_gone "ctrl+c again quits"
keys C-c
# The late press armed again and quit nothing: a prompt after it is
# answered.
type_text "/help"
keys Enter
wait_for "Demo agent commands"
wait_for "· ready"
on_screen "[elicit exited" && fail "a ctrl+c after the window closed quit"
status="$(quit_elicit)"
[ "$status" = 0 ] || fail "exit status $status"
assert_restored
grep -q 'agent exited' "$log" || fail "no clean shutdown in the trace"
passed_check "quit with Ctrl+C twice, terminal restored, exit 0"
echo "e2e-session: $passed passed, 0 failed"
