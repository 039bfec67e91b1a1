#!/usr/bin/env bash
# End to end: over SSH (SSH_CONNECTION set) a URL question brings up its
# QR code at once, in a view of its own that takes the whole terminal: the
# whole code (every row, its quiet zone included) with the URL beneath, at
# 80x24 and 120x40; at 60x16 the view says what size it needs instead of
# cutting the code; a URL too long for any QR code says so.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup

# code_rows: the rows of the screen drawn only in half blocks (the code).
code_rows() {
	local s
	s="$(screen)"
	grep -cE '^ *[█▀▄ ]*[█▀▄][█▀▄ ]* *$' <<<"$s" || true
}

# qr_session COLSxROWS: elicit over SSH at that size, with the demo's /url
# asked and its question focused.
qr_session() {
	t kill-session -t e2e 2>/dev/null || true # the server stays (see start_elicit)
	E2E_COLS="${1%x*}" E2E_ROWS="${1#*x}"
	log="$work/qr-$1.log" # a trace of its own (--log appends)
	start_elicit env SSH_CONNECTION="10.0.0.1 50000 10.0.0.2 22" "$bin" --no-history --log "$log" --cwd "$work"
	wait_for "ready"
	type_text "/url"
	keys Enter
	wait_for "Scan with your phone"
}

for size in 80x24 120x40; do
	qr_session "$size"
	wait_for "esc back to the link"
	url="$(grep -o 'http://127.0.0.1:[0-9]*/flow/[a-z0-9-]*' "$log" | head -1)"
	[ -n "$url" ] || fail "no URL in the trace"
	on_screen "$url" || fail "the URL is not beneath the code"
	on_screen "needs a terminal" && fail "$size: the code did not fit"
	on_screen "Demo agent 0.1 · mode" && fail "$size: the QR view is not the whole terminal (the status bar is drawn)"
	# The whole code: its top row (quiet zone) and its last (the half row
	# below the quiet zone, ▀ only) are on screen, and so are as many rows
	# as a 33-module code takes (the demo's URL is 60-odd bytes: version 4
	# at level L), (33+8+1)/2 = 21.
	rows="$(code_rows)"
	[ "$rows" -eq 21 ] || fail "$size: $rows rows of the code on screen, want 21"
	s="$(screen)"
	grep -qE '^ *▀{41} *$' <<<"$s" || fail "$size: the code's last row is not on screen"
	grep -qE '^ *█{41} *$' <<<"$s" || fail "$size: the code's quiet zone is not on screen"
	past_grace # the QR view shows only while the question has the keys
	keys Escape
	wait_for "I opened it myself"
	wait_for "QR code"
	passed_check "$size: over SSH the QR view comes up at once with the whole code and the URL, Esc goes to the consent"
	t kill-session -t e2e
done

# Too small: the size it needs, never a cut code.
qr_session 60x16
wait_for "needs a terminal of at least"
[ "$(code_rows)" -eq 0 ] || fail "60x16: a cut code is drawn"
passed_check "60x16: the QR view says the size it needs instead of cutting the code"
t kill-session -t e2e

echo "e2e-qr: $passed checks passed"
