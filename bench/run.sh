#!/usr/bin/env bash
# bench/run.sh: time elicit against the no-UI floor (bench/noui) on the
# built-in demo agent, and print medians, ratios, peak RSS and the targets.
#
#   bash bench/run.sh                  # 7 runs of each scenario
#   BENCH_RUNS=9 bash bench/run.sh     # more runs
#   BENCH_POLL=0.01 bash bench/run.sh  # full-screen poll interval, seconds
#
# Needs go; the full-screen rows need tmux (skipped, with a note, without it).
# Wall time is measured around each process with bash's EPOCHREALTIME.
# Peak RSS is the client process's own VmHWM from /proc (the demo agent,
# a child of both clients, is not counted): sampled every BENCH_RSS_POLL
# seconds while a -p or noui run lives, read once after the turn in tmux.
set -uo pipefail
export LC_ALL=C

RUNS="${BENCH_RUNS:-7}"
POLL="${BENCH_POLL:-0.02}"
RSS_POLL="${BENCH_RSS_POLL:-0.01}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d)"
sock="elicit-bench-$$"
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "building elicit and bench/noui into $tmp ..."
(cd "$root" && go build -o "$tmp/elicit" . && go build -o "$tmp/noui" ./bench/noui) || {
	echo "build failed" >&2
	exit 1
}
cd "$tmp" || exit 1
have_tmux=1
command -v tmux >/dev/null || have_tmux=0

# A file descriptor nothing ever writes to: read -t on it sleeps without a fork.
exec {sleepfd}<> <(:)
nap() { read -r -t "$1" -u "$sleepfd" _ || true; }

# usec TIME: EPOCHREALTIME as integer microseconds.
usec() { echo "${1/./}"; }

# hwm_until_exit PID: print the last VmHWM (KiB) of PID before it exits.
hwm_until_exit() {
	local pid=$1 hwm=0 k v found
	while :; do
		found=
		while read -r k v _; do
			if [[ $k == VmHWM: ]]; then hwm=$v found=1; break; fi
		done 2>/dev/null <"/proc/$pid/status" || break
		[[ -n $found ]] || break # a zombie has no Vm lines
		nap "$RSS_POLL"
	done
	echo "$hwm"
}

# measure OUT CMD...: run CMD with stdout in OUT; sets ms, rss (KiB), rc.
measure() {
	local out=$1 start end pid poller
	shift
	start=$EPOCHREALTIME
	"$@" >"$out" 2>"$out.err" &
	pid=$!
	hwm_until_exit "$pid" >"$tmp/hwm" &
	poller=$!
	rc=0
	wait "$pid" || rc=$?
	end=$EPOCHREALTIME
	wait "$poller"
	rss=$(<"$tmp/hwm")
	ms=$(( ($(usec "$end") - $(usec "$start")) / 1000 ))
}

t() { tmux -L "$sock" -f /dev/null "$@"; }
status_line() { t capture-pane -p -t b -S 39 -E 39; }

# wait_status PATTERN WANT TIMEOUT: poll the status bar every POLL seconds
# until it matches PATTERN (WANT=1) or stops matching it (WANT=0).
wait_status() {
	local deadline=$((SECONDS + $3)) line
	while ((SECONDS < deadline)); do
		line="$(status_line)"
		if [[ $line == *"$1"* ]]; then ((${2} == 1)) && return 0; else ((${2} == 0)) && return 0; fi
		nap "$POLL"
	done
	return 1
}

# measure_tmux PROMPT: elicit full-screen in a 120x40 tmux pane; the time
# from sending Enter until the status bar says "ready" again. Sets ms, rss, rc.
measure_tmux() {
	local start end pid
	rc=1 ms=0 rss=0
	t kill-server 2>/dev/null
	t new-session -d -s b -x 120 -y 40 "exec $tmp/elicit"
	pid="$(t display-message -p -t b '#{pane_pid}')"
	wait_status "· ready" 1 30 || { t kill-server; return; }
	t send-keys -t b -l -- "$1"
	start=$EPOCHREALTIME
	t send-keys -t b Enter
	wait_status "· ready" 0 10 || { t kill-server; return; }
	wait_status "· ready" 1 300 || { t kill-server; return; }
	end=$EPOCHREALTIME
	rss=0
	while read -r k v _; do [[ $k == VmHWM: ]] && rss=$v; done <"/proc/$pid/status"
	rc=0
	ms=$(( ($(usec "$end") - $(usec "$start")) / 1000 ))
	t kill-server
}

declare -A MS RSS FAILS
# record KEY OK: append this run's figures under KEY.
record() {
	if [[ $2 == ok ]]; then
		MS[$1]+="$ms " RSS[$1]+="$rss "
	else
		FAILS[$1]=$((${FAILS[$1]:-0} + 1))
		echo "  run failed: $1 (rc=$rc)" >&2
	fi
}

# check_* FILE...: did the run do all the work? (prints ok or bad)
check_noui() { grep -Eq "^updates=$2 forms=$3 stop=end_turn$" "$1" && ((rc == 0)) && echo ok || echo bad; }
check_flood_p() { (( rc == 0 && $(wc -w <"$1") == $2 )) && echo ok || echo bad; }
check_forms_p() { grep -q "Accepted $2 of $2 forms" "$1" && ((rc == 0)) && echo ok || echo bad; }

run_flood() {
	local n=$1 i first
	for ((i = 1; i <= RUNS; i++)); do
		echo "flood $n: run $i of $RUNS"
		for first in $((i % 2)) $(((i + 1) % 2)); do
			if ((first == 1)); then
				measure out "$tmp/noui" -elicit "$tmp/elicit" -p "flood $n"
				record "flood $n|noui" "$(check_noui out "$((n + 1))" 0)"
			else
				measure out "$tmp/elicit" -p "flood $n"
				record "flood $n|elicit -p" "$(check_flood_p out "$n")"
			fi
		done
		if ((have_tmux)); then
			measure_tmux "flood $n"
			record "flood $n|elicit tmux" "$(check_rc)"
		fi
	done
}

run_pair() { # run_pair NAME PROMPT NOUI_UPDATES NOUI_FORMS CHECK_P CHECK_ARG
	local i first
	for ((i = 1; i <= RUNS; i++)); do
		echo "$1: run $i of $RUNS"
		for first in $((i % 2)) $(((i + 1) % 2)); do
			if ((first == 1)); then
				measure out "$tmp/noui" -elicit "$tmp/elicit" -p "$2"
				record "$1|noui" "$(check_noui out "$3" "$4")"
			else
				measure out "$tmp/elicit" -p "$2"
				record "$1|elicit -p" "$($5 out "$6")"
			fi
		done
	done
}

check_rc() { ((rc == 0)) && echo ok || echo bad; }

load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
run_flood 20000
run_flood 40000
run_pair "forms 500" "/forms 500" "[0-9]+" 500 check_forms_p 500
run_pair "hello" "hello" "[0-9]+" 0 check_rc ""

load_end="$(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck source=bench/report.sh
source "$root/bench/report.sh"
report
