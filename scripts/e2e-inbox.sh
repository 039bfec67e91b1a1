#!/usr/bin/env bash
# End to end: the inbox. Three full-screen sessions and one `elicit serve
# -p`, each in its own directory, each asking a form (the demo agent's
# "/form defaults"); a fourth full screen with --no-inbox asks one too.
# Checked: `elicit inbox list --json` shows the four (with their
# directories), never the --no-inbox one; `elicit inbox answer` answers
# one (its agent gets the content, its screen says it was answered in the
# inbox, the list shrinks); one answered in its own screen leaves the list
# within two seconds; a permission shows up with kind permission and its
# tool title; user nobody sees none of it; the sockets go when their
# sessions end.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup
export XDG_RUNTIME_DIR="$work/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"

# listed: the inbox's questions, one JSON object a line.
listed() { "$bin" inbox list --json 2>>"$work/list.err"; }

# listed_count N: the inbox lists N questions now.
listed_count() { [ "$(listed | grep -c '"id"' || true)" = "$1" ]; }

# wait_listed N: poll until the inbox lists N questions.
wait_listed() { poll "$1 questions in the inbox's list" listed_count "$1"; }

# id_in DIR: the id of the question whose session runs in DIR.
id_in() { listed | jq -r --arg d "$1" 'select(.cwd == $d) | .id' | head -1; }

# session_quit NAME LOG: quit session NAME, its trace in LOG, from its idle
# prompt (Ctrl+C twice in one burst, once its turn is over: during one the
# first press cancels it) and wait for its exit status 0.
session_quit() {
	wait_turns_over "$2"
	t send-keys -t "$1" C-c C-c
	term_wait "$1" "[$1 exited 0]"
}

# printed_in NAME TEXT: NAME's terminal, its scrollback included, holds
# TEXT: what a session printed when it ended (its log) stays there,
# where a line of its full screen scrolls away on a small one.
printed_in() {
	local s
	s="$(t capture-pane -p -t "$1" -J -S -)"
	grep -qF -- "$2" <<<"$s"
}

# waiting_in N: `elicit inbox list --count` says N.
waiting_in() { [ "$("$bin" inbox list --count 2>/dev/null)" = "$1" ]; }

command -v jq >/dev/null || fail "jq is needed (.ci/run installs it)"

for d in one two three four none; do mkdir "$work/$d"; done
for s in one two three; do
	start_term "$s" "$bin" --cwd "$work/$s" --log "$work/$s.log"
done
start_term none "$bin" --no-inbox --cwd "$work/none" --log "$work/none.log"
for s in one two three none; do
	term_wait "$s" "session in"
	t send-keys -t "$s" -l -- "/form defaults"
	t send-keys -t "$s" Enter
done
"$bin" serve --token-file "$work/token" --cwd "$work/four" -p "/form defaults" >"$work/four.out" 2>"$work/four.err" &
serve_pid=$!
trap 'kill "$serve_pid" 2>/dev/null || true; e2e_cleanup' EXIT
for s in one two three none; do term_wait "$s" "Check your profile"; done

wait_listed 4
got="$(listed | jq -r '.cwd' | sort | tr '\n' ' ')"
want="$(printf '%s\n' "$work/four" "$work/one" "$work/three" "$work/two" | sort | tr '\n' ' ')"
[ "$got" = "$want" ] || fail "the inbox lists the directories $got, want $want"
listed | jq -e -s 'all(.kind == "form" and .agent == "demo" and (.message | startswith("Profile")) and (.waiting_since | length > 0))' >/dev/null ||
	fail "not four forms of the demo agent: $(listed)"
passed_check "elicit inbox list --json shows the four waiting forms with their directories, not the --no-inbox one"

table="$("$bin" inbox list)"
grep -q '^ID  *KIND  *AGENT  *WAITING  *DIRECTORY  *MESSAGE' <<<"$table" || fail "no table: $table"
[ "$("$bin" inbox list --count)" = 4 ] || fail "--count: $("$bin" inbox list --count)"
passed_check "the table and --count agree"

echo '{"name":"From the inbox"}' >"$work/answers.json"
id="$(id_in "$work/one")"
"$bin" inbox answer "$id" --answers "$work/answers.json" >"$work/answer.out" || fail "inbox answer failed: $(cat "$work/answer.out")"
term_wait one "answered in the inbox: accept"
# The screen says so as it hands the answer on: the trace has it a moment later.
log="$work/one.log" wait_log '"result":{"action":"accept"'
grep -qF '"name":"From the inbox"' "$work/one.log" || fail "the agent did not get the inbox's content: $(grep -F '"action":"accept"' "$work/one.log")"
term_wait one '"name": "From the inbox"'
wait_listed 3
passed_check "elicit inbox answer answers one: its agent gets the content, its screen says so, the list shrinks"

if "$bin" inbox answer "$id" --decline 2>"$work/again.err"; then fail "a question answered twice"; fi
grep -qF "no such question is waiting" "$work/again.err" || fail "answering it again: $(cat "$work/again.err")"
passed_check "an answered question cannot be answered again (exit 1, and why)"

# Answer the second session's form in its own screen; it leaves the list
# within two seconds.
term_wait two "tab/enter next" # the form has the keys
past_grace
t send-keys -t two Enter Enter Enter Enter # Name, Age, Score, Status: to Verified
term_wait two "enter review"
t send-keys -t two Enter
term_wait two "Review your answers"
t send-keys -t two Enter
term_wait two 'answered form "Check your profile'
wait_listed 2 # how fast is the bench's (bench/inbox.sh), never a test's
passed_check "a form answered in its own screen left the inbox"

wait_turns_over "$work/one.log" # one's reply to the inbox's answer ended its turn
t send-keys -t one -l -- "/edit"
t send-keys -t one Enter
permission_listed() { listed | jq -e 'select(.kind == "permission" and .tool == "Edit demo/settings.go")' >/dev/null; }
poll "permission in the inbox's list" permission_listed
"$bin" inbox list | grep -q 'permission.*Edit demo/settings.go' || fail "the table lacks the permission's tool title"
perm="$(listed | jq -r 'select(.kind == "permission") | .id')"
if "$bin" inbox answer "$perm" --decline 2>"$work/perm.err"; then fail "a script answered a permission"; fi
grep -qF "needs a person" "$work/perm.err" || fail "the permission's refusal: $(cat "$work/perm.err")"
passed_check "a permission shows with kind permission and its tool title, and needs a person"

if command -v setpriv >/dev/null; then
	nbin="$(mktemp -d)"
	chmod 755 "$nbin"
	cp "$bin" "$nbin/elicit"
	chmod 755 "$nbin/elicit"
	set +e
	out="$(cd / && setpriv --reuid nobody --regid nogroup --clear-groups env XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" HOME=/nonexistent XDG_CONFIG_HOME=/nonexistent "$nbin/elicit" inbox list --json 2>"$nbin/err")"
	status=$?
	count="$(cd / && setpriv --reuid nobody --regid nogroup --clear-groups env XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" HOME=/nonexistent XDG_CONFIG_HOME=/nonexistent "$nbin/elicit" inbox list --count 2>/dev/null)"
	set -e
	[ -z "$out" ] || fail "user nobody sees: $out"
	[ "$count" = 0 ] || fail "user nobody counts $count"
	((status != 0)) || fail "user nobody was not told why it sees nothing"
	why="$(head -c 160 "$nbin/err")"
	rm -rf "$nbin"
	passed_check "user nobody, with XDG_RUNTIME_DIR pointed at this user's, sees none of it ($why)"
else
	fail "setpriv is needed (util-linux)"
fi

kill "$serve_pid" 2>/dev/null || true
wait "$serve_pid" 2>/dev/null || true
# Esc closes what a session shows (the permission, the form; a form with
# nothing typed needs no second word), then Ctrl+C twice quits.
for s in one three none; do
	term_wait "$s" "esc cancel" # the question has the keys
	past_grace
	t send-keys -t "$s" Escape
	term_wait "$s" " · ready"
done
for s in one two three none; do session_quit "$s" "$work/$s.log"; done
no_sockets() { [ -z "$(ls "$XDG_RUNTIME_DIR/elicit")" ]; }
poll "end of every session's socket" no_sockets
passed_check "every session's socket is gone once it ended"

# The inbox's own screen, at three sizes: two sessions of the demo agent
# and `elicit inbox` in a third terminal (the library's e2e session, so
# its helpers read it). A question from each appears in the list with who
# asks, where and how long it has waited; Enter opens the oldest; a draft
# typed there reaches its session and one typed in the session comes back;
# submitted, the session's agent gets it and its screen says it was
# answered in the inbox; Ctrl+C puts an open question back in the list;
# prose typed at the list (an Enter within it included) answers nothing
# (the type-ahead rule); Ctrl+C at the list quits.

# screen_round DIR: the screen's checks at E2E_COLSxE2E_ROWS, the sessions
# in DIR/a and DIR/b, with a history of their own (what one size answered
# is not the next one's default). The inbox runs with a typing window of a
# minute (its own config file), so prose typed at its list cannot stall
# past it on a loaded machine: a question it opened waits docked until
# Tab.
screen_round() {
	local dir="$1" size="${E2E_COLS}x$E2E_ROWS" s status got
	mkdir -p "$dir/a" "$dir/b" "$dir/state"
	printf 'typing_window = "1m"\n' >"$dir/inbox.toml"
	start_elicit env XDG_STATE_HOME="$dir/state" "$bin" inbox --config "$dir/inbox.toml"
	wait_for "no question waits"
	for s in a b; do
		start_term "$s" env XDG_STATE_HOME="$dir/state" "$bin" --cwd "$dir/$s" --log "$dir/$s.log"
		term_wait "$s" "session in"
		t send-keys -t "$s" -l -- "/form defaults"
		t send-keys -t "$s" Enter
		term_wait "$s" "tab/enter next" # the form has the keys, past its grace
		wait_for "demo · $dir/$s"
	done
	wait_for "2 questions waiting · 2 sessions"
	on_screen "just now" || fail "$size: the rows do not say how long they waited"
	passed_check "$size: each session's question appears in the inbox's list, with its agent, directory and age"

	keys Enter # the oldest: a's
	wait_for "tab/enter next"
	on_screen "demo · $dir/a asks" || fail "$size: Enter did not open a's question"
	keys C-u
	type_text "Inbox draft"
	keys Tab # leaving the field sends the draft
	term_wait a "> Inbox draft"
	past_grace # a took the keys when its keyboard went idle: a key within the grace would still be typing
	t send-keys -t a Tab C-u
	t send-keys -t a -l -- "77"
	t send-keys -t a Tab
	wait_for "> 77"
	passed_check "$size: Enter opens the question; a draft typed in the inbox reaches the session, and one typed there comes back"

	keys Enter Enter Enter # Age, Score, Status: to Verified
	wait_for "enter review"
	keys Enter
	wait_for "Review your answers"
	keys Enter
	wait_for "1 question waiting"
	# The host took the inbox's answer (the list shrank); a's screen hands
	# it to a's agent after that, so the trace is waited for, not read once.
	log="$dir/a.log" wait_log '"result":{"action":"accept"'
	got="$(grep -F '"result":{"action":"accept"' "$dir/a.log")"
	grep -qF '"name":"Inbox draft"' <<<"$got" || fail "$size: a's agent did not get the inbox's name: $got"
	grep -qF '"age":77' <<<"$got" || fail "$size: a's agent did not get the session's own age: $got"
	passed_check "$size: submitted in the inbox, the answer reaches the session that asked, and the list shrinks"

	keys Enter # b's
	wait_for "demo · $dir/b asks"
	wait_for "tab/enter next"
	keys C-c
	wait_gone "tab/enter next"
	wait_for "demo · $dir/b"
	waiting_in 1 || fail "$size: Ctrl+C answered b's question: $("$bin" inbox list)"
	passed_check "$size: Ctrl+C puts an open question back in the list, still waiting"

	type_slowly $'ship it\nyes do it 1 y o'
	question_docked || fail "$size: an Enter typed in prose at the list opened the question with the keys"
	waiting_in 1 || fail "$size: prose typed at the list answered b's question"
	keys Tab # a deliberate key: it takes the keys now
	wait_for "tab/enter next"
	if on_screen "ship" || on_screen "yes do"; then fail "$size: the prose went into the form"; fi
	passed_check "$size: prose typed at the list answers nothing: its Enter opened the question docked, its letters went nowhere"
	keys C-c
	wait_gone "tab/enter next"
	keys C-c
	status="$(wait_dead)"
	[ "$status" = 0 ] || fail "$size: the inbox exited $status"
	assert_restored || fail "$size: the terminal was not restored"
	passed_check "$size: Ctrl+C goes back to the list, then quits (exit 0, terminal restored)"

	session_quit a "$dir/a.log"
	printed_in a "answered in the inbox: accept" || fail "$size: a's log does not say its form was answered in the inbox"
	passed_check "$size: the session's screen said its question was answered in the inbox (its log, printed at exit)"
	term_wait b "tab/enter next"
	t send-keys -t b Escape # nothing typed: cancelled at once
	term_wait b " · ready"
	session_quit b "$dir/b.log"
	for s in e2e a b; do t kill-session -t "$s"; done
}

for size in 120x40 80x24 60x16; do
	E2E_COLS="${size%x*}" E2E_ROWS="${size#*x}"
	screen_round "$work/screen-$size"
done
echo "e2e-inbox: $passed checks passed"
