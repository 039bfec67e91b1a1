# bench/report.sh: the tables and the targets for bench/run.sh, which
# sources it and calls report after filling MS, RSS, CPU, POST, IDLE and
# FAILS (keys "scenario|client"), and for the keys group KEYS_DIR (pooled
# latencies in µs, one file per "MODE-SIZE"), KEYS_RUNS and KEYS_N.
# shellcheck shell=bash
#
# Run as a script (bash bench/report.sh), it runs bench/run.sh: every
# group, old rows and new, side by side in one run, then the tables.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	exec bash "$(dirname "${BASH_SOURCE[0]}")/run.sh" "$@"
fi

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

# serve_field N FIELD: FIELD's values (servebench's key=value) over the
# runs with N clients, one a line.
serve_field() {
	printf '%s' "${SERVE[$1]:-}" | tr ' ' '\n' | awk -F= -v k="$2" '$1 == k {print $2}'
}
serve_report() {
	local n
	[[ -n ${SERVE[1]:-}${SERVE[10]:-}${SERVE[50]:-}${SERVE_IDLE:-} ]] || return 0
	echo
	echo "== elicit serve with N attached AHP clients (bench/servebench), $RUNS runs each =="
	echo "draft: from client 1's InputAnswerChanged until each other client has it; p99: the highest of the runs'"
	echo "RSS: the host's VmRSS with 1 client and with N; per client: (N - 1) / (N - 1 clients), median of the runs"
	echo
	printf '%-8s %5s %8s %8s %8s %9s %12s %12s\n' clients runs p50_ms p99_ms max_ms rssN_MiB per_client_KiB idle_wakes/s
	for n in 1 10 50; do
		[[ -n ${SERVE[$n]:-} ]] || continue
		printf '%-8s %5s %8s %8s %8s %9s %12s %12s\n' "$n" "$(serve_field "$n" clients | wc -l)" \
			"$(serve_field "$n" p50_ms | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')" \
			"$(serve_field "$n" p99_ms | sort -n | tail -1)" "$(serve_field "$n" max_ms | sort -n | tail -1)" \
			"$(mib "$(serve_field "$n" rssN_kib | sort -n | tail -1)")" \
			"$(median $(serve_field "$n" per_client_kib))" "$(serve_field "$n" idle_wakeups_per_s | sort -n | tail -1)"
	done
	if [[ -n ${SERVE_IDLE:-} ]]; then
		read -r n c <<<"$SERVE_IDLE"
		echo "idle with the form open, over 10 s: elicit attach (full screen, tmux) $n wake-ups/s; the host $c/s"
	fi
}
serve_targets() {
	local n a h
	for n in 1 10 50; do
		[[ -n ${SERVE[$n]:-} ]] || continue
		target "serve, $n clients: draft to every other client, p99 ms" "$(serve_field "$n" p99_ms | sort -n | tail -1)" "<= 50" 50
	done
	for n in 10 50; do
		[[ -n ${SERVE[$n]:-} ]] || continue
		target "serve, $n clients: host memory per client, KiB" "$(median $(serve_field "$n" per_client_kib))" "<= 1024" 1024
	done
	for n in 1 10 50; do
		[[ -n ${SERVE[$n]:-} ]] || continue
		target "serve, $n clients: idle host wake-ups per second" "$(serve_field "$n" idle_wakeups_per_s | sort -n | tail -1)" "0" 0
	done
	if [[ -n ${SERVE_IDLE:-} ]]; then
		read -r a h <<<"$SERVE_IDLE"
		target "serve: idle elicit attach, form open: wake-ups/s" "$a" "0" 0
		target "serve: its idle host: wake-ups/s" "$h" "0" 0
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
		"forms 500|noui" "forms 500|elicit -p" "forms 2000|noui" "forms 2000|elicit -p" \
		"mcp 1000|floor" "mcp 1000|elicit call" "mcp 1000|elicit call -q" "mcp ready|floor -list" "mcp ready|elicit tools" \
		"real|noui -ready" "real|elicit" \
		"remote 100000|stdio" "remote 100000|ws" "remote 100000|http"; do
		row "$key"
	done
	[[ -n ${MCP_SKIP:-} ]] && echo "mcp 1000: not run: $MCP_SKIP"
	mcp_forms_report
	[[ -n ${REMOTE_SKIP:-} ]] && echo "remote: not run: $REMOTE_SKIP"
	[[ -n ${REAL_SKIP:-} ]] && echo "real: not run: $REAL_SKIP"
	has "real|elicit" && echo "(real: wall is from creating the pane until \"ready\" shows, start-up included; no CPU or RSS read)"
	keys_report
	serve_report
	inbox_report
	long_report
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
	for tr in ws:WebSocket http:HTTP+SSE; do
		has "remote 100000|${tr%%:*}" || continue
		target "remote -p turn, ${tr#*:}: wall / stdio" \
			"$(ratio "$(med "remote 100000|${tr%%:*}")" "$(med "remote 100000|stdio")")" "<= 1.2" 1.2
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
	for key in "elicit call" "elicit call -q"; do
		has "mcp 1000|$key" || continue
		target "mcp call${key#elicit call}, 1000 forms in one call: wall / floor" "$(ratio "$(med "mcp 1000|$key")" "$(med "mcp 1000|floor")")" "<= 1.05" 1.05
		target "mcp call${key#elicit call}, 1000 forms in one call: CPU / floor CPU" "$(ratio "$(mcpu "mcp 1000|$key")" "$(mcpu "mcp 1000|floor")")" "<= 1.15" 1.15
	done
	serve_targets
	inbox_targets
	long_targets
	if has "real|elicit"; then
		target "ready with claude-agent-acp: elicit / noui -ready" "$(ratio "$(med "real|elicit")" "$(med "real|noui -ready")")" "<= 1.1" 1.1
	fi
	if [[ -n ${START_READY:-} ]]; then
		read -r s c <<<"$START_READY"
		target "ready with the demo agent ms (elicit $s - shell $c)" "$((s - c))" "<= 40" 40
	fi
	if [[ -n ${START_MCP_READY:-} ]]; then
		read -r s c <<<"$START_MCP_READY"
		target "ready, elicit mcp: tools listed ms (elicit $s - shell $c)" "$((s - c))" "<= 40" 40
	fi
	if has "mcp ready|elicit tools"; then
		echo "ready, whole process (start, connect, list the tools, exit): elicit mcp tools $(med "mcp ready|elicit tools") ms," \
			"mcpfloor -list $(med "mcp ready|floor -list") ms; CPU $(mcpu "mcp ready|elicit tools") / $(mcpu "mcp ready|floor -list") ms"
	fi
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

# mcp_forms_report: the server's own time for the 1000 forms (first
# question to last answer), each client's median, and its ratio to the
# floor's: the part of a call that is not start-up and exit.
mcp_forms_report() {
	local key f floor
	[[ -n ${MCP_FORMS["mcp 1000|floor"]:-} ]] || return 0
	floor=$(median ${MCP_FORMS["mcp 1000|floor"]})
	printf 'mcp 1000, the forms alone (mcpforms: first question to last answer):'
	for key in floor "elicit call" "elicit call -q"; do
		[[ -n ${MCP_FORMS["mcp 1000|$key"]:-} ]] || continue
		f=$(median ${MCP_FORMS["mcp 1000|$key"]})
		printf ' %s %s ms (%s);' "$key" "$f" "$(ratio "$f" "$floor")"
	done
	echo
}
