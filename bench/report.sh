# bench/report.sh: the table and the targets for bench/run.sh, which
# sources it after filling MS, RSS and FAILS (keys "scenario|client").
# shellcheck shell=bash

# median N...: the median of integers (mean of the middle two when even).
median() {
	(($# == 0)) && { echo 0; return; }
	printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : int((v[NR/2]+v[NR/2+1])/2)}'
}
minmax() { printf '%s\n' "$@" | sort -n | awk 'NR==1{lo=$1} {hi=$1} END {print lo "-" hi}'; }
maxof() { printf '%s\n' "$@" | sort -n | tail -1; }

# med KEY / peak KEY: the median wall ms / the highest peak RSS (KiB) of KEY.
med() { median ${MS[$1]:-}; }
peak() { maxof ${RSS[$1]:-0}; }

# verdict VALUE LIMIT: PASS when VALUE <= LIMIT.
verdict() { awk -v v="$1" -v l="$2" 'BEGIN {print (v <= l) ? "PASS" : "MISS"}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b == 0) print "n/a"; else printf "%.2f", a / b}'; }

row() {
	local key=$1 n ok
	[[ -n ${MS[$key]:-} || -n ${FAILS[$key]:-} ]] || return 0
	read -ra ms_list <<<"${MS[$key]:-}"
	ok=${#ms_list[@]}
	n=$((ok + ${FAILS[$key]:-0}))
	printf '%-14s %-12s %5s %10s %13s %14s\n' "${key%%|*}" "${key#*|}" "$ok/$n" "$(med "$key")" \
		"$( ((ok)) && minmax "${ms_list[@]}")" "$(awk -v k="$(peak "$key")" 'BEGIN {printf "%.1f", k / 1024}')"
}

target() { # target LABEL VALUE LIMIT-TEXT LIMIT
	printf '%-52s %8s  %-14s %s\n' "$1" "$2" "$3" "$( [[ $2 == n/a ]] && echo "n/a" || verdict "$2" "$4")"
}

report() {
	local n c key
	echo
	echo "== elicit vs the no-UI client (bench/noui), demo agent, $RUNS runs each, alternating =="
	echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"\
		"$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo); load average $load_start at start, $load_end at end"
	echo "wall: median (min-max) ms per process; tmux rows: from Enter until the status bar says ready,"
	echo "      polled every ${POLL}s with capture-pane (nothing subtracted)"
	echo "RSS: the client process's own peak (VmHWM), the demo agent child not included; highest of the runs"
	echo
	printf '%-14s %-12s %5s %10s %13s %14s\n' scenario client ok median_ms "min-max ms" peak_RSS_MiB
	for key in "flood 20000|noui" "flood 20000|elicit -p" "flood 20000|elicit tmux" \
		"flood 40000|noui" "flood 40000|elicit -p" "flood 40000|elicit tmux" \
		"forms 500|noui" "forms 500|elicit -p" "hello|noui" "hello|elicit -p"; do
		row "$key"
	done
	((have_tmux)) || echo "(tmux not found: the full-screen rows were skipped)"
	echo
	echo "== targets (issue 6) =="
	printf '%-52s %8s  %-14s %s\n' measure value target result
	for n in 20000 40000; do
		for c in "elicit -p" "elicit tmux"; do
			[[ -n ${MS[flood $n|$c]:-} ]] || continue
			target "stream $n: $c / noui wall" "$(ratio "$(med "flood $n|$c")" "$(med "flood $n|noui")")" "<= 1.2" 1.2
		done
	done
	for c in "elicit -p" "elicit tmux" "noui"; do
		[[ -n ${MS[flood 20000|$c]:-} ]] || continue
		target "stream 40000 / 20000 wall, $c" "$(ratio "$(med "flood 40000|$c")" "$(med "flood 20000|$c")")" "<= 2.1" 2.1
	done
	for n in 20000 40000; do
		for c in "elicit -p" "elicit tmux"; do
			[[ -n ${MS[flood $n|$c]:-} ]] || continue
			target "stream $n: $c peak RSS - noui's (MiB)" \
				"$(awk -v a="$(peak "flood $n|$c")" -v b="$(peak "flood $n|noui")" 'BEGIN {printf "%.1f", (a - b) / 1024}')" "<= 40" 40
		done
	done
	target "500 forms: elicit -p / noui wall" "$(ratio "$(med "forms 500|elicit -p")" "$(med "forms 500|noui")")" "<= 1.2" 1.2
	printf '%-52s %8s  %-14s %s\n' "startup + hello turn: elicit -p / noui wall" \
		"$(ratio "$(med "hello|elicit -p")" "$(med "hello|noui")")" "(no target)" \
		"elicit - noui = $(($(med "hello|elicit -p") - $(med "hello|noui"))) ms"
	local failed=0
	for key in "${!FAILS[@]}"; do failed=$((failed + FAILS[$key])); done
	((failed == 0)) || echo "WARNING: $failed runs failed or did not do all the work; they are left out of the medians"
}
