#!/usr/bin/env bash
# End to end: URL-mode elicitation through the real binary and the demo
# agent's /url in tmux. Nothing opens before the key; consent with o (the
# "browser" is a stand-in xdg-open that records its argument and fails, as
# there is no browser on CI: the error shows and the flow stays pending);
# the first flow is completed through the agent's page, fetched and
# approved with curl; the second is accepted, then cancelled from the
# pending-flows panel (ctrl+p, x).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup
opened="$work/opened"

# The only "browser" on PATH: it records the URL it was asked to open and
# fails, like a machine without one.
mkdir -p "$work/fakebin"
cat >"$work/fakebin/xdg-open" <<EOF
#!/bin/sh
printf '%s\n' "\$1" >>'$opened'
exit 3
EOF
chmod +x "$work/fakebin/xdg-open"

# status_bar: the bottom line of the screen.
status_bar() { screen | tail -n 1; }

# wait_status TEXT / wait_status_gone TEXT: poll the status bar.
wait_status() {
	local deadline=$((SECONDS + E2E_TIMEOUT))
	while ((SECONDS < deadline)); do
		if status_bar | grep -qF -- "$1"; then return 0; fi
		sleep 0.2
	done
	fail "the status bar never showed: $1"
}
wait_status_gone() {
	local deadline=$((SECONDS + E2E_TIMEOUT))
	while ((SECONDS < deadline)); do
		if ! status_bar | grep -qF -- "$1"; then return 0; fi
		sleep 0.2
	done
	fail "the status bar still shows: $1"
}

# opened_count: how many times the browser was asked to open anything.
opened_count() {
	if [ -f "$opened" ]; then wc -l <"$opened" | tr -d ' '; else echo 0; fi
}

# wait_opened N: poll until the browser was asked N times in all.
wait_opened() {
	local deadline=$((SECONDS + E2E_TIMEOUT))
	while ((SECONDS < deadline)); do
		[ "$(opened_count)" -ge "$1" ] && return 0
		sleep 0.2
	done
	fail "the browser was asked $(opened_count) times, want $1"
}

# url_request N: the URL of the Nth URL-mode elicitation/create in the
# trace; it waits for it to arrive.
url_request() {
	local deadline=$((SECONDS + E2E_TIMEOUT)) u
	while ((SECONDS < deadline)); do
		u="$(grep -F '"method":"elicitation/create"' "$log" 2>/dev/null | grep -F '"mode":"url"' |
			sed -n "$1p" | sed -E 's/.*"url":"([^"]*)".*/\1/')"
		if [ -n "$u" ]; then
			echo "$u"
			return 0
		fi
		sleep 0.2
	done
	fail "no URL elicitation number $1 in the trace"
}

# request_id URL: the JSON-RPC id of the elicitation/create for URL.
request_id() {
	grep -F '"method":"elicitation/create"' "$log" | grep -F "\"url\":\"$1\"" | tail -1 |
		sed -E 's/.*"id":([0-9]+),"method".*/\1/'
}

start_elicit env PATH="$work/fakebin:$PATH" "$bin" --cwd "$work" --log "$log"
wait_for "connected to Demo agent"
wait_status "· ready"

# 1. The consent screen shows the exact URL; nothing is opened until o.
type_text "/url"
keys Enter
url1="$(url_request 1)"
wait_for "Open a link?"
wait_for "Approve the demo connection on a local page."
wait_for "$url1"
wait_for "o open in browser"
sleep 0.5 # the consent screen ignores keys for its first 400 ms
[ "$(opened_count)" = 0 ] || fail "the browser was asked to open $(cat "$opened") before any key"
screen | grep -qF "in the browser" && fail "the screen claims the URL was opened before any key"
passed_check "the consent screen shows $url1 and nothing is opened before the key"

keys o
wait_opened 1
[ "$(cat "$opened")" = "$url1" ] || fail "the browser was asked to open '$(cat "$opened")', want '$url1'"
wait_for "could not open the browser"
wait_status "1 URL flow"
req1="$(request_id "$url1")"
wait_log "-> {\"jsonrpc\":\"2.0\",\"id\":$req1,\"result\":{\"action\":\"accept\"}}"
passed_check "o opens exactly that URL once; the failed launch shows and the flow stays pending"

# 2. The agent's page, fetched and approved as a browser would: the form's
# hidden id is posted to /approve.
page="$(curl -fsS "$url1")"
grep -qF "Approve the demo connection on a local page." <<<"$page" || fail "the page lacks its message: $page"
id1="$(sed -nE 's/.*name="id" value="([^"]*)".*/\1/p' <<<"$page")"
[ -n "$id1" ] || fail "no id field on the page: $page"
[ "$url1" = "${url1%/flow/*}/flow/$id1" ] || fail "the page's id $id1 is not the URL's"
approved="$(curl -fsS -X POST --data-urlencode "id=$id1" "${url1%/flow/*}/approve")"
grep -qF "Approved." <<<"$approved" || fail "approve answered: $approved"
wait_log "<- {\"jsonrpc\":\"2.0\",\"method\":\"elicitation/complete\",\"params\":{\"elicitationId\":\"$id1\"}}"
wait_for "the agent reports the flow on 127.0.0.1 is complete"
wait_status_gone "URL flow"
passed_check "approving on the page completes the flow; the pending count drops"

# 3. The second flow (one that never completes): accepted, then cancelled
# from the pending-flows panel.
url2="$(url_request 2)"
[ "$url2" != "$url1" ] || fail "the second flow reuses the first URL"
wait_for "This page's flow never completes"
wait_for "$url2"
sleep 0.5 # grace period of the new consent screen
[ "$(opened_count)" = 1 ] || fail "the second URL was opened before its key"
keys o
wait_opened 2
[ "$(sed -n 2p "$opened")" = "$url2" ] || fail "the browser was asked to open '$(sed -n 2p "$opened")', want '$url2'"
wait_status "1 URL flow"
req2="$(request_id "$url2")"
wait_log "-> {\"jsonrpc\":\"2.0\",\"id\":$req2,\"result\":{\"action\":\"accept\"}}"
wait_status "· ready"
id2="${url2##*/flow/}"
keys C-p
wait_for "Pending URL flows"
wait_for "1 waiting for the agent"
wait_for "id ${id2:0:23}"
screen | grep -qF "id ${id1:0:23}" && fail "the completed flow is still listed"
keys x
wait_gone "Pending URL flows"
wait_for "stopped waiting for the flow on 127.0.0.1"
wait_status_gone "URL flow"
[ "$(opened_count)" = 2 ] || fail "the browser was asked $(opened_count) times, want 2"
passed_check "the second flow is listed in ctrl+p and cancelled with x"

# 4. /bad: malformed requests, among them a javascript: URL, are refused
# with -32602 before any consent screen; nothing more is opened.
type_text "/bad"
keys Enter
wait_for "The session goes on"
wait_status "· ready"
wait_log '"code":-32602,"message":"Invalid params: url: url scheme \"javascript\" is not allowed'
screen | grep -qF "Open a link?" && fail "a consent screen is up after /bad"
[ "$(opened_count)" = 2 ] || fail "the browser was asked $(opened_count) times after /bad, want 2"
passed_check "a javascript: URL is refused with -32602 and never opened"

# Quit from the idle prompt; the terminal comes back as it was.
keys C-c
status="$(wait_dead)"
[ "$status" = 0 ] || fail "exit status $status"
assert_restored
passed_check "quit, terminal restored"
echo "e2e-url: $passed passed, 0 failed"
