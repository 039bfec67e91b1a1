# bench/long.sh: the long-session group of bench/run.sh, which sources it
# (it uses run.sh's t, nap, usec and tmp) and reports it through
# long_report and long_targets.
# shellcheck shell=bash
#
# long: one full screen at 200x60 on bench/lineagent, a session of
# "lines 20000" turns (1.2 MB of agent text each): forty turns, then, in a
# new session, four hundred (BENCH_LONG="40 400" sets the lengths). After
# each turn (Enter until the status bar says ready again, polled as the
# other full-screen rows) the client's VmRSS, and the turn's wall time.
# BENCH_LONG_BASE=FILE runs that elicit build (say, main's) in a second
# session beside it, the two taking turns about (the first of each pair
# alternates), so the two columns share the machine's load.
# BENCH_LONG_RAW=FILE appends every turn there: build, length, turn, ms, RSS KiB.

LONG_TURNS="${BENCH_LONG:-40 400}"
declare -A LONG=() # LONG[build|turns]: "ms:rss_kib" per turn, in order

# rss PID: VmRSS of PID in KiB.
rss() {
	local k v
	while read -r k v _; do [[ $k == VmRSS: ]] && { echo "$v"; return; }; done 2>/dev/null <"/proc/$1/status"
}

# pane_wait PANE ROW PATTERN WANT TIMEOUT: wait_status for pane PANE.
pane_wait() {
	local deadline=$((SECONDS + $5)) line
	while ((SECONDS < deadline)); do
		line="$(t capture-pane -p -t "$1" -S "$2" -E "$2")"
		if [[ $line == *"$3"* ]]; then (($4 == 1)) && return 0; else (($4 == 0)) && return 0; fi
		nap "$POLL"
	done
	return 1
}

# long_turn PANE I: turn I in PANE, "lines 20000 tI": its reply ends with
# "end of tI.", which tells it from the turn before (a status bar that
# never showed "working" between two polls under load did not); sets ms.
long_turn() {
	local start screen deadline=$((SECONDS + 300))
	ms=0
	t send-keys -t "$1" -l -- "lines 20000 t$2"
	start=$EPOCHREALTIME
	t send-keys -t "$1" Enter
	while ((SECONDS < deadline)); do
		screen="$(t capture-pane -p -t "$1")"
		if [[ $screen == *"end of t$2."* && ${screen##*$'\n'} == *"· ready"* ]]; then
			ms=$((($(usec "$EPOCHREALTIME") - $(usec "$start")) / 1000))
			return 0
		fi
		nap "$POLL"
	done
	return 1
}

run_long() {
	local n i k r order builds=(elicit) bins=("$tmp/elicit") pids=()
	if [[ -n ${BENCH_LONG_BASE:-} ]]; then
		builds+=(base) bins+=("$BENCH_LONG_BASE")
	fi
	for n in $LONG_TURNS; do
		t kill-server 2>/dev/null
		for k in "${!builds[@]}"; do
			mkdir -p "$tmp/long-state-$k"
			t new-session -d -s "long$k" -x 200 -y 60 \
				"exec env XDG_STATE_HOME=$tmp/long-state-$k ${bins[k]} --no-history -- $tmp/lineagent"
			pids[k]="$(t display-message -p -t "long$k" '#{pane_pid}')"
			pane_wait "long$k" 59 "· ready" 1 30 || { echo "  run failed: long, ${builds[k]} never ready" >&2; t kill-server 2>/dev/null; return; }
		done
		for ((i = 1; i <= n; i++)); do
			((i % 50 == 1)) && echo "long $n: turn $i of $n"
			order="${!builds[*]}"
			((i % 2 == 0)) && order="$(printf '%s\n' $order | tac | tr '\n' ' ')"
			for k in $order; do
				if ! long_turn "long$k" "$i"; then
					FAILS["long $n|${builds[k]}"]=$((${FAILS["long $n|${builds[k]}"]:-0} + 1))
					echo "  run failed: long $n, ${builds[k]}, turn $i: this session stops here" >&2
					break 2
				fi
				r="$(rss "${pids[k]}")"
				LONG["${builds[k]}|$n"]+="$ms:$r "
				[[ -n ${BENCH_LONG_RAW:-} ]] && echo "${builds[k]} $n $i $ms $r" >>"$BENCH_LONG_RAW"
			done
		done
		t kill-server 2>/dev/null
	done
}

# long_field BUILD TURNS FIELD [FROM [TO]]: field 1 (ms) or 2 (RSS KiB) of
# turns FROM..TO (1-based; default all), one a line: only the turns that
# ran (a session that failed midway reports what it measured).
long_field() {
	local list=(${LONG["$1|$2"]:-})
	local from=${4:-1} to=${5:-${#list[@]}}
	printf '%s\n' "${list[@]}" | awk -F: -v f="$3" -v a="$from" -v b="$to" 'NR >= a && NR <= b {print $f}'
}

# long_ran BUILD TURNS: how many turns of that session ran.
long_ran() {
	local list=(${LONG["$1|$2"]:-})
	echo "${#list[@]}"
}

# long_rss BUILD TURNS AFTER: VmRSS in MiB after turn AFTER ("" when it did not run).
long_rss() {
	local v
	v="$(long_field "$1" "$2" 2 "$3" "$3")"
	[[ -n $v ]] && mib "$v"
}

# long_flat BUILD TURNS: median turn ms of the first ten turns and of the
# last ten that ran.
long_flat() {
	local n first last
	n="$(long_ran "$1" "$2")"
	first="$(median $(long_field "$1" "$2" 1 1 10))"
	last="$(median $(long_field "$1" "$2" 1 $((n - 9)) "$n"))"
	echo "$first $last"
}

long_report() {
	local b n f l after
	[[ ${#LONG[@]} -gt 0 ]] || return 0
	echo
	echo "== long session: full screen 200x60, lineagent, turns of lines 20000 (1.2 MB of text each), one session per length =="
	echo "RSS: VmRSS once the turn is over (MiB); turn: median wall ms of the first ten turns and of the last ten"
	[[ -n ${BENCH_LONG_BASE:-} ]] && echo "base: $BENCH_LONG_BASE, in a second session, turn about with elicit"
	echo
	printf '%-7s %6s  %-42s %9s %9s %7s\n' build turns "RSS after turn 1 / 10 / 40 / 100 / 400" first10 last10 last/1st
	for n in $LONG_TURNS; do
		for b in elicit base; do
			[[ -n ${LONG["$b|$n"]:-} ]] || continue
			after=""
			for i in 1 10 40 100 400; do
				((i <= n)) && after+="$(long_rss "$b" "$n" "$i" || echo -) / "
			done
			(($(long_ran "$b" "$n") < n)) && after+="(ran $(long_ran "$b" "$n") of $n)"
			read -r f l <<<"$(long_flat "$b" "$n")"
			printf '%-7s %6s  %-42s %9s %9s %7s\n' "$b" "$n" "${after% / }" "$f" "$l" "$(ratio "$l" "$f")"
		done
	done
}

long_targets() {
	local n f l fb lb
	for n in $LONG_TURNS; do
		[[ -n ${LONG["elicit|$n"]:-} ]] || continue
		if (($(long_ran elicit "$n") < n)); then
			printf '%-50s %8s  %-9s %s\n' "long session, $n turns" "$(long_ran elicit "$n")" "$n turns" "MISS (stopped)"
			continue
		fi
		target "long session, $n turns: RSS MiB after the last" "$(long_rss elicit "$n" "$n")" "<= 100" 100
		read -r f l <<<"$(long_flat elicit "$n")"
		target "long session, $n turns: last ten / first ten turns" "$(ratio "$l" "$f")" "<= 1.1" 1.1
		if [[ -n ${LONG["base|$n"]:-} ]]; then
			read -r fb lb <<<"$(long_flat base "$n")"
			target "long session, $n turns: last ten, elicit / base" "$(ratio "$l" "$lb")" "<= 1.05" 1.05
		fi
	done
}
