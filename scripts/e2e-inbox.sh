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

# wait_listed N: poll until the inbox lists N questions.
wait_listed() {
	local deadline=$((SECONDS + E2E_TIMEOUT)) n
	while ((SECONDS < deadline)); do
		n="$(listed | grep -c '"id"' || true)"
		[ "$n" = "$1" ] && return 0
		sleep 0.2
	done
	fail "the inbox never listed $1 questions: $(listed)"
}

# id_in DIR: the id of the question whose session runs in DIR.
id_in() { listed | jq -r --arg d "$1" 'select(.cwd == $d) | .id' | head -1; }

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
grep -qF '"name":"From the inbox"' "$work/one.log" || fail "the agent did not get the inbox's content"
term_wait one '"name": "From the inbox"'
wait_listed 3
passed_check "elicit inbox answer answers one: its agent gets the content, its screen says so, the list shrinks"

if "$bin" inbox answer "$id" --decline 2>"$work/again.err"; then fail "a question answered twice"; fi
grep -qF "no such question is waiting" "$work/again.err" || fail "answering it again: $(cat "$work/again.err")"
passed_check "an answered question cannot be answered again (exit 1, and why)"

# Answer the second session's form in its own screen; it leaves the list
# within two seconds.
sleep 0.6 # the form's grace period
for _ in 1 2 3 4 5; do
	t send-keys -t two Enter
	sleep 0.2
done
term_wait two "Review your answers"
t send-keys -t two Enter
term_wait two 'answered form "Check your profile'
answered=$(date +%s%N)
wait_listed 2
gone_ms=$((($(date +%s%N) - answered) / 1000000))
((gone_ms <= 2000)) || fail "the form answered in its screen left the inbox after ${gone_ms} ms"
passed_check "a form answered in its own screen left the inbox in ${gone_ms} ms"

t send-keys -t one -l -- "/edit"
t send-keys -t one Enter
deadline=$((SECONDS + E2E_TIMEOUT))
until listed | jq -e 'select(.kind == "permission" and .tool == "Edit demo/settings.go")' >/dev/null; do
	((SECONDS < deadline)) || fail "no permission in the inbox: $(listed)"
	sleep 0.2
done
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
for s in one two three none; do
	deadline=$((SECONDS + E2E_TIMEOUT))
	until term_has "$s" "[$s exited"; do
		((SECONDS < deadline)) || { term_screen "$s" >&2; fail "$s did not quit"; }
		t send-keys -t "$s" Escape
		sleep 0.3
		t send-keys -t "$s" C-c
		sleep 0.2
		t send-keys -t "$s" C-c
		sleep 0.5
	done
done
deadline=$((SECONDS + E2E_TIMEOUT))
until [ -z "$(ls "$XDG_RUNTIME_DIR/elicit")" ]; do
	((SECONDS < deadline)) || fail "sockets left after the sessions ended: $(ls "$XDG_RUNTIME_DIR/elicit"); $(ps -o pid,args -p "$(ls "$XDG_RUNTIME_DIR/elicit" | cut -d- -f1 | head -1)" || true)"
	sleep 0.2
done
passed_check "every session's socket is gone once it ended"
echo "e2e-inbox: $passed checks passed"
