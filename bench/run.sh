#!/usr/bin/env bash
# bench/run.sh: elicit against the no-UI floor (bench/noui), side by side
# in one run, alternating the clients; prints medians, ratios and targets.
#
#   bash bench/run.sh                      # 5 runs of each scenario
#   BENCH_RUNS=9 bash bench/run.sh         # more runs
#   BENCH_ONLY="lines idle" bash bench/run.sh   # some groups: flood lines forms idle start keys mcp serve inbox real remote long
#   BENCH_LONG="40" BENCH_LONG_BASE=/path/to/old/elicit bash bench/run.sh   # long sessions' lengths; a build beside
#   BENCH_POLL=0.01 bash bench/run.sh      # full-screen poll interval, seconds
#   BENCH_KEYS=200 bash bench/run.sh       # keys timed per keys scenario and run
#
# Workloads: the demo agent's "flood N" (N one-word chunks), bench/lineagent's
# "lines N" (N chunks of one 60-byte line each, as a real agent's reply),
# the demo agent's "/forms N" (N sequential forms). Full screen runs in tmux
# at 100x32 and 200x60. Needs go, Linux /proc and tmux (full-screen rows are
# skipped without it).
#
# Per run: wall time (bash EPOCHREALTIME around the process, or from Enter
# until the status bar says ready); CPU time of the client process alone
# (utime+stime from /proc/PID/stat, all its threads, not the agent child;
# 10 ms ticks); peak RSS of the client alone (VmHWM). Full screen also
# reads the CPU spent in the second after "ready" (the final render of the
# last reply, plus idle). Whole processes (-p, noui, mcp call, mcpfloor)
# run under bench/exitstat: their CPU is read once they have exited and
# before they are reaped, their VmHWM every 5 ms.
#
# keys (bench/keylat, no tmux): keystroke to screen. elicit full screen in
# a pseudo-terminal (100x32, 200x60); single keys typed into the prompt,
# each timed from its write until the pty's screen shows it in its cell:
# at the idle prompt, and during the lines 100000 flood (the same agent
# and prompt as the full-screen lines rows); the floor is a program that
# echoes each key at once. BENCH_KEYS keys per scenario and run, pooled.
#
# mcp: `elicit mcp call` on bench/mcpforms (an MCP server on the Go SDK
# that asks 1000 forms in one tool call), answered from --answers, as it
# is (a line on stderr for each form) and with --quiet, against
# bench/mcpfloor (a bare client on the same SDK, the same answers, no UI);
# mcpforms also says how long the forms took by its clock (first question
# to last answer: the clients' start-up and exit left out). And "ready",
# whole processes: `elicit mcp tools` against `mcpfloor -list` (start,
# connect, list the tools, exit). Skipped, with a line that says so, while
# elicit has no `mcp call`.
#
# inbox (bench/inbox.sh): bench/inboxbench with 50 sessions registered: a
# new question until `elicit inbox list` lists it, and until the inbox's
# screen (`elicit inbox` on a pseudo-terminal) shows it; an idle session's
# wake-ups with the inbox on, and the idle screen's.
#
# serve: bench/servebench attaches 1, 10 and 50 AHP clients to `elicit
# serve -p /form`: a draft's fan-out to every other client, the host's RSS
# per attached client, the idle host's wake-ups; and a real `elicit
# attach` (tmux) idle with the form open.
#
# start: also "ready": from creating the pane until the status bar says
# ready with the demo agent (elicit itself, so it pays start-up twice), and
# MCP's: until `elicit mcp` on bench/mcpforms shows the server's tool.
#
# real: start-up to "ready" with claude-agent-acp (pinned, from the cache
# scripts/e2e-real-agents.sh installs, run unprivileged with setpriv)
# against the loopback model mock: elicit full screen against
# `noui -ready`, both timed in tmux from creating the pane until "ready"
# shows. Skipped, with a line that says so, when the agent is not cached.
#
# long (bench/long.sh): one full screen at 200x60 through a session of
# forty "lines 20000" turns, then one of four hundred: RSS after each turn
# and the time of each, against BENCH_LONG_BASE's build when given.
#
# remote: elicit -p with the lines agent over stdio, and with the same
# agent served on loopback by bench/acpserve (one agent process per
# connection) over WebSocket and over HTTP+SSE (--url, --transport), in
# turn: the wall time of a remote turn against the stdio one.
set -uo pipefail
export LC_ALL=C

RUNS="${BENCH_RUNS:-5}"
POLL="${BENCH_POLL:-0.02}"
ONLY="${BENCH_ONLY:-flood lines forms idle start keys mcp serve inbox real remote long}"
KEYS_N="${BENCH_KEYS:-100}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d)"
sock="elicit-bench-$$"
bg_pids=()
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	((${#bg_pids[@]})) && kill "${bg_pids[@]}" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "building elicit and the bench programs into $tmp ..."
(cd "$root" && go build -o "$tmp/elicit" . && go build -o "$tmp/noui" ./bench/noui &&
	go build -o "$tmp/lineagent" ./bench/lineagent && go build -o "$tmp/keylat" ./bench/keylat &&
	go build -o "$tmp/mcpforms" ./bench/mcpforms && go build -o "$tmp/mcpfloor" ./bench/mcpfloor &&
	go build -o "$tmp/servebench" ./bench/servebench && go build -o "$tmp/modelmock" ./internal/modelmock/cmd/modelmock &&
	go build -o "$tmp/acpserve" ./bench/acpserve && go build -o "$tmp/exitstat" ./bench/exitstat &&
	go build -o "$tmp/inboxbench" ./bench/inboxbench) || {
	echo "build failed" >&2
	exit 1
}
# The idle group compares the checkout's build (go.work: the patched
# bubbletea in third_party/) with the build go install makes (no
# workspace: upstream bubbletea, as go.mod requires it).
if [[ " $ONLY " == *" idle "* ]]; then
	echo "building elicit without the workspace (GOWORK=off: upstream bubbletea) ..."
	(cd "$root" && GOWORK=off go build -o "$tmp/elicit-upstream" .) || {
		echo "GOWORK=off build failed" >&2
		exit 1
	}
	UPSTREAM_TEA="$(cd "$root" && GOWORK=off go list -m -f '{{.Version}}' charm.land/bubbletea/v2)"
fi
cd "$tmp" || exit 1
have_tmux=1
command -v tmux >/dev/null || have_tmux=0
want() { [[ " $ONLY " == *" $1 "* ]]; }

# A file descriptor nothing ever writes to: read -t on it sleeps without a fork.
exec {sleepfd}<> <(:)
nap() { read -r -t "$1" -u "$sleepfd" _ || true; }
usec() { echo "${1/./}"; }

# cpu_ms PID: utime+stime of PID (all threads) in ms; empty when gone.
cpu_ms() {
	local st
	read -r -a st 2>/dev/null <"/proc/$1/stat" || return 1
	echo $(((st[13] + st[14]) * 10))
}
# hwm PID: VmHWM of PID in KiB (empty for a zombie).
hwm() {
	local k v
	while read -r k v _; do [[ $k == VmHWM: ]] && { echo "$v"; return; }; done 2>/dev/null <"/proc/$1/status"
}
# switches PID: voluntary + involuntary context switches of all PID's threads.
switches() {
	local n=0 k v f
	for f in /proc/"$1"/task/*/status; do
		while read -r k v _; do
			[[ $k == voluntary_ctxt_switches: || $k == nonvoluntary_ctxt_switches: ]] && n=$((n + v))
		done <"$f"
	done
	echo "$n"
}

# measure OUT CMD...: run CMD with stdout in OUT; sets ms, rss (KiB), cpu (ms), rc.
# bench/exitstat reads the peak and, once CMD has exited and before it is
# reaped, its own CPU time (not its agent's): exact, where a shell poller
# read the last CPU it saw before the exit.
measure() {
	local out=$1 start end
	shift
	start=$EPOCHREALTIME
	rc=0
	"$tmp/exitstat" "$tmp/watch" "$@" >"$out" 2>"$out.err" || rc=$?
	end=$EPOCHREALTIME
	read -r rss cpu <"$tmp/watch"
	post=0
	ms=$((($(usec "$end") - $(usec "$start")) / 1000))
}

t() { tmux -L "$sock" -f /dev/null "$@"; }
# wait_status ROW PATTERN WANT TIMEOUT: poll line ROW every POLL seconds
# until it matches PATTERN (WANT=1) or stops matching it (WANT=0).
wait_status() {
	local deadline=$((SECONDS + $4)) line
	while ((SECONDS < deadline)); do
		line="$(t capture-pane -p -t b -S "$1" -E "$1")"
		if [[ $line == *"$2"* ]]; then (($3 == 1)) && return 0; else (($3 == 0)) && return 0; fi
		nap "$POLL"
	done
	return 1
}

# start_tmux COLS ROWS CMD: elicit full-screen in a COLSxROWS pane; sets pid.
start_tmux() {
	t kill-server 2>/dev/null
	t new-session -d -s b -x "$1" -y "$2" "$3"
	pid="$(t display-message -p -t b '#{pane_pid}')"
}

# measure_tmux COLS ROWS PROMPT [AGENT...]: from Enter until the status bar
# says ready again. Sets ms, cpu (Enter to ready + 1 s), post (the second
# after ready), rss, rc.
measure_tmux() {
	local cols=$1 rows=$2 prompt=$3 start end c0 c1 c2
	shift 3
	rc=1 ms=0 rss=0 cpu=0 post=0
	start_tmux "$cols" "$rows" "exec $tmp/elicit $*"
	wait_status $((rows - 1)) "· ready" 1 30 || { t kill-server 2>/dev/null; return; }
	t send-keys -t b -l -- "$prompt"
	c0=$(cpu_ms "$pid")
	start=$EPOCHREALTIME
	t send-keys -t b Enter
	wait_status $((rows - 1)) "· ready" 0 10 || { t kill-server 2>/dev/null; return; }
	wait_status $((rows - 1)) "· ready" 1 300 || { t kill-server 2>/dev/null; return; }
	end=$EPOCHREALTIME
	c1=$(cpu_ms "$pid")
	nap 1
	c2=$(cpu_ms "$pid")
	rss=$(hwm "$pid")
	cpu=$((c2 - c0)) post=$((c2 - c1))
	rc=0
	ms=$((($(usec "$end") - $(usec "$start")) / 1000))
	t kill-server 2>/dev/null
}

declare -A MS RSS CPU POST FAILS
record() { # record KEY ok|bad
	if [[ $2 == ok ]]; then
		MS[$1]+="$ms " RSS[$1]+="$rss " CPU[$1]+="$cpu " POST[$1]+="$post "
	else
		FAILS[$1]=$((${FAILS[$1]:-0} + 1))
		echo "  run failed: $1 (rc=$rc)" >&2
	fi
}

check_noui() { grep -Eq "^updates=$2 forms=$3 stop=end_turn$" "$1" && ((rc == 0)) && echo ok || echo bad; }
check_words() { ((rc == 0 && $(wc -w <"$1") == $2)) && echo ok || echo bad; }
check_lines() { ((rc == 0 && $(wc -l <"$1") == $2)) && echo ok || echo bad; }
check_forms_p() { grep -q "Accepted $2 of $2 forms" "$1" && ((rc == 0)) && echo ok || echo bad; }
check_rc() { ((rc == 0)) && echo ok || echo bad; }

# run_stream NAME PROMPT NOUI_UPDATES CHECK CHECK_ARG SIZES [AGENT...]:
# noui and elicit -p alternating, then elicit full screen at each size.
run_stream() {
	local name=$1 prompt=$2 updates=$3 check=$4 arg=$5 sizes=$6 i first size agent=()
	shift 6
	(($#)) && agent=(-- "$@")
	for ((i = 1; i <= RUNS; i++)); do
		echo "$name: run $i of $RUNS"
		for first in $((i % 2)) $(((i + 1) % 2)); do
			if ((first == 1)); then
				measure out "$tmp/noui" -elicit "$tmp/elicit" -p "$prompt" "${agent[@]}"
				record "$name|noui" "$(check_noui out "$updates" 0)"
			else
				measure out "$tmp/elicit" -p "$prompt" "${agent[@]}"
				record "$name|elicit -p" "$($check out "$arg")"
			fi
		done
		((have_tmux)) || continue
		for size in $sizes; do
			measure_tmux "${size%x*}" "${size#*x}" "$prompt" "${agent[@]}"
			record "$name|tmux $size" "$(check_rc)"
		done
	done
}

run_pair() { # run_pair NAME PROMPT NOUI_FORMS CHECK CHECK_ARG
	local i first
	for ((i = 1; i <= RUNS; i++)); do
		echo "$1: run $i of $RUNS"
		for first in $((i % 2)) $(((i + 1) % 2)); do
			if ((first == 1)); then
				measure out "$tmp/noui" -elicit "$tmp/elicit" -p "$2"
				record "$1|noui" "$(check_noui out "[0-9]+" "$3")"
			else
				measure out "$tmp/elicit" --accept-defaults -p "$2"
				record "$1|elicit -p" "$($4 out "$5")"
			fi
		done
	done
}

# run_idle NAME BINARY [PROMPT]: elicit full screen (BINARY) at 100x32 on
# the demo agent, ready (or showing the form PROMPT opens); context
# switches of all its threads and its CPU over 10 s. Sets
# IDLE[NAME]="wakeups/s cpu%".
declare -A IDLE
run_idle() {
	local name=$1 bin=$2 prompt=${3:-} s0 s1 c0 c1
	start_tmux 100 32 "exec $bin"
	wait_status 31 "· ready" 1 30 || { t kill-server 2>/dev/null; return; }
	if [[ -n $prompt ]]; then
		t send-keys -t b -l -- "$prompt"
		t send-keys -t b Enter
		wait_status 31 "question" 1 10 || { t kill-server 2>/dev/null; return; }
	fi
	nap 1
	s0=$(switches "$pid") c0=$(cpu_ms "$pid")
	nap 10
	s1=$(switches "$pid") c1=$(cpu_ms "$pid")
	IDLE[$name]="$(((s1 - s0) / 10)) $(awk -v c=$((c1 - c0)) 'BEGIN {printf "%.2f", c / 100}')"
	t kill-server 2>/dev/null
}

# run_start: first full-screen frame (from starting the pane until any
# text is drawn, minus the same for a shell that prints one line
# there), and package init (GODEBUG=inittrace=1), medians of RUNS.
run_start() {
	local i start end base=() frame=() line
	for ((i = 1; i <= RUNS; i++)); do
		for cmd in "printf '\\033[32;1Hx'; exec sleep 60" "exec $tmp/elicit"; do
			start=$EPOCHREALTIME
			start_tmux 100 32 "$cmd"
			while line="$(t capture-pane -p -t b 2>/dev/null)" && [[ -z ${line//[[:space:]]/} ]]; do nap 0.002; done
			end=$EPOCHREALTIME
			if [[ $cmd == *printf* ]]; then base+=($((($(usec "$end") - $(usec "$start")) / 1000))); else frame+=($((($(usec "$end") - $(usec "$start")) / 1000))); fi
			t kill-server 2>/dev/null
		done
	done
	START_FRAME="$(median "${frame[@]}") $(median "${base[@]}")"
	local ready=()
	for ((i = 1; i <= RUNS; i++)); do
		ready+=("$(time_pane 100 32 "exec $tmp/elicit" "· ready" 31)")
	done
	START_READY="$(median "${ready[@]}") $(median "${base[@]}")"
	ready=()
	for ((i = 1; i <= RUNS; i++)); do
		ready+=("$(time_pane 100 32 "exec $tmp/elicit mcp -- $tmp/mcpforms" "Asks n forms" -1)")
	done
	START_MCP_READY="$(median "${ready[@]}") $(median "${base[@]}")"
	local inits=()
	for ((i = 1; i <= RUNS; i++)); do
		inits+=("$(GODEBUG=inittrace=1 "$tmp/elicit" --version 2>&1 >/dev/null | awk '/^init / {ms += $5} END {printf "%d", ms * 1000}')")
	done
	INIT_US=$(median "${inits[@]}")
	INIT_TOP="$(GODEBUG=inittrace=1 "$tmp/elicit" --version 2>&1 >/dev/null | awk '/^init / {print $5, $2}' | sort -rn | head -3 | awk '{printf "%s %s ms; ", $2, $1}')"
	INIT_FLOOR_US=$(GODEBUG=inittrace=1 "$tmp/noui" -h 2>&1 >/dev/null | awk '/^init / {ms += $5} END {printf "%d", ms * 1000}')
}

# run_keys: keystroke to screen with bench/keylat, per run and size the
# floor, idle and the lines 100000 flood (the order reversed every other
# run). Latencies (µs) go to $KEYS_DIR/MODE-SIZE.runN; KEYS_RUNS counts
# the runs that lost no key; a run that lost one is a failure, printed whole.
KEYS_DIR="$tmp/keys"
declare -A KEYS_RUNS
run_keys() {
	local i size mode modes args out
	mkdir -p "$KEYS_DIR"
	for ((i = 1; i <= RUNS; i++)); do
		echo "keys: run $i of $RUNS"
		modes="floor idle flood"
		((i % 2 == 0)) && modes="flood idle floor"
		for size in 100x32 200x60; do
			for mode in $modes; do
				args=(-mode "$mode" -size "$size" -samples "$KEYS_N" -raw "$KEYS_DIR/$mode-$size.run$i")
				if [[ $mode != floor ]]; then
					args+=(-elicit "$tmp/elicit" -prompt "lines 100000" -- "$tmp/lineagent")
				fi
				if out="$("$tmp/keylat" "${args[@]}" 2>"$tmp/keylat.err")"; then
					KEYS_RUNS[$mode $size]=$((${KEYS_RUNS[$mode $size]:-0} + 1))
					echo "  ${out#keylat }"
				else
					FAILS["keys $mode|$size"]=$((${FAILS["keys $mode|$size"]:-0} + 1))
					echo "  run failed: keys $mode $size" >&2
					cat "$tmp/keylat.err" >&2
				fi
			done
		done
	done
}

# time_pane COLS ROWS CMD TEXT ROW [keep]: ms from creating a COLSxROWS
# pane running CMD until line ROW shows TEXT (ROW -1: anywhere on the
# pane); 0 when it never does within 60 s. The pane is closed after,
# unless keep is given.
time_pane() {
	local start line args=(-S "$5" -E "$5") deadline=$((SECONDS + 60))
	(($5 < 0)) && args=()
	start=$EPOCHREALTIME
	start_tmux "$1" "$2" "$3"
	while line="$(t capture-pane -p -t b "${args[@]}" 2>/dev/null)" && [[ $line != *"$4"* ]]; do
		((SECONDS < deadline)) || { t kill-server 2>/dev/null; echo 0; return; }
		nap 0.002
	done
	echo $((($(usec "$EPOCHREALTIME") - $(usec "$start")) / 1000))
	[[ -n ${6:-} ]] || t kill-server 2>/dev/null
}

# run_mcp: elicit mcp call (as it is, and --quiet) against bench/mcpfloor,
# in turn, on bench/mcpforms asking 1000 forms in one call; then elicit mcp
# tools against mcpfloor -list. Protocol 2025-11-25 for all: the server
# asks inside the call (see bench/mcpforms). MCP_FORMS[KEY] gathers the
# server's "forms took" ms.
declare -A MCP_FORMS
check_mcp() { grep -q "accepted $2 of $2, $2 as expected" "$1" && ((rc == 0)) && echo ok || echo bad; }
check_tools() { grep -q "^forms	" "$1" && ((rc == 0)) && echo ok || echo bad; }
run_mcp() {
	local i first n=1000
	# cobra prints the root's help for an unknown command: look for call's own.
	"$tmp/elicit" mcp call --help >"$tmp/mcp-help" 2>&1
	if ! grep -q "Calls one tool" "$tmp/mcp-help"; then
		MCP_SKIP="elicit has no 'mcp call' command in this build"
		echo "mcp: SKIP: $MCP_SKIP"
		return
	fi
	echo '{"name":"bench","count":3,"ok":true,"color":"green"}' >"$tmp/mcp-answers.json"
	local clients=(floor call quiet) k key st
	for ((i = 1; i <= RUNS; i++)); do
		echo "mcp $n: run $i of $RUNS"
		for k in 0 1 2; do
			case "${clients[(i + k) % 3]}" in
			floor)
				key="mcp $n|floor"
				measure out "$tmp/mcpfloor" -answers "$tmp/mcp-answers.json" -args "{\"n\":$n}" -- "$tmp/mcpforms"
				;;
			call)
				key="mcp $n|elicit call"
				measure out "$tmp/elicit" mcp call forms --protocol 2025-11-25 --args "{\"n\":$n}" \
					--answers "$tmp/mcp-answers.json" -- "$tmp/mcpforms"
				;;
			quiet)
				key="mcp $n|elicit call -q"
				measure out "$tmp/elicit" mcp call forms --quiet --protocol 2025-11-25 --args "{\"n\":$n}" \
					--answers "$tmp/mcp-answers.json" -- "$tmp/mcpforms"
				;;
			esac
			st="$(check_mcp out $n)"
			record "$key" "$st"
			[[ $st == ok ]] && MCP_FORMS[$key]+="$(sed -n 's/.*forms took \([0-9]*\).*/\1/p' out) "
		done
	done
	for ((i = 1; i <= RUNS; i++)); do
		echo "mcp ready: run $i of $RUNS"
		for first in $((i % 2)) $(((i + 1) % 2)); do
			if ((first == 1)); then
				measure out "$tmp/mcpfloor" -list -- "$tmp/mcpforms"
				record "mcp ready|floor -list" "$(check_tools out)"
			else
				measure out "$tmp/elicit" mcp tools --protocol 2025-11-25 -- "$tmp/mcpforms"
				record "mcp ready|elicit tools" "$(check_tools out)"
			fi
		done
	done
}

# run_serve: bench/servebench with 1, 10 and 50 clients (SERVE[N] holds
# one result line per run), then a real elicit attach idle in tmux with
# the form open (SERVE_IDLE="attach_wakeups/s host_wakeups/s").
declare -A SERVE
run_serve() {
	local i n line spid s0 s1 h0 h1 url
	for n in 1 10 50; do
		for ((i = 1; i <= RUNS; i++)); do
			echo "serve, $n clients: run $i of $RUNS"
			if line="$("$tmp/servebench" -elicit "$tmp/elicit" -clients "$n" -drafts 40 -idle 5s 2>"$tmp/servebench.err")"; then
				SERVE[$n]+="$line"$'\n'
			else
				FAILS["serve $n|servebench"]=$((${FAILS["serve $n|servebench"]:-0} + 1))
				echo "  run failed: serve $n clients" >&2
				cat "$tmp/servebench.err" >&2
			fi
		done
	done
	((have_tmux)) || return
	rm -f "$tmp/serve.tok"
	XDG_STATE_HOME="$tmp/serve-state" "$tmp/elicit" serve -p /form --token-file "$tmp/serve.tok" --listen 127.0.0.1:0 \
		>/dev/null 2>"$tmp/serve.err" &
	spid=$!
	bg_pids+=("$spid")
	for ((i = 0; i < 250; i++)); do
		url="$(grep -o 'ws://[^ ]*' "$tmp/serve.err" 2>/dev/null | head -1)"
		[[ -n $url ]] && break
		nap 0.02
	done
	[[ -n $url ]] || { echo "  run failed: elicit serve printed no attach line" >&2; kill "$spid"; return; }
	if (($(time_pane 100 32 "exec $tmp/elicit attach $url --token-file $tmp/serve.tok" "ctrl+s skips" -1 keep) == 0)); then
		echo "  run failed: elicit attach showed no form" >&2
		kill "$spid"
		return
	fi
	pid="$(t display-message -p -t b '#{pane_pid}')"
	nap 1
	s0=$(switches "$pid") h0=$(switches "$spid")
	nap 10
	s1=$(switches "$pid") h1=$(switches "$spid")
	SERVE_IDLE="$(((s1 - s0) / 10)) $(((h1 - h0) / 10))"
	t kill-server 2>/dev/null
	kill "$spid" 2>/dev/null
}

# run_real: start-up to "ready" with claude-agent-acp and the model mock,
# elicit full screen against noui -ready, alternating, both as the agent
# user in tmux (REAL_SKIP says why when it cannot run).
run_real() {
	local cache="${ELICIT_AGENT_CACHE:-$HOME/.cache/elicit-agents}" user="${ELICIT_AGENT_USER:-elicituser}"
	local node_bin="" mock="" mpid i first ms path home dir major
	if [[ ! -x $cache/node_modules/.bin/claude-agent-acp ]]; then
		REAL_SKIP="claude-agent-acp is not in $cache (scripts/e2e-real-agents.sh installs the pinned agents there)"
		echo "real: SKIP: $REAL_SKIP"
		return
	fi
	major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
	if ((major < 22)); then
		node_bin="$(ls -d "$cache"/node22/node_modules/node-linux-*/bin 2>/dev/null | head -1)"
		[[ -n $node_bin ]] || { REAL_SKIP="no Node 22 in $cache/node22"; echo "real: SKIP: $REAL_SKIP"; return; }
	fi
	local run_as=()
	home="$tmp/agent-home" dir="$tmp/agent-work"
	mkdir -p "$home" "$dir"
	chmod 755 "$tmp"
	if [[ $(id -u) == 0 ]]; then
		id "$user" >/dev/null 2>&1 || useradd -m "$user" || { REAL_SKIP="cannot create $user"; echo "real: SKIP: $REAL_SKIP"; return; }
		chown "$user:" "$home" "$dir"
		if ! setpriv --reuid="$user" --regid="$user" --init-groups test -r "$cache/node_modules/.bin"; then
			cp -al "$cache" "$tmp/agents" 2>/dev/null || cp -a "$cache" "$tmp/agents"
			chmod -R a+rX "$tmp/agents"
			[[ -n $node_bin ]] && node_bin="${node_bin/#$cache/$tmp/agents}"
			cache="$tmp/agents"
		fi
		run_as=(setpriv --reuid="$user" --regid="$user" --init-groups)
	fi
	"$tmp/modelmock" -addr 127.0.0.1:0 -log "$tmp/mock.log" -no-stdin >"$tmp/mock.url" 2>>"$tmp/mock.log" &
	mpid=$!
	bg_pids+=("$mpid")
	for ((i = 0; i < 100; i++)); do
		mock="$(head -n1 "$tmp/mock.url" 2>/dev/null)"
		[[ -n $mock ]] && break
		nap 0.05
	done
	[[ -n $mock ]] || { REAL_SKIP="the model mock did not start"; echo "real: SKIP: $REAL_SKIP"; return; }
	path="$cache/node_modules/.bin:/usr/local/bin:/usr/bin:/bin"
	[[ -n $node_bin ]] && path="$node_bin:$path"
	local env="${run_as[*]} env -i HOME=$home PATH=$path TERM=tmux-256color NO_PROXY=127.0.0.1,localhost ANTHROPIC_BASE_URL=$mock ANTHROPIC_API_KEY=mock"
	for ((i = 1; i <= RUNS; i++)); do
		echo "real (claude-agent-acp): run $i of $RUNS"
		for first in $((i % 2)) $(((i + 1) % 2)); do
			if ((first == 1)); then
				ms="$(time_pane 100 32 "cd $dir && $env $tmp/noui -ready -- claude-agent-acp; exec sleep 60" "· ready" -1)"
				key="real|noui -ready"
			else
				ms="$(time_pane 100 32 "cd $dir && exec $env $tmp/elicit -- claude-agent-acp" "· ready" 31)"
				key="real|elicit"
			fi
			if ((ms > 0)); then
				rss=0 cpu=0 post=0
				record "$key" ok
			else
				rc=1
				record "$key" bad
			fi
		done
	done
}

# run_remote: see the head of this file.
run_remote() {
	local i k url lines=100000
	"$tmp/acpserve" -- "$tmp/lineagent" >"$tmp/acpserve.url" 2>"$tmp/acpserve.err" &
	bg_pids+=("$!")
	for ((i = 0; i < 100; i++)); do
		url="$(head -n1 "$tmp/acpserve.url" 2>/dev/null)"
		[[ -n $url ]] && break
		nap 0.05
	done
	[[ -n $url ]] || { REMOTE_SKIP="bench/acpserve did not start"; echo "remote: SKIP: $REMOTE_SKIP"; return; }
	local clients=(stdio ws http)
	for ((i = 1; i <= RUNS; i++)); do
		echo "remote $lines: run $i of $RUNS"
		for k in 0 1 2; do
			case "${clients[(i + k) % 3]}" in
			stdio) measure out "$tmp/elicit" --no-history -p "lines $lines" -- "$tmp/lineagent" ;;
			ws) measure out "$tmp/elicit" --no-history -p "lines $lines" --url "$url" --transport ws ;;
			http) measure out "$tmp/elicit" --no-history -p "lines $lines" --url "$url" --transport http ;;
			esac
			record "remote $lines|${clients[(i + k) % 3]}" "$(check_lines out "$lines")"
		done
	done
}

# shellcheck source=bench/report.sh
source "$root/bench/report.sh"
# shellcheck source=bench/long.sh
source "$root/bench/long.sh"
# shellcheck source=bench/inbox.sh
source "$root/bench/inbox.sh"
load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
if want flood; then
	run_stream "flood 20000" "flood 20000" 20001 check_words 20000 "100x32"
fi
if want lines; then
	for n in 20000 100000; do
		run_stream "lines $n" "lines $n" "$n" check_lines "$n" "100x32 200x60" "$tmp/lineagent"
	done
	RUNS_SAVED=$RUNS RUNS=$(((RUNS + 1) / 2))
	run_stream "lines 200000" "lines 200000" 200000 check_lines 200000 "100x32" "$tmp/lineagent"
	RUNS=$RUNS_SAVED
fi
if want forms; then
	run_pair "forms 500" "/forms 500" 500 check_forms_p 500
	run_pair "forms 2000" "/forms 2000" 2000 check_forms_p 2000
fi
if want idle && ((have_tmux)); then
	run_idle "idle" "$tmp/elicit"
	run_idle "idle, form open" "$tmp/elicit" "/form"
	run_idle "idle, go install" "$tmp/elicit-upstream"
	run_idle "idle, form open, go install" "$tmp/elicit-upstream" "/form"
fi
if want start && ((have_tmux)); then
	run_start
fi
if want remote; then
	run_remote
fi
if want keys; then
	run_keys
fi
if want mcp; then
	run_mcp
fi
if want serve; then
	run_serve
fi
if want inbox; then
	run_inbox
fi
if want real && ((have_tmux)); then
	run_real
fi
if want long && ((have_tmux)); then
	run_long
fi
load_end="$(cut -d' ' -f1-3 /proc/loadavg)"
report
