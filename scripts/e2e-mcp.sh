#!/usr/bin/env bash
# End to end: `elicit mcp` against a real MCP server nobody here wrote,
# @modelcontextprotocol/server-everything from npm (pinned), over stdio.
# Checks: the URL tool is listed only because URL mode was declared; a
# form answered from --answers comes back typed in the server's echo; a URL
# request approved with --approve-urls reaches a recording $BROWSER (and a
# lookalike does not); the -32042 path with --auto-retry opens the
# prerequisite URL, retries and completes; and in tmux, the full screen's
# consent screen for a punycode URL, declined, and the same through
# `elicit mcp call` on a terminal. When the npm registry is unreachable it
# prints one SKIP line and exits 0.
#
# Environment: ELICIT_MCP_CACHE, where the server is installed (default
# $HOME/.cache/elicit-mcp).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh

PACKAGE=@modelcontextprotocol/server-everything@2026.8.31
CACHE="${ELICIT_MCP_CACHE:-$HOME/.cache/elicit-mcp}"
if ! command -v npm >/dev/null 2>&1 || ! timeout 30 npm view "$PACKAGE" version >/dev/null 2>&1; then
	echo "SKIP e2e-mcp: npm registry unreachable (or no npm)"
	exit 0
fi
e2e_setup
server="$CACHE/node_modules/.bin/mcp-server-everything"
if [ ! -x "$server" ] || ! grep -q '"version": "2026.8.31"' "$CACHE/node_modules/@modelcontextprotocol/server-everything/package.json" 2>/dev/null; then
	mkdir -p "$CACHE"
	npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error "$PACKAGE" >"$work/npm.log" 2>&1 ||
		{ cat "$work/npm.log" >&2; echo "FAIL: npm install $PACKAGE" >&2; exit 1; }
fi

# The only browser: $BROWSER, a script that records what it was asked.
opened="$work/opened"
cat >"$work/browser" <<EOS
#!/bin/sh
printf '%s\n' "\$1" >>'$opened'
EOS
chmod +x "$work/browser"
opened_urls() { if [ -f "$opened" ]; then cat "$opened"; fi; }

check() { # check NAME COND...: pass or fail with the run's output
	local name="$1"
	shift
	if "$@"; then passed_check "$name"; else
		echo "FAIL: $name" >&2
		echo "--- stdout"; cat "$work/out" >&2
		echo "--- stderr"; cat "$work/err" >&2
		exit 1
	fi
}
has() { grep -qF -- "$1" "$2"; }
run() { "$bin" mcp "$@" </dev/null >"$work/out" 2>"$work/err"; }

# 1. Capabilities decide the tools: server-everything registers its URL
# tool only for a client that declares URL mode, its form tool only for
# one that declares elicitation at all.
run tools -- "$server"
check "tools list (form and URL declared)" has $'trigger-url-elicitation\tTrigger URL Elicitation Tool' "$work/out"
check "tools list has the form tool" has "trigger-elicitation-request" "$work/out"
run tools --no-url -- "$server"
check "--no-url: no URL tool" bash -c "! grep -q trigger-url-elicitation '$work/out' && grep -q trigger-elicitation-request '$work/out'"
run tools --no-url --no-form -- "$server"
check "--no-form --no-url: no elicitation tool" bash -c "grep -q echo '$work/out' && ! grep -qE 'trigger-elicitation-request|trigger-url-elicitation' '$work/out'"

# 2. A form answered from --answers comes back typed.
cat >"$work/answers.json" <<'EOS'
{"name":"Ada Lovelace","check":true,"integer":"7","number":2.5,"email":"ada@example.com","birthdate":"1815-12-10",
 "untitledSingleSelectEnum":"Joey","untitledMultipleSelectEnum":["Piano","Drums"],"titledSingleSelectEnum":"hero-3",
 "titledMultipleSelectEnum":["fish-2","fish-3"],"legacyTitledEnum":"pet-2"}
EOS
run call trigger-elicitation-request --answers "$work/answers.json" -- "$server"
tr -d ' \n' <"$work/out" >"$work/flat"
for want in '"action":"accept"' '"integer":7,' '"number":2.5,' '"check":true,' '"untitledSingleSelectEnum":"Joey"' \
	'"untitledMultipleSelectEnum":["Piano","Drums"]' '"titledMultipleSelectEnum":["fish-2","fish-3"]' '"legacyTitledEnum":"pet-2"' \
	'"firstLine":"Itwasadarkandstormynight."'; do
	check "the server's echo has $want" has "$want" "$work/flat"
done
check "stderr says --answers answered" has "(--answers)" "$work/err"
run call trigger-elicitation-request -- "$server"
check "without a person or --answers the form is cancelled (nobody said no)" has "User cancelled" "$work/out"
check "…with the reason on stderr" has "neither --answers nor --accept-defaults was given" "$work/err"

# 3. A URL request: cancelled without --approve-urls (nobody consented);
# approved with it, handed to $BROWSER; a lookalike is not opened even
# then.
BROWSER="$work/browser" run call trigger-url-elicitation --args '{"url":"https://example.com/connect"}' -- "$server"
check "a URL without --approve-urls is cancelled" bash -c "grep -q 'User cancelled' '$work/out' && [ ! -s '$opened' ]"
BROWSER="$work/browser" run call trigger-url-elicitation --args '{"url":"https://example.com/connect"}' --approve-urls -- "$server"
check "--approve-urls: the server hears accept" has "User completed the URL elicitation flow" "$work/out"
check "--approve-urls: \$BROWSER got the URL" bash -c "[ \"\$(cat '$opened')\" = https://example.com/connect ]"
check "--approve-urls: stderr says so" has "handed https://example.com/connect to the browser (--approve-urls)" "$work/err"
: >"$opened"
BROWSER="$work/browser" run call trigger-url-elicitation --args '{"url":"https://xn--80ak6aa92e.com/login"}' --approve-urls -- "$server"
check "--approve-urls opens no lookalike (cancelled)" bash -c "grep -q 'User cancelled' '$work/out' && [ ! -s '$opened' ] && grep -q 'opens no high-risk URL' '$work/err'"

# 4. The -32042 path: the prerequisite URL opens, the flow is waited for
# (the server never sends notifications/elicitation/complete: the flow
# timeout stands in), the call is retried once and completes.
BROWSER="$work/browser" run call trigger-url-elicitation --args '{"url":"https://example.com/after","errorPath":true}' \
	--approve-urls --auto-retry --flow-timeout 1s -- "$server"
check "-32042: the prerequisite opened first" bash -c "[ \"\$(head -1 '$opened')\" = https://modelcontextprotocol.io/ ]"
check "-32042: retried and completed" has "User completed the URL elicitation flow" "$work/out"
check "-32042: stderr says it retried" has "retrying the call" "$work/err"
BROWSER="$work/browser" run call trigger-url-elicitation --args '{"url":"https://example.com/after2","errorPath":true}' \
	--approve-urls --flow-timeout 1s -- "$server" || true
check "-32042 without --auto-retry says how to retry" has "--auto-retry" "$work/err"

# 5. In tmux: the full screen, a punycode URL's consent screen, declined.
export BROWSER="$work/browser"
: >"$opened"
start_elicit "$bin" mcp -- "$server"
wait_for "[Tools (15)]" || fail "the tools never showed"
for _ in $(seq 13); do keys Down; done
wait_for "› trigger-url-elicitation" || fail "could not select the URL tool"
keys Enter
wait_for "The arguments for Trigger URL Elicitation Tool" || fail "no arguments form"
past_grace
type_text "https://xn--80ak6aa92e.com/login"
keys Enter Enter Enter Enter Enter # message, id, errorPath, review, send
wait_for "Open a link?" || fail "no consent screen"
wait_for "аррӏе.com" || fail "the host in Unicode is not shown"
wait_for "looks like apple.com" || fail "no lookalike warning"
on_screen "xn--80ak6aa92e.com  (as sent)" || fail "the host as sent is not shown"
passed_check "full screen: the consent screen for a punycode URL"
past_grace # the consent shows while it has the keys
keys d
wait_for "User declined to open the URL" || fail "the server did not hear decline"
[ ! -s "$opened" ] || fail "a declined URL was opened"
passed_check "full screen: declined, nothing opened"
keys C-c C-c
[ "$(wait_dead)" = 0 ] || fail "elicit mcp did not exit 0"
assert_restored || fail "the terminal was not restored"
e2e_cleanup
E2E_SOCK="$E2E_SOCK-call" # a fresh tmux server: the old one may still be going away

# 6. `elicit mcp call` on a terminal asks: the same consent screen.
start_elicit "$bin" mcp call trigger-url-elicitation --args '{"url":"https://xn--80ak6aa92e.com/login"}' -- "$server"
wait_for "Open a link?" || fail "call on a terminal did not ask"
on_screen "looks like apple.com" || fail "no lookalike warning in call"
past_grace
keys d
wait_for "User declined to open the URL" || fail "call: the server did not hear decline"
[ "$(wait_dead)" = 0 ] || fail "call did not exit 0"
passed_check "call on a terminal: consent asked, declined"

echo "e2e-mcp: $passed passed, 0 failed"
