#!/usr/bin/env bash
# End to end: questions that find you and conversations that stay. A
# question raised while the pane is unfocused rings the bell and sends
# OSC 9 / OSC 777 (the raw bytes, captured with pipe-pane); $BROWSER opens
# a consented URL (a recording script); over SSH no browser starts, the
# link's QR code comes up and "I opened it myself" answers; after quitting, the
# conversation is in the scrollback.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup
raw="$work/raw.out"

# A $BROWSER that records the URL it was given, as a person's browser
# would open it.
cat >"$work/browser" <<EOF2
#!/bin/sh
printf '%s\n' "\$1" >>'$work/browsed'
EOF2
chmod +x "$work/browser"

start_elicit env BROWSER="$work/browser" "$bin" --no-history --log "$log" --cwd "$work"
t set-option -g focus-events on
t pipe-pane -o -t e2e "cat >>'$raw'"
wait_for "ready"

# notified: the raw output holds the bell, OSC 9 and OSC 777.
notified() { grep -q $'\a' "$raw" && grep -q $'\e]9;' "$raw" && grep -q $'\e]777;notify;elicit;' "$raw"; }

# Unfocused: another pane takes the focus, then a question arrives. (tmux
# writes the focus-out to elicit's terminal as select-pane runs, before
# the keys below: elicit reads it first.)
t split-window -d -t e2e -v "sleep 3600"
t select-pane -t e2e.1
t send-keys -t e2e.0 -l "/url"
t send-keys -t e2e.0 Enter
wait_log '"method":"elicitation/create"'
poll "bell and desktop notification in the raw output" notified
passed_check "a question in an unfocused pane rings the bell and sends OSC 9 and OSC 777"
t kill-pane -t e2e.1
t select-pane -t e2e.0

# $BROWSER opens the consented URL, and only then does the agent hear accept.
focus_question
keys Right Enter
browsed() { [ -s "$work/browsed" ]; }
poll "run of \$BROWSER" browsed
grep -q '^http://127.0.0.1:[0-9]*/flow/' "$work/browsed" || fail "\$BROWSER got $(cat "$work/browsed")"
wait_log '"action":"accept"'
passed_check "\$BROWSER opens the consented URL, then the agent hears accept"
focus_question
keys Escape # the second URL of /url

# The conversation stays in the scrollback after quitting.
wait_for "ready"
quit_elicit
t capture-pane -p -t e2e -S - -E - -J >"$work/scrollback"
grep -qF "> /url" "$work/scrollback" && grep -qF "opened 127.0.0.1" "$work/scrollback" ||
	fail "the conversation is not in the scrollback: $(tail -5 "$work/scrollback")"
passed_check "after quitting, the conversation is in the scrollback"
t kill-server

# Over SSH: no browser is started; the link's QR code comes up at once (a
# view of its own: scripts/e2e-qr.sh checks it whole), Esc goes to the
# consent, whose "I opened it myself" answers accept.
rm -f "$work/browsed"
E2E_SOCK="elicit-e2e-ssh-$$"
start_elicit env BROWSER="$work/browser" SSH_CONNECTION="10.0.0.1 50000 10.0.0.2 22" "$bin" --no-history --log "$work/ssh.log" --cwd "$work"
wait_for "ready"
type_text "/url"
keys Enter
log="$work/ssh.log"
wait_log '"method":"elicitation/create"'
wait_for "Scan with your phone"
wait_for "▀"
past_grace # the QR view shows only while the question has the keys
keys Escape
wait_for "I opened it myself"
[ ! -e "$work/browsed" ] || fail "a browser was started over SSH"
grep -q '"action":"accept"' "$log" && fail "the agent heard accept before the user said it was opened"
keys Left Enter # the last button
wait_log '"action":"accept"'
passed_check "over SSH: a QR code, no browser, and accept only on \"I opened it myself\""
t kill-server

echo "e2e-leave: $passed checks passed"
