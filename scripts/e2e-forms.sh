#!/usr/bin/env bash
# End to end: the real binary with the demo agent in tmux. Fill the demo's
# forms with the keyboard alone and check what the agent received, twice:
# in the reply text (the agent shows the JSON it got) and in the --log
# protocol trace (the exact elicitation/create response the client sent).
# Covers: defaults accepted as they are; typing, a validation error fixed,
# a select, a multi-select toggled with space, the review and a step back;
# the "Other" shape; decline (ctrl+x); ctrl+d deletes forward in text; ctrl+x
# and Esc with typed data ask first. A form that comes up while the user
# types docks under the prompt and keeps nothing of what was typed. Then
# -p: a form is cancelled (never declined) unless --accept-defaults or --answers; --timeout
# ends the run with 124.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup
long_typing_window # prose is typed while questions come up

# last_request_id: the JSON-RPC id of the newest elicitation/create the
# agent sent.
last_request_id() {
	grep -F '<- {"jsonrpc":"2.0","id":' "$log" | grep -F '"method":"elicitation/create"' | tail -1 |
		sed -E 's/.*"id":([0-9]+),"method".*/\1/'
}

# asked_since ID: the trace holds an elicitation/create newer than ID.
asked_since() { [ "$(last_request_id || true)" != "$1" ]; }

# ask_form NAME TEXT: run "/form NAME", wait for the form (TEXT is on it)
# and for it to take the keys. Sets req to its request id.
ask_form() {
	local before
	before="$(last_request_id || true)"
	type_text "/form $1"
	keys Enter
	poll "elicitation/create for /form $1 in the trace" asked_since "$before"
	req="$(last_request_id)"
	focus_question # (typed a moment ago: it docks, and Tab takes it)
	wait_for "$2"
}

# expect_response ACTION [KEY=JSON]...: the client's response to request
# $req has that action and, for accept, a content object with exactly those
# keys and those JSON values (typed: 30 is not "30").
expect_response() {
	local action="$1" line content want got
	shift
	wait_log "-> {\"jsonrpc\":\"2.0\",\"id\":$req,\"result\":"
	line="$(response_to "$req")"
	line="${line#*\"result\":}"
	case "$line" in
	"{\"action\":\"$action\""*) ;;
	*) fail "response to request $req: want action $action, got $line" ;;
	esac
	if [ "$action" != accept ]; then
		[ "$line" = "{\"action\":\"$action\"}}" ] || fail "response to request $req carries more than the action: $line"
		return 0
	fi
	content="${line#*\"content\":}"
	content="${content%\}\}}"
	for kv in "$@"; do
		want="\"${kv%%=*}\":${kv#*=}"
		case "$content" in
		*"$want"[,}]*) ;;
		*) fail "response to request $req: want $want in $content" ;;
		esac
	done
	got="$({ grep -oE '"[A-Za-z0-9_]+":' <<<"$content" || true; } | wc -l)"
	[ "$got" -eq "$#" ] || fail "response to request $req: want $# keys, got $got in $content"
}

start_elicit "$bin" --cwd "$work" --log "$log"
wait_for "connected to Demo agent"
wait_for "· ready"

# 1. The defaults form, accepted as it is: Enter through every field, then
# Enter on the review.
ask_form defaults "Check your profile"
wait_for "John Doe"
for _ in 1 2 3 4 5; do keys Enter; done
wait_for "Review your answers"
wait_for "Verified: true"
keys Enter
wait_for "### 1. defaults"
wait_for "You chose accept"
wait_for '"verified": true'
wait_for '"age": 30,'
wait_for '"score": 95.5,'
expect_response accept age=30 name='"John Doe"' score=95.5 status='"active"' verified=true
wait_for "· ready"
passed_check "defaults accepted as they are (age 30, score 95.5, verified true)"

# 2. The defaults form edited: retype the name (ctrl+d deleting a typo
# forward), enter an age out of range,
# see the error, fix it, pick another status, review, step back once with
# Shift+Tab to untick "verified", review again and submit.
ask_form defaults "Check your profile"
keys C-u
type_text "XAda Lovelace"
keys C-a C-d # readline: ctrl+d deletes the X under the cursor
wait_for "> Ada Lovelace"
on_screen "Discard what you typed" && fail "ctrl+d in a text field asked to decline"
keys Tab
keys BSpace BSpace
type_text "200"
keys Tab
wait_for "above maximum 150"
keys Tab Tab
keys Enter # on the last field with an error: the form goes to the error
wait_for "1 field needs attention"
on_screen "Review your answers" && fail "the review opened with an invalid age"
keys BSpace BSpace BSpace
type_text "42"
keys Tab Tab
keys Down Down # status: active -> pending
keys Tab
wait_for "enter review"
keys Enter
wait_for "Review your answers"
wait_for "Name: \"Ada Lovelace\""
wait_for "Age: 42"
wait_for "Status: \"pending\""
keys BTab # back to the last field, "verified"
wait_gone "Review your answers"
wait_for "Has the account been verified?"
keys Right # Yes -> No
keys Enter
wait_for "Verified: false"
keys Enter
wait_for '"name": "Ada Lovelace"'
wait_for '"verified": false'
expect_response accept age=42 name='"Ada Lovelace"' score=95.5 status='"pending"' verified=false
wait_for "· ready"
passed_check "typed (ctrl+d deletes forward), fixed a range error, picked a select, went back from the review, submitted"

# 3. The enums form: plain enum, titled oneOf, legacy enumNames, and two
# multi-selects toggled with space (content holds the consts, not titles).
ask_form enums "Pick your options"
keys Down Down Enter # colour: blue
keys Up Enter        # size: Medium -> Small
keys Down Enter      # region: (no answer) -> Europe (Ireland)
wait_for "space toggle"
keys Down Down Space Enter # toppings: cheese + olives
keys Space Down Space      # languages: Go, Rust
keys Enter
wait_for "Review your answers"
wait_for "Toppings (items.enum): [\"cheese\",\"olives\"]"
wait_for "Languages (items.anyOf): [\"go\",\"rs\"]"
keys Enter
wait_for '"region": "eu-west-1"'
expect_response accept color='"blue"' size='"s"' region='"eu-west-1"' toppings='["cheese","olives"]' languages='["go","rs"]'
wait_for "· ready"
passed_check "selects and multi-selects (space) send the agent's values as typed arrays"

# 4. The "Other" shape: the last choice reveals the text input; the content
# keeps the agent's key for the free text.
ask_form other "Which approach should I take?"
wait_for "Other…"
keys Up # from "(no answer)" round to "Other…"
wait_for "(empty)"
keys Enter
type_text "Pair with Ana"
keys Enter
wait_for "Review your answers"
wait_for "Approach: \"Pair with Ana\" (your own answer, sent as question_0_custom)"
keys Enter
wait_for '"question_0_custom": "Pair with Ana"'
expect_response accept question_0_custom='"Pair with Ana"'
wait_for "· ready"
passed_check "\"Other\" with a custom text"

# 5. Decline with Ctrl+X on the tool-call scoped confirmation (nothing
# typed: it does not ask).
ask_form confirm "Delete the 42 files in ./build?"
keys C-x
wait_for "You chose decline"
wait_for "Not deleted: you chose decline"
expect_response decline
wait_for "· ready"
passed_check "ctrl+x declines"

# 6. Ctrl+X and Esc on a form with typed data ask first; n keeps it, Esc
# again and y cancels; what was typed is kept in the transcript.
ask_form strings "Tell me how to reach you"
type_text "bob@example.com"
keys Tab
keys C-x
wait_for "Discard what you typed and decline?"
keys n
wait_gone "Discard what you typed and decline?"
[ -z "$(response_to "$req")" ] || fail "ctrl+x answered a form with typed data: $(response_to "$req")"
keys Escape
wait_for "Discard what you typed and cancel?"
keys n
wait_gone "Discard what you typed and cancel?"
wait_for "Tell me how to reach you"
keys Escape
wait_for "Discard what you typed and cancel?"
keys y
wait_for "You chose cancel"
wait_for "cancelled form \"Tell me how to reach you."
wait_for "what you had entered:"
wait_for "Email: bob@example.com"
expect_response cancel
wait_for "· ready"
passed_check "ctrl+x and esc with typed data ask; esc then y cancels"

# 7. A form that comes up while the user types docks: letters, Enter and
# space stay with the prompt and the form answers nothing until Tab, sent
# as the next key at typing pace (a question takes the keys by itself
# only after a second without one).
before="$(last_request_id || true)"
type_text "/form defaults"
keys Enter
type_until_docked "y 1 "
type_slowly $'yes\n '
typist_key Tab
grep -qF "Demo agent asks a form question" <<<"$dock_line" || fail "dock line: $dock_line"
req="$(last_request_id)"
[ "$req" != "$before" ] || fail "no new elicitation/create"
[ -z "$(response_to "$req")" ] || fail "typing answered the form: $(response_to "$req")"
want="${typed}yes "
focus_question
wait_for "Check your profile"
keys C-x
expect_response decline
wait_for "· ready"
[ "$(prompt_squeezed)" = "${want// /}" ] || fail "the prompt lost what was typed: '$(prompt_squeezed)'"
keys C-u
passed_check "a form docks while typing ('$want' stays in the prompt); tab then ctrl+x declines it"

# Quit from the idle prompt; the terminal comes back as it was.
status="$(quit_elicit)"
[ "$status" = 0 ] || fail "exit status $status"
assert_restored
passed_check "quit, terminal restored"

# 8. -p (no TTY): a form is cancelled unless --accept-defaults (nobody saw
# it: a decline would tell the agent a person said no); --timeout
# ends a run that takes too long with 124.
plog="$work/p.log"
out="$("$bin" -p "/form defaults" --cwd "$work" --log "$plog" </dev/null 2>&1)" || fail "-p exited $?: $out"
grep -qF "You chose **cancel**" <<<"$out" || fail "-p did not cancel the form: $out"
grep -qE -- '-> \{"jsonrpc":"2.0","id":[0-9]+,"result":\{"action":"cancel"\}\}' "$plog" || fail "-p: no cancel in the trace"
out="$("$bin" -p "/form defaults" --accept-defaults --cwd "$work" </dev/null 2>&1)" || fail "-p --accept-defaults exited $?: $out"
grep -qF '"name": "John Doe"' <<<"$out" || fail "-p --accept-defaults did not send the defaults: $out"
code=0
"$bin" -p "/slow" --timeout 2s --cwd "$work" </dev/null >/dev/null 2>&1 || code=$?
[ "$code" = 124 ] || fail "-p --timeout 2s on /slow exited $code, want 124"
passed_check "-p cancels a form, --accept-defaults sends the defaults, --timeout exits 124"
echo "e2e-forms: $passed passed, 0 failed"
