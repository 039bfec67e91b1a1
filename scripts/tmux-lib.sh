# Helpers for the end-to-end scripts: drive the real elicit binary in a
# private tmux server, the way a person would at a keyboard.
# shellcheck shell=bash

E2E_SOCK="elicit-e2e-$$"
E2E_TIMEOUT="${E2E_TIMEOUT:-30}"

t() { tmux -L "$E2E_SOCK" -f /dev/null "$@"; }

# start_elicit CMD...: a 120x40 session running CMD under a shell that,
# like a person's, stays after it exits and prints its exit status, so the
# terminal's state after exit can be checked.
start_elicit() {
	local cmd
	cmd="$(printf '%q ' "$@")"
	t new-session -d -s e2e -x 120 -y 40 "$cmd; echo \"[elicit exited \$?]\"; exec sleep 3600"
}

screen() { t capture-pane -p -t e2e -J; }

# wait_for TEXT: poll the screen until TEXT shows (fixed string).
wait_for() {
	local deadline=$((SECONDS + E2E_TIMEOUT))
	while ((SECONDS < deadline)); do
		if screen | grep -qF -- "$1"; then return 0; fi
		sleep 0.2
	done
	echo "FAIL: timed out waiting for: $1" >&2
	echo "----- screen -----" >&2
	screen >&2
	return 1
}

# wait_gone TEXT: poll until TEXT is no longer on screen.
wait_gone() {
	local deadline=$((SECONDS + E2E_TIMEOUT))
	while ((SECONDS < deadline)); do
		if ! screen | grep -qF -- "$1"; then return 0; fi
		sleep 0.2
	done
	echo "FAIL: still on screen: $1" >&2
	screen >&2
	return 1
}

keys() { t send-keys -t e2e "$@"; }

# type_text TEXT: type literally, as keystrokes.
type_text() { t send-keys -t e2e -l -- "$1"; }

pane() { t display-message -p -t e2e "$1"; }

# wait_dead: wait for the program to exit; prints its exit status.
wait_dead() {
	local deadline=$((SECONDS + E2E_TIMEOUT)) line
	while ((SECONDS < deadline)); do
		line="$(screen | grep -o '\[elicit exited [0-9]*\]' | tail -1)"
		if [ -n "$line" ]; then
			line="${line#\[elicit exited }"
			echo "${line%\]}"
			return 0
		fi
		sleep 0.2
	done
	echo "FAIL: elicit did not exit" >&2
	screen >&2
	return 1
}

# assert_restored: the terminal is back to normal after exit.
assert_restored() {
	[ "$(pane '#{alternate_on}')" = 0 ] || { echo "FAIL: still on the alternate screen" >&2; return 1; }
	[ "$(pane '#{cursor_flag}')" = 1 ] || { echo "FAIL: cursor left hidden" >&2; return 1; }
	[ "$(pane '#{mouse_any_flag}')" = 0 ] || { echo "FAIL: mouse reporting left on" >&2; return 1; }
	! screen | grep -qF "ctrl+c cancel/quit" || { echo "FAIL: the UI is still drawn" >&2; return 1; }
}

e2e_cleanup() { t kill-server 2>/dev/null || true; }

# e2e_setup builds the binary and makes a fresh session directory: sets
# bin, work (the --cwd) and log (the --log trace), and the passed count.
e2e_setup() {
	trap e2e_cleanup EXIT
	bin="$(mktemp -d)/elicit"
	go build -o "$bin" .
	work="$(mktemp -d)"
	log="$work/trace.log"
	passed=0
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

# wait_log TEXT: poll the protocol trace until TEXT (fixed string) is in it.
wait_log() {
	local deadline=$((SECONDS + E2E_TIMEOUT))
	while ((SECONDS < deadline)); do
		if grep -qF -- "$1" "$log" 2>/dev/null; then return 0; fi
		sleep 0.2
	done
	fail "the trace never had: $1"
}
