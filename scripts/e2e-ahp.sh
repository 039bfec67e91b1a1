#!/usr/bin/env bash
# End to end: `elicit serve` with the demo agent and two `elicit attach`
# clients, each in its own tmux terminal. The serving terminal shows how to
# attach; a form the agent asks appears in all three; a draft typed in one
# client (alice) appears in the other (bob); bob accepts, the answer (with
# alice's draft in it) reaches the agent (checked in the --log trace), and
# alice's form closes as answered elsewhere. Then `elicit attach --answers`
# answers a `serve -p` run without a terminal, and a wrong token is refused.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup

tok="$work/token"
start_elicit "$bin" serve --token-file "$tok" --log "$log" --cwd "$work"
wait_for "shared: elicit attach ws://127.0.0.1:"
wait_for "--token-file $tok" # the line's end: the port before it is whole
url="$(screen | grep -o 'ws://127\.0\.0\.1:[0-9]*/' | head -1)"
[ -n "$url" ] || fail "no URL in the attach line"
grep -qF -- "--token-file $tok" <<<"$(screen)" || fail "the attach line does not name the token file"
! grep -qF -- "$(cat "$tok")" <<<"$(screen)" || fail "the attach line shows the token"
passed_check "serve prints the exact attach line, naming the token file, never the token"

start_term alice "$bin" attach "$url" --token-file "$tok" --name alice
start_term bob "$bin" attach "$url" --token-file "$tok" --name bob
term_wait alice "no question waits"
term_wait bob "no question waits"
wait_for "alice-"
wait_for "attached to this session"
passed_check "the serving terminal says who attached"

type_text "/form defaults"
keys Enter
wait_for "Check your profile"
term_wait alice "Check your profile"
term_wait bob "Check your profile"
term_has bob "Profile" || fail "the attached form lacks its title"
passed_check "the agent's form appears in the serving terminal and both clients, with its title"

past_grace                            # the form's, seen on alice's screen above: a key meant for something else does not answer it
term_keys alice Tab                   # name -> age
term_keys alice C-u                   # readline: clear the field
t send-keys -t alice -l -- "77"
term_keys alice Tab                   # leaving the field sends the draft
term_wait bob "   77"
passed_check "a draft typed in one client appears in the other"

# Bob's form was on his screen before the grace above: past it too.
term_keys bob Enter Enter Enter Enter Enter # through the fields to the review
term_wait bob "Review your answers"
term_keys bob Enter
term_wait bob "you answered form"
term_wait bob "Age 77"
wait_log '"content":{"age":77'
passed_check "the answer accepted in the second client reaches the agent (trace)"
term_wait alice "answered elsewhere: accept (by bob"
passed_check "the first client closes its form: answered elsewhere"
wait_for "answered elsewhere: accept (by bob"
wait_for '"age": 77'
passed_check "the serving terminal's form closes too, and the agent's reply shows the answer"

keys C-c C-c
t kill-session -t alice
t kill-session -t bob

# Without terminals: serve -p, answered by attach --answers.
"$bin" serve --token-file "$work/token2" -p "/form defaults" >"$work/p.out" 2>"$work/p.err" &
serve_pid=$!
attach_line() { grep -q 'ws://' "$work/p.err" 2>/dev/null; }
poll "attach line from serve -p" attach_line
purl="$(grep -o 'ws://[^ ]*' "$work/p.err" | head -1)"
[ -n "$purl" ] || fail "serve -p printed no attach line"
echo '{}' >"$work/empty.json"
if "$bin" attach "$purl" --token wrong-token --answers "$work/empty.json" 2>"$work/bad.err"; then fail "a wrong token was let in"; fi
grep -qF "401" "$work/bad.err" || fail "the refusal does not say why: $(cat "$work/bad.err")"
passed_check "a wrong token is refused"
echo '{"name":"Script"}' >"$work/answers.json"
"$bin" attach "$purl" --token-file "$work/token2" --answers "$work/answers.json" --once >"$work/lines.jsonl" 2>"$work/attach.err" ||
	fail "attach --once did not exit 0: $(cat "$work/attach.err")"
wait "$serve_pid" || fail "serve -p failed: $(cat "$work/p.err")"
grep -qF '"name": "Script"' "$work/p.out" || fail "the agent did not get the scripted answer: $(cat "$work/p.out")"
grep -qF '"request":"q1","response":"accept"' "$work/lines.jsonl" || fail "no JSON line for the answer: $(cat "$work/lines.jsonl")"
passed_check "attach --answers --once answers serve -p, prints the request's JSON line and exits 0"

echo "e2e-ahp: $passed checks passed"
