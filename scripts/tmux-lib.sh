# Helpers for the end-to-end scripts: drive the real elicit binary in a
# private tmux server, the way a person would at a keyboard.
# shellcheck shell=bash

E2E_SOCK="elicit-e2e-$$"
# E2E_TIMEOUT, in seconds, is the one bound of every wait: long enough that
# a machine busy with other work never reaches it, so reaching it means
# what is waited for never comes (a hang). Every wait is for an event: a
# text on the screen (read whole), a line in the trace or a file, the
# program's exit; none is a pause for something to land.
E2E_TIMEOUT="${E2E_TIMEOUT:-120}"
# The terminal's size; a script may change them before start_elicit.
E2E_COLS="${E2E_COLS:-120}"
E2E_ROWS="${E2E_ROWS:-40}"

t() { tmux -L "$E2E_SOCK" -f /dev/null "$@"; }

# start_elicit CMD...: an E2E_COLSxE2E_ROWS session running CMD under a
# shell that, like a person's, stays after it exits and prints its exit
# status, so the terminal's state after exit can be checked.
start_elicit() {
	local cmd
	cmd="$(printf '%q ' "$@")"
	t new-session -d -s e2e -x "$E2E_COLS" -y "$E2E_ROWS" "$cmd; echo \"[elicit exited \$?]\"; exec sleep 3600"
	# The server stays when its last session is killed, so the next
	# start_elicit on this socket never meets one that is going away
	# ("server exited unexpectedly"); e2e_cleanup kills it.
	t set-option -s exit-empty off
}

screen() { t capture-pane -p -t e2e -J; }

# on_screen TEXT: TEXT (a fixed string) is on the screen now. Every poll
# goes through a helper like this one: the screen is read whole before it
# is searched, so neither "not there yet" (grep's 1, fatal in an
# assignment under set -e -o pipefail) nor grep -q leaving the pipe early
# (tmux's SIGPIPE, a 141 that pipefail reports as "not there") can end a
# script or flip an answer.
on_screen() {
	local s
	s="$(screen)"
	grep -qF -- "$1" <<<"$s"
}

# screen_tail N: the last N lines of the screen.
screen_tail() {
	local s
	s="$(screen)"
	tail -n "$1" <<<"$s"
}

# exit_status: the status in the "[elicit exited N]" line, "" while the
# program runs.
exit_status() {
	local s
	s="$(screen)"
	s="$(grep -o '\[elicit exited [0-9]*\]' <<<"$s" | tail -1)" || true
	s="${s#\[elicit exited }"
	echo "${s%\]}"
}

# off_screen TEXT: TEXT (a fixed string) is not on the screen now.
off_screen() { ! on_screen "$1"; }

# poll WHAT CHECK...: run CHECK (a command that reads the screen, the trace
# or a file whole) until it succeeds; after E2E_TIMEOUT seconds fail,
# naming WHAT never came. (A tmux screen cannot be waited on but by
# looking again: every 0.2 s.)
poll() {
	local what="$1" deadline=$((SECONDS + E2E_TIMEOUT))
	shift
	until "$@"; do
		((SECONDS < deadline)) || fail "no $what after $E2E_TIMEOUT s: it hangs"
		sleep 0.2
	done
}

# all_on TEXT...: every TEXT (fixed strings) is on one screen.
all_on() {
	local s x
	s="$(screen)"
	for x in "$@"; do grep -qF -- "$x" <<<"$s" || return 1; done
}

# wait_all TEXT...: wait until every TEXT is on the screen at once (one
# look may catch a frame half drawn).
wait_all() { poll "$(printf '"%s" ' "$@")together on the screen" all_on "$@"; }

# wait_for TEXT: wait until TEXT (a fixed string) is on the screen.
wait_for() { poll "\"$1\" on the screen" on_screen "$1"; }

# wait_gone TEXT: wait until TEXT is no longer on the screen.
wait_gone() { poll "end of \"$1\" on the screen" off_screen "$1"; }

keys() { t send-keys -t e2e "$@"; }

# type_text TEXT: type literally, as keystrokes.
type_text() { t send-keys -t e2e -l -- "$1"; }

# typist_key KEYS...: send-keys, as the typist of type_slowly and
# type_until_docked does.
typist_key() { t send-keys -t e2e "$@"; }

# long_typing_window: give elicit a typing window of a minute (the config
# file's typing_window), for a script that types prose while questions
# come up: a loaded machine can stall the typist (each key is a tmux
# process of its own) past the default second, and a question may then
# take the keys by design (an idle keyboard). With a minute, a question
# that came while typing waits under the prompt until Tab, so what is
# checked is the rule, not the machine's speed. (The idle pause itself is
# the arbiter's unit test's, ui/internal/focus, and the scripts' that
# keep the default.) Call it after e2e_setup, before start_elicit.
long_typing_window=0
long_typing_window() {
	mkdir -p "$XDG_CONFIG_HOME/elicit"
	printf 'typing_window = "1m"\n' >>"$XDG_CONFIG_HOME/elicit/config.toml"
	long_typing_window=1
}

# type_slowly TEXT: type TEXT one key at a time, 60 to 150 ms apart (at
# random), as a person does; a newline in TEXT is an Enter press.
type_slowly() {
	local s="$1" i c
	for ((i = 0; i < ${#s}; i++)); do
		c="${s:i:1}"
		if [ "$c" = $'\n' ]; then typist_key Enter; else typist_key -l -- "$c"; fi
		sleep "0.$(printf '%03d' $((60 + RANDOM % 91)))"
	done
}

pane() { t display-message -p -t e2e "$1"; }

# The line under a question that waits while the user types, right above
# the status bar ("⚑ Demo agent asks a form question · tab to answer"; on
# a narrow screen it is cut short, and the hint goes first).
question_docked() { screen_tail 2 | head -n 1 | grep -q '^⚑ '; }

# question_focused: the front question has the keys (its box sits right
# above the status bar, where the prompt is otherwise; a shared form's
# key line may sit between them).
question_focused() { screen_tail 3 | head -n 2 | grep -q '^╰'; }

# past_grace: wait out the grace of a question the caller saw holding the
# keys (a key within 400 ms of it taking them still counts as typing, and
# a new form ignores keys that long). A timer of elicit's, not a wait for
# something to land: the question took the keys before the caller saw it,
# so 0.6 s from now is past it however loaded the machine.
past_grace() { sleep 0.6; }

# focus_question: let a question that came up take the keys, as a person
# does by pausing (the keyboard idle for a second), and wait out its grace
# (past_grace), so the next key answers it. Under long_typing_window, a
# question docked under the prompt is taken with Tab (which has no grace).
focus_question() {
	if ((long_typing_window)); then
		poll "question docked or taking the keys" docked_or_focused
		if question_docked; then
			keys Tab
			poll "question taking the keys" question_focused
			return
		fi
	fi
	poll "question taking the keys" question_focused
	past_grace
}

# docked_or_focused: a question waits under the prompt or has the keys.
docked_or_focused() { question_docked || question_focused; }

# wait_docked: a question waits under the prompt (the user was typing).
wait_docked() { poll "question docked under the prompt" question_docked; }

# exited: the program has exited.
exited() { [ -n "$(exit_status)" ]; }

# wait_dead: wait for the program to exit; prints its exit status.
wait_dead() {
	poll "exit of elicit" exited
	exit_status
}

# clear_prompt: empty a prompt that holds text, as Ctrl+C twice does
# (quit_elicit needs an empty one: there the first two presses clear it).
clear_prompt() {
	wait_turns_over # during a turn the first press cancels it
	keys C-c C-c
	wait_for "prompt cleared (↑ brings it back)"
}

# quit_elicit: quit from the idle, empty prompt with Ctrl+C twice, in one burst
# (the first press only arms the second, which must follow within 1.5 s:
# sent apart, on a loaded machine it may come later and arm again);
# prints the exit status. e2e-session checks what one press does.
quit_elicit() {
	wait_turns_over # during a turn the first press cancels it
	keys C-c C-c
	wait_dead
}

# assert_restored: the terminal is back to normal after exit.
assert_restored() {
	[ "$(pane '#{alternate_on}')" = 0 ] || { echo "FAIL: still on the alternate screen" >&2; return 1; }
	[ "$(pane '#{cursor_flag}')" = 1 ] || { echo "FAIL: cursor left hidden" >&2; return 1; }
	[ "$(pane '#{mouse_any_flag}')" = 0 ] || { echo "FAIL: mouse reporting left on" >&2; return 1; }
	# The status bar (its key line shows only on a wide screen) and the
	# prompt's placeholder are gone.
	local s
	s="$(screen)"
	! grep -qF -e "f1 keys" -e "Ask the agent…" -e " · ready" <<<"$s" || { echo "FAIL: the UI is still drawn" >&2; return 1; }
}

e2e_cleanup() { t kill-server 2>/dev/null || true; }

# e2e_setup builds the binary and makes a fresh session directory: sets
# bin, work (the --cwd) and log (the --log trace), and the passed count.
# The user's configuration, history and caches are kept out of the run.
e2e_setup() {
	trap e2e_cleanup EXIT
	bin="$(mktemp -d)/elicit"
	go build -o "$bin" .
	work="$(mktemp -d)"
	log="$work/trace.log"
	passed=0
	export XDG_CONFIG_HOME="$work/.config" XDG_STATE_HOME="$work/.state" XDG_CACHE_HOME="$work/.cache"
	unset ACCESSIBLE BROWSER
}

fail() {
	echo "FAIL: $*" >&2
	echo "----- screen -----" >&2
	screen >&2
	exit 1
}

passed_check() {
	passed=$((passed + 1))
	echo "ok: $1"
}

# in_log TEXT: the protocol trace holds TEXT (a fixed string) now.
in_log() { grep -qF -- "$1" "$log" 2>/dev/null; }

# wait_log TEXT: wait until the protocol trace holds TEXT.
wait_log() { poll "\"$1\" in the trace" in_log "$1"; }

# turns_over [LOG]: the agent answered every prompt sent so far, or exited with
# one open (the trace holds a stop reason for each session/prompt request
# since the agent last exited), so the prompt is idle and Ctrl+C quits
# instead of cancelling a turn. For screens whose status bar may not show
# "· ready" (an agent title can fill it). A line with control characters
# in it is traced escaped: \" for ".
turns_over() {
	local trace="${1:-$log}"
	[ -s "$trace" ] || return 0
	awk '/\\?"method\\?":\\?"session\/prompt\\?"/ { open++ }
		/\\?"stopReason\\?":/ { open-- }
		/^[0-9:.]+ -- agent exited/ { open = 0 }
		END { exit open > 0 }' "$trace"
}

# wait_turns_over [LOG]: wait until turns_over.
wait_turns_over() { poll "end of the turn (a stop reason for every prompt in ${1:-$log})" turns_over "$@"; }

# request_ids METHOD: the JSON-RPC ids of the agent's requests of METHOD
# in the trace, one a line.
request_ids() {
	{ grep -F '<- {"jsonrpc":"2.0","id":' "$log" || true; } | { grep -F "\"method\":\"$1\"" || true; } |
		sed -E 's/.*<- \{"jsonrpc":"2.0","id":([0-9]+),.*/\1/'
}

# response_to ID: the client's response (a result or an error) to the
# agent's request ID; "" when none was sent yet.
response_to() { grep -E -- "-> \\{\"jsonrpc\":\"2.0\",\"id\":$1,\"(result|error)\":" "$log" | tail -1 || true; }

# type_until_docked TEXT: type TEXT slowly (as type_slowly, over and over)
# until a question docks under the prompt. Sets typed to what was typed
# and dock_line to the line that announced the question. The question
# takes the keys after a second without one: send the next keys at once.
type_until_docked() {
	local deadline=$((SECONDS + E2E_TIMEOUT)) i=0 c
	typed=""
	until dock_line="$(screen_tail 2 | head -n 1 | grep '^⚑ ')"; do
		((SECONDS < deadline)) || fail "no question docked while typing '$typed'"
		c="${1:i%${#1}:1}"
		typist_key -l -- "$c"
		typed+="$c"
		i=$((i + 1))
		sleep "0.$(printf '%03d' $((60 + RANDOM % 91)))"
	done
}

# prompt_squeezed: what the prompt holds, read off the screen, with every
# space taken out (the prompt wraps at word boundaries and pads its lines,
# so where a space was cannot be told at a wrap): the "› " lines right
# under the last rule; "" for the placeholder of an empty prompt.
prompt_squeezed() {
	screen | awk '
		/^(─)+$/ { rule = NR; n = 0; text = ""; next }
		rule && NR == rule + 1 + n && sub(/^› /, "") { text = text $0; n++; next }
		{ rule = 0; n = 0 }
		END { if (text !~ /^Ask the agent…/) printf "%s", text }' | tr -d ' \n'
}

# Several terminals at once (scripts with more than one elicit: e2e-ahp,
# e2e-inbox), each a tmux session of its own.

# term_screen NAME: the screen of the tmux session NAME.
term_screen() { t capture-pane -p -t "$1" -J; }

# term_has NAME TEXT: TEXT (fixed string) is on NAME's screen now.
term_has() {
	local s
	s="$(term_screen "$1")"
	grep -qF -- "$2" <<<"$s"
}

# term_wait NAME TEXT: poll NAME's screen until TEXT shows.
term_wait() {
	local deadline=$((SECONDS + E2E_TIMEOUT))
	while ((SECONDS < deadline)); do
		if term_has "$1" "$2"; then return 0; fi
		sleep 0.2
	done
	echo "FAIL: $1 never showed: $2" >&2
	echo "----- $1 -----" >&2
	term_screen "$1" >&2
	exit 1
}

# term_keys NAME KEYS...: press keys in NAME.
term_keys() {
	local name="$1"
	shift
	t send-keys -t "$name" "$@"
}

# start_term NAME CMD...: another terminal of the same size running CMD.
start_term() {
	local name="$1" cmd
	shift
	cmd="$(printf '%q ' "$@")"
	t new-session -d -s "$name" -x "$E2E_COLS" -y "$E2E_ROWS" "$cmd; echo \"[$name exited \$?]\"; exec sleep 3600"
}
