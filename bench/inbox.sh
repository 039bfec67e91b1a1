# bench/inbox.sh: the inbox group of bench/run.sh (BENCH_ONLY=inbox).
# bench/inboxbench registers 50 sessions (49 real `elicit serve -p /form`
# and one host in its own process), then times a new question until
# `elicit inbox list --json` (a new process each time) lists it, the list
# and --count runs themselves, an idle session's wake-ups with the inbox
# on, a new question until the inbox's screen (`elicit inbox` on a
# pseudo-terminal, read through a terminal emulator) counts it, and the
# idle screen's wake-ups and bytes written. INBOX holds one result line
# per run.
# shellcheck shell=bash

INBOX=""

# run_inbox: bench/inboxbench, RUNS times.
run_inbox() {
	local i line
	for ((i = 1; i <= RUNS; i++)); do
		echo "inbox, 50 sessions: run $i of $RUNS"
		if line="$("$tmp/inboxbench" -elicit "$tmp/elicit" -sessions 50 -samples 30 2>"$tmp/inboxbench.err")"; then
			INBOX+="$line"$'\n'
		else
			FAILS["inbox 50|inboxbench"]=$((${FAILS["inbox 50|inboxbench"]:-0} + 1))
			echo "  run failed: inbox" >&2
			cat "$tmp/inboxbench.err" >&2
		fi
	done
}

# inbox_field FIELD: FIELD's values over the runs, one a line.
inbox_field() { printf '%s' "$INBOX" | tr ' ' '\n' | awk -F= -v k="$1" '$1 == k {print $2}'; }

inbox_report() {
	[[ -n $INBOX ]] || return 0
	echo
	echo "== elicit inbox with 50 sessions registered (bench/inboxbench), $RUNS runs of 30 questions =="
	echo "new question: from the session asking it until an elicit inbox list --json process, run back to back, lists it"
	echo
	printf '%5s %8s %8s %8s %8s %9s %12s\n' runs p50_ms p99_ms max_ms list_ms count_ms idle_wakes/s
	printf '%5s %8s %8s %8s %8s %9s %12s\n' "$(inbox_field sessions | wc -l)" "$(median $(inbox_field p50_ms))" \
		"$(inbox_field p99_ms | sort -n | tail -1)" "$(inbox_field max_ms | sort -n | tail -1)" \
		"$(median $(inbox_field list_ms))" "$(median $(inbox_field count_ms))" "$(inbox_field idle_wakeups_per_s | sort -n | tail -1)"
	echo
	echo "the inbox's screen (elicit inbox, 120x40, read through a terminal emulator): a new question until the read that draws"
	echo "the header counting it; idle: no question waiting, nothing happening"
	echo
	printf '%5s %14s %14s %14s %18s %17s\n' runs screen_p50_ms screen_p99_ms screen_max_ms idle_screen_wakes/s idle_screen_bytes
	printf '%5s %14s %14s %14s %18s %17s\n' "$(inbox_field screen_p99_ms | wc -l)" "$(median $(inbox_field screen_p50_ms))" \
		"$(inbox_field screen_p99_ms | sort -n | tail -1)" "$(inbox_field screen_max_ms | sort -n | tail -1)" \
		"$(inbox_field idle_screen_wakeups_per_s | sort -n | tail -1)" "$(inbox_field idle_screen_bytes | sort -n | tail -1)"
}

inbox_targets() {
	[[ -n $INBOX ]] || return 0
	target "inbox, 50 sessions: new question in inbox list, p99 ms" "$(inbox_field p99_ms | sort -n | tail -1)" "<= 100" 100
	target "inbox: an idle session's wake-ups per second" "$(inbox_field idle_wakeups_per_s | sort -n | tail -1)" "0" 0
	target "inbox, 50 sessions: new question on its screen, p99 ms" "$(inbox_field screen_p99_ms | sort -n | tail -1)" "<= 100" 100
	target "inbox: the idle screen's wake-ups per second" "$(inbox_field idle_screen_wakeups_per_s | sort -n | tail -1)" "0" 0
	target "inbox: bytes the idle screen writes" "$(inbox_field idle_screen_bytes | sort -n | tail -1)" "0" 0
}
