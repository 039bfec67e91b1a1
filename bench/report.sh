# bench/report.sh: the tables and the targets for bench/run.sh, which
# sources it and calls report after filling MS, RSS, CPU, POST, IDLE and
# FAILS (keys "scenario|client"), and for the keys group KEYS_DIR (pooled
# latencies in µs, one file per "MODE-SIZE"), KEYS_RUNS and KEYS_N.
# shellcheck shell=bash

# median N...: the median of integers (mean of the middle two when even).
median() {
	(($# == 0)) && { echo 0; return; }
	printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : int((v[NR/2]+v[NR/2+1])/2)}'
}
maxof() { printf '%s\n' "$@" | sort -n | tail -1; }

med() { median ${MS[$1]:-}; }   # median wall ms
mcpu() { median ${CPU[$1]:-}; } # median CPU ms
mpost() { median ${POST[$1]:-}; }
peak() { maxof ${RSS[$1]:-0}; } # highest peak RSS, KiB

verdict() { awk -v v="$1" -v l="$2" 'BEGIN {print (v <= l) ? "PASS" : "MISS"}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b == 0) print "n/a"; else printf "%.2f", a / b}'; }
mib() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }

row() {
	local key=$1 ok n
	[[ -n ${MS[$key]:-} || -n ${FAILS[$key]:-} ]] || return 0
	read -ra ms_list <<<"${MS[$key]:-}"
	ok=${#ms_list[@]}
	n=$((ok + ${FAILS[$key]:-0}))
	printf '%-13s %-13s %5s %9s %8s %9s %9s\n' "${key%%|*}" "${key#*|}" "$ok/$n" "$(med "$key")" \
		"$(mcpu "$key")" "$( [[ ${key#*|} == tmux* ]] && mpost "$key" || echo -)" "$(mib "$(peak "$key")")"
}

target() { # target LABEL VALUE LIMIT-TEXT LIMIT
	[[ -n $2 ]] || return 0
	printf '%-50s %8s  %-9s %s\n' "$1" "$2" "$3" "$( [[ $2 == n/a ]] && echo "n/a" || verdict "$2" "$4")"
}
has() { [[ -n ${MS[$1]:-} ]]; }

# keys_file MODE SIZE: the latencies (µs) of all runs pooled, when there are any.
keys_file() {
	local f="${KEYS_DIR:-/nonexistent}/$1-$2"
	compgen -G "$f.run*" >/dev/null || return 1
	cat "$f".run* >"$f"
	[[ -s $f ]] && echo "$f"
}
# keys_runs_p99 MODE SIZE: each run's p99, "a/b/c".
keys_runs_p99() {
	local f out=()
	for f in "${KEYS_DIR:-/nonexistent}/$1-$2".run*; do
		[[ -s $f ]] && out+=("$(keys_pct "$f" 99)")
	done
	local IFS=/
	echo "${out[*]}"
}
# keys_pct FILE P: the P-th percentile (nearest rank) in ms; P=100 is the max.
keys_pct() {
	sort -n "$1" | awk -v p="$2" '{v[NR] = $1} END {i = int(p / 100 * NR); if (i < p / 100 * NR) i++; if (i < 1) i = 1; printf "%.1f", v[i] / 1000}'
}
keys_row() { # keys_row MODE SIZE
	local f n idle ratio=-
	f="$(keys_file "$1" "$2")" || { [[ -n ${FAILS["keys $1|$2"]:-} ]] && printf '%-8s %-7s %5s  no key timed\n' "$1" "$2" "0/${FAILS["keys $1|$2"]}"; return 0; }
	n=$(wc -l <"$f")
	if [[ $1 == flood ]] && idle="$(keys_file idle "$2")"; then
		ratio="$(ratio "$(keys_pct "$f" 50)" "$(keys_pct "$idle" 50)")"
	fi
	printf '%-8s %-7s %5s %6s %7s %7s %7s %7s %9s  %s\n' "$1" "$2" "${KEYS_RUNS["$1 $2"]:-0}/$((${KEYS_RUNS["$1 $2"]:-0} + ${FAILS["keys $1|$2"]:-0}))" \
		"$n" "$(keys_pct "$f" 50)" "$(keys_pct "$f" 90)" "$(keys_pct "$f" 99)" "$(keys_pct "$f" 100)" "$ratio" "$(keys_runs_p99 "$1" "$2")"
}
# idle_builds: the idle figures of the two builds side by side: the
# checkout's (go.work, the patched renderer) and go install's (GOWORK=off,
# upstream bubbletea, which redraws 60 times a second while idle).
idle_builds() {
	[[ -n ${IDLE["idle, go install"]:-} ]] || return 0
	local what k s c s2 c2
	echo
	echo "== idle, the two builds: wake-ups (context switches of all threads) per second and CPU %, over 10 s =="
	printf '%-26s  %-30s  %-30s\n' "" "checkout (go.work, patched)" "go install (upstream ${UPSTREAM_TEA:-})"
	for what in "idle" "idle, form open"; do
		k="$what, go install"
		[[ -n ${IDLE[$what]:-} && -n ${IDLE[$k]:-} ]] || continue
		read -r s c <<<"${IDLE[$what]}"
		read -r s2 c2 <<<"${IDLE[$k]}"
		printf '%-26s  %-30s  %-30s\n' "${what/idle/at the prompt}" "$s/s, $c %" "$s2/s, $c2 %"
	done
}

keys_report() {
	[[ -d ${KEYS_DIR:-/nonexistent} ]] || return 0 # the keys group did not run
	local m s
	echo
	echo "== keystroke to screen (bench/keylat), $RUNS runs of ${KEYS_N:-?} keys per scenario, pooled =="
	echo "from a key's write to the pseudo-terminal until its screen shows the key in its prompt cell; a pause of 50-150 ms"
	echo "after each draw; flood: keys typed while lines 100000 streams (a fresh elicit per flood); floor: a program"
	echo "that echoes each key at once (the harness itself); flood/idle: ratio of the p50s; p99 per run: each run alone"
	echo
	printf '%-8s %-7s %5s %6s %7s %7s %7s %7s %9s  %s\n' scenario size runs keys p50_ms p90_ms p99_ms max_ms flood/idle "p99 per run"
	for s in 100x32 200x60; do
		for m in floor idle flood; do keys_row "$m" "$s"; done
	done
	local f p
	for s in 100x32 200x60; do
		f="$(keys_file floor "$s")" || continue
		p="$(keys_pct "$f" 99)"
		if [[ $(verdict "$p" 5) == MISS ]]; then
			echo "NOTE: the floor's p99 at $s is $p ms: the machine itself delayed keys (other load); read the tails with care"
		fi
	done
}
# keys_target LABEL MODE SIZE: p99 against 16 ms; a run that lost a key misses.
keys_target() {
	local f lost=${FAILS["keys $2|$3"]:-0} v=n/a
	f="$(keys_file "$2" "$3")" && v="$(keys_pct "$f" 99)"
	[[ -n $f || $lost -gt 0 ]] || return 0
	if ((lost > 0)); then
		printf '%-50s %8s  %-9s %s\n' "$1" "$v" "<= 16" "MISS ($lost runs lost a key)"
	else
		target "$1" "$v" "<= 16" 16
	fi
}

report() {
	local key s c n
	echo
	echo "== elicit vs the no-UI client (bench/noui), $RUNS runs each, alternating =="
	echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
		"$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo); load average $load_start at start, $load_end at end"
	echo "wall: median ms per process (tmux: Enter until the status bar says ready, polled every ${POLL}s)"
	echo "cpu: median ms of the client process alone (tmux: Enter until 1 s after ready); post: CPU ms in that second"
	echo "RSS: highest peak (VmHWM) of the client process alone"
	echo
	printf '%-13s %-13s %5s %9s %8s %9s %9s\n' scenario client ok wall_ms cpu_ms post_ms RSS_MiB
	for key in "flood 20000|noui" "flood 20000|elicit -p" "flood 20000|tmux 100x32" \
		"lines 20000|noui" "lines 20000|elicit -p" "lines 20000|tmux 100x32" "lines 20000|tmux 200x60" \
		"lines 100000|noui" "lines 100000|elicit -p" "lines 100000|tmux 100x32" "lines 100000|tmux 200x60" \
		"lines 200000|noui" "lines 200000|elicit -p" "lines 200000|tmux 100x32" \
		"forms 500|noui" "forms 500|elicit -p" "forms 2000|noui" "forms 2000|elicit -p"; do
		row "$key"
	done
	keys_report
	echo
	echo "== targets =="
	printf '%-50s %8s  %-9s %s\n' measure value target result
	for n in 20000 100000; do
		for s in 100x32 200x60; do
			has "lines $n|tmux $s" && target "lines $n, full screen $s: wall / floor" \
				"$(ratio "$(med "lines $n|tmux $s")" "$(med "lines $n|noui")")" "<= 1.05" 1.05
		done
	done
	for n in 20000 100000; do
		for s in 100x32 200x60; do
			has "lines $n|tmux $s" && target "lines $n, full screen $s: CPU / floor CPU" \
				"$(ratio "$(mcpu "lines $n|tmux $s")" "$(mcpu "lines $n|noui")")" "<= 1.3" 1.3
		done
	done
	for n in 20000 100000; do
		has "lines $n|tmux 100x32" && target "lines $n, full screen: CPU ms in the second after ready" \
			"$(mpost "lines $n|tmux 100x32")" "< 20" 19.99
	done
	for n in 20000:40 100000:60 200000:80; do
		has "lines ${n%:*}|tmux 100x32" && target "lines ${n%:*}, full screen: peak RSS MiB" \
			"$(mib "$(peak "lines ${n%:*}|tmux 100x32")")" "<= ${n#*:}" "${n#*:}"
	done
	for n in 500 2000; do
		has "forms $n|elicit -p" || continue
		target "forms $n (-p): wall / floor" "$(ratio "$(med "forms $n|elicit -p")" "$(med "forms $n|noui")")" "<= 1.05" 1.05
		target "forms $n (-p): CPU / floor CPU" "$(ratio "$(mcpu "forms $n|elicit -p")" "$(mcpu "forms $n|noui")")" "<= 1.15" 1.15
	done
	for key in "idle" "idle, form open"; do
		[[ -n ${IDLE[$key]:-} ]] || continue
		read -r s c <<<"${IDLE[$key]}"
		target "$key: context switches per second" "$s" "<= 5" 5
		target "$key: CPU %" "$c" "< 0.1" 0.099
	done
	idle_builds
	for s in 100x32 200x60; do
		keys_target "keys during lines 100000 flood, $s: p99 ms" flood "$s"
	done
	for s in 100x32 200x60; do
		keys_target "keys at the idle prompt (baseline), $s: p99 ms" idle "$s"
	done
	if [[ -n ${START_FRAME:-} ]]; then
		read -r s c <<<"$START_FRAME"
		target "first frame ms (elicit $s - shell $c)" "$((s - c))" "<= 30" 30
		target "package init ms (floor noui: $(awk -v u="$INIT_FLOOR_US" 'BEGIN {printf "%.1f", u / 1000}'))" \
			"$(awk -v u="$INIT_US" 'BEGIN {printf "%.1f", u / 1000}')" "<= 10" 10
		echo "  heaviest inits: $INIT_TOP"
	fi
	n=0
	for key in "${!FAILS[@]}"; do n=$((n + FAILS[$key])); done
	((n == 0)) || echo "WARNING: $n runs failed or did not do all the work; they are left out of the medians"
}
