#!/usr/bin/env bash
# End to end: a permission for an edit (/edit: line 30 of a 200-line file
# changes) at 120x40, 80x24 and 60x16. Without scrolling, the dialog shows
# its title, who asks, the hunk header (but at 60x16), the old and the new line 30, and
# its key line; e shows the whole file and End reaches its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup

for size in 120x40 80x24 60x16; do
	w="${size%x*}" h="${size#*x}"
	t kill-session -t e2e 2>/dev/null || true
	E2E_COLS="$w" E2E_ROWS="$h" start_elicit "$bin" --cwd "$work" --log "$log"
	wait_for "connected to"
	type_text "/edit"
	keys Enter
	wait_for "Permission"
	# At 60x16 the options (with "always allow here") leave the diff six
	# rows: the changed lines and their numbers show, the hunk header is
	# one scroll up.
	if ((h >= 24)); then wait_for "@@ -27,7 +27,7 @@"; else wait_for "30 +"; fi
	wants=()
	for want in "Permission · Demo agent · Edit demo/settings.go [edit]" "30     - 	setting030 = 300" "    30 +     setting030 = 4096" "esc cancel" "Reject once"; do
		wants+=("${want//	/    }")
	done
	wait_all "${wants[@]}" # without scrolling
	s="$(screen)"
	[ "$(wc -l <<<"$s")" -le "$h" ] || fail "$size: more lines than the terminal"
	passed_check "$size: title, who asks, hunk header (60x16: line numbers), changed line and keys visible"

	focus_question # a question that came while we typed takes keys once the keyboard is idle
	keys e
	wait_for "@@ -1,200 +1,200 @@"
	keys End
	wait_for "200 200   )"
	grep -qF "esc cancel" <<<"$(screen)" || fail "$size: the key line scrolled away"
	passed_check "$size: e shows the whole file, End reaches its end, keys stay"

	keys Escape
	wait_for "cancelled"
	quit_elicit >/dev/null
done
echo "e2e-daily: $passed passed, 0 failed"
