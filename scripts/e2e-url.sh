#!/usr/bin/env bash
# End to end: URL-mode elicitation through the real binary and the demo
# agent's /url and /risky in tmux. No letter opens a URL: nothing opens
# before → and Enter on "Open in browser". The "browser" is a stand-in
# xdg-open that records its argument: first one that fails, as on a
# machine without one (the consent comes back with the reason, the agent
# hears nothing and no flow is pending), then one that works (the agent
# hears accept only then, and the flow is pending). The first flow is
# completed through the agent's page, fetched and approved with curl; the
# second is reopened from the pending-flows panel (ctrl+g: the consent
# screen again) and cancelled there (x). A high-severity URL asks a second
# time with "Go back" selected; → then Enter opens it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh
e2e_setup
opened="$work/opened"

# The only "browser" on PATH ($BROWSER is unset): it records the URL it
# was asked to open and exits with $1.
mkdir -p "$work/fakebin"
fake_browser() {
	cat >"$work/fakebin/xdg-open.new" <<EOS
#!/bin/sh
printf '%s\n' "\$1" >>'$opened'
exit $1
EOS
	chmod +x "$work/fakebin/xdg-open.new"
	mv "$work/fakebin/xdg-open.new" "$work/fakebin/xdg-open"
}
fake_browser 3

# status_bar: the bottom line of the screen.
status_bar() { screen_tail 1; }

# status_has TEXT / status_lacks TEXT: the status bar shows TEXT now, or not.
status_has() { status_bar | grep -qF -- "$1"; }
status_lacks() { ! status_has "$1"; }

# wait_status TEXT / wait_status_gone TEXT: wait for the status bar.
wait_status() { poll "\"$1\" in the status bar" status_has "$1"; }
wait_status_gone() { poll "end of \"$1\" in the status bar" status_lacks "$1"; }

# opened_count: how many times the browser was asked to open anything.
opened_count() {
	if [ -f "$opened" ]; then wc -l <"$opened" | tr -d ' '; else echo 0; fi
}

# opened_at_least N: the browser was asked N times in all, or more.
opened_at_least() { [ "$(opened_count)" -ge "$1" ]; }

# wait_opened N: wait until the browser was asked N times in all.
wait_opened() { poll "browser asked $1 times" opened_at_least "$1"; }

# nth_url N: the URL of the Nth URL-mode elicitation/create in the trace,
# "" while there is none.
nth_url() {
	{ grep -F '"method":"elicitation/create"' "$log" 2>/dev/null || true; } | { grep -F '"mode":"url"' || true; } |
		sed -n "$1p" | sed -E 's/.*"url":"([^"]*)".*/\1/'
}

# has_url N: the trace holds N URL-mode elicitation/create requests.
has_url() { [ -n "$(nth_url "$1")" ]; }

# url_request N: the URL of the Nth URL-mode elicitation/create in the
# trace; it waits for it to arrive.
url_request() {
	poll "URL elicitation number $1 in the trace" has_url "$1"
	nth_url "$1"
}

# prompt_is TEXT: the prompt holds TEXT (spaces aside; see prompt_squeezed).
prompt_is() { [ "$(prompt_squeezed)" = "$1" ]; }

# request_id URL: the JSON-RPC id of the newest elicitation/create for URL.
request_id() {
	grep -F '"method":"elicitation/create"' "$log" | grep -F "\"url\":\"$1\"" | tail -1 |
		sed -E 's/.*"id":([0-9]+),"method".*/\1/'
}

# no_flow: no URL flow is pending (the status bar counts them).
no_flow() {
	status_bar | grep -qF "URL flow" && fail "a URL flow is pending: $(status_bar)"
	return 0
}

start_elicit env PATH="$work/fakebin:$PATH" "$bin" --cwd "$work" --log "$log"
wait_for "connected to Demo agent"
wait_status "· ready"

# 1. The consent screen shows the exact URL, with no button selected;
# nothing is opened by any letter, Enter or space.
type_text "/url"
keys Enter
url1="$(url_request 1)"
req1="$(request_id "$url1")"
wait_for "Open a link?"
wait_for "Approve the demo connection on a local page."
wait_for "$url1"
wait_for "[ Open in browser ] [ Copy URL ] [ Decline ] [ Cancel ]"
focus_question
# A letter the consent has no use for is typing: the first docks it and the
# rest go to the prompt, which the backspaces empty again (one burst: the
# consent takes the keys back only once the keyboard is idle). The z after
# them shows in the prompt once every key before it was handled.
keys o y 1 Enter Space x Enter BSpace BSpace BSpace BSpace BSpace z
poll "the keys handled (z alone in the prompt)" prompt_is z
[ "$(opened_count)" = 0 ] || fail "the browser was asked to open $(cat "$opened") before Open was pressed"
[ -z "$(response_to "$req1")" ] || fail "the agent got an answer: $(response_to "$req1")"
keys BSpace
poll "an empty prompt" prompt_is ""
wait_for "[ Open in browser ] [ Copy URL ] [ Decline ] [ Cancel ]"
passed_check "the consent screen shows $url1; o, y, 1, Enter, space, x open nothing"

focus_question
keys c
wait_for "may have been blocked" # tmux does not read the clipboard back: the copy is not claimed
[ "$(opened_count)" = 0 ] || fail "c opened the browser"
[ -z "$(response_to "$req1")" ] || fail "c answered the agent: $(response_to "$req1")"
passed_check "c copies and keeps the screen"

# 2. → selects Open, Enter presses it; the browser fails: the consent
# comes back with the reason, nothing is pending, the agent heard nothing.
keys Right
wait_for "[›Open in browser‹]"
keys Enter
wait_opened 1
[ "$(cat "$opened")" = "$url1" ] || fail "the browser was asked to open '$(cat "$opened")', want '$url1'"
wait_for "could not open the browser"
wait_for "Open a link?"
wait_for "$url1"
no_flow
[ -z "$(response_to "$req1")" ] || fail "the agent got an answer after a failed open: $(response_to "$req1")"
passed_check "→ Enter opens exactly that URL; the failed launch shows, the consent comes back, no flow is pending"

# 3. With a browser that works, the agent hears accept only after the
# hand-off, and the flow is pending.
fake_browser 0
focus_question # the consent came back on its own
keys Right Enter
wait_opened 2
[ "$(sed -n 2p "$opened")" = "$url1" ] || fail "the browser was asked to open '$(sed -n 2p "$opened")', want '$url1'"
wait_status "1 URL flow (ctrl+g)"
wait_log "-> {\"jsonrpc\":\"2.0\",\"id\":$req1,\"result\":{\"action\":\"accept\"}}"
passed_check "a browser that starts: accept is sent and the flow is pending"

# 4. The agent's page, fetched and approved as a browser would: the form's
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

# 5. The second flow (one that never completes): accepted, reopened from
# the pending-flows panel (the consent screen again), then cancelled there.
url2="$(url_request 2)"
[ "$url2" != "$url1" ] || fail "the second flow reuses the first URL"
req2="$(request_id "$url2")"
wait_for "This page's flow never completes"
wait_for "$url2"
focus_question
[ "$(opened_count)" = 2 ] || fail "the second URL was opened before its key"
keys Right Enter
wait_opened 3
[ "$(sed -n 3p "$opened")" = "$url2" ] || fail "the browser was asked to open '$(sed -n 3p "$opened")', want '$url2'"
wait_status "1 URL flow"
wait_log "-> {\"jsonrpc\":\"2.0\",\"id\":$req2,\"result\":{\"action\":\"accept\"}}"
wait_status "· ready"
id2="${url2##*/flow/}"
keys C-g
wait_for "Pending URL flows"
wait_for "1 waiting for the agent"
wait_for "id ${id2:0:23}"
on_screen "id ${id1:0:23}" && fail "the completed flow is still listed"
keys o
wait_for "Open a link?"
wait_for "$url2"
wait_for "[ Open in browser ] [ Copy URL ] [ Decline ] [ Cancel ]"
[ "$(opened_count)" = 3 ] || fail "o in the panel opened the URL without the consent screen"
keys Right Enter
wait_opened 4
[ "$(sed -n 4p "$opened")" = "$url2" ] || fail "reopened '$(sed -n 4p "$opened")', want '$url2'"
wait_for "opened 127.0.0.1 again"
wait_status "1 URL flow"
[ "$(grep -cF -- "-> {\"jsonrpc\":\"2.0\",\"id\":$req2,\"result\":" "$log")" = 1 ] || fail "the reopened flow answered the agent again"
keys C-g
wait_for "Pending URL flows"
keys x
wait_gone "Pending URL flows"
wait_for "stopped waiting for the flow on 127.0.0.1"
wait_status_gone "URL flow"
[ "$(opened_count)" = 4 ] || fail "the browser was asked $(opened_count) times, want 4"
passed_check "the second flow is listed in ctrl+g, reopened through the consent screen, cancelled with x"

# 6. /bad: malformed requests, among them a javascript: URL, are refused
# with -32602 before any consent screen; nothing more is opened.
# (Should any of them come up as a form, it is cancelled with Esc.)
type_text "/bad"
keys Enter
deadline=$((SECONDS + E2E_TIMEOUT))
until on_screen "The session goes on"; do
	((SECONDS < deadline)) || fail "/bad never ended"
	if on_screen "› colour"; then
		focus_question
		keys Escape
		wait_gone "› colour"
	fi
	sleep 0.2
done
wait_status "· ready"
wait_log '"code":-32602,"message":"Invalid params: url: url scheme \"javascript\" is not allowed'
on_screen "Open a link?" && fail "a consent screen is up after /bad"
[ "$(opened_count)" = 4 ] || fail "the browser was asked $(opened_count) times after /bad, want 4"
passed_check "a javascript: URL is refused with -32602 and never opened"

# 7. A high-severity URL (/risky: google.com@evil.example) asks a second
# time with "Go back" selected: Enter goes back, d declines. The next time
# → then Enter opens it. The rm -rf ~ permission that comes with it is
# cancelled with Esc each time.
risky='https://google.com@evil.example/login'
# risky_round: run /risky; leaves the URL consent focused and sets rreq
# (its request id) and preq (the permission's).
risky_round() {
	local n u
	n="$(request_ids session/request_permission | wc -l)"
	u="$(grep -cF "\"url\":\"$risky\"" "$log" || true)"
	type_text "/risky"
	keys Enter
	poll "URL and permission requests from /risky" risky_asked "$n" "$u"
	preq="$(request_ids session/request_permission | tail -1)"
	rreq="$(request_id "$risky")"
	focus_question
	# The two arrive together; either may be in front. Cancel the
	# permission first if it is.
	if ! on_screen "Open a link?"; then
		wait_for "Delete your home directory"
		keys Escape
		wait_log "-> {\"jsonrpc\":\"2.0\",\"id\":$preq,\"result\":{\"outcome\":{\"outcome\":\"cancelled\"}}}"
		wait_for "Open a link?"
		focus_question
	fi
	wait_for "userinfo"
}
# risky_asked N U: the trace holds more permission requests than N and
# more requests for the risky URL than U.
risky_asked() {
	[ "$(request_ids session/request_permission | wc -l)" != "$1" ] &&
		[ "$(grep -cF "\"url\":\"$risky\"" "$log" || true)" != "$2" ]
}

# risky_permission: cancel the permission if it is still waiting.
risky_permission() {
	if [ -z "$(response_to "$preq")" ]; then
		wait_for "Delete your home directory"
		focus_question
		wait_for "1-9 or ↑/↓ select · enter choose"
		keys Escape
		wait_log "-> {\"jsonrpc\":\"2.0\",\"id\":$preq,\"result\":{\"outcome\":{\"outcome\":\"cancelled\"}}}"
	fi
}

risky_round
keys Right Enter
wait_for "This link has high-risk warnings. Open it anyway?"
wait_for "[›Go back‹] [ Open anyway ]"
keys Enter
wait_gone "Open it anyway?"
[ "$(opened_count)" = 4 ] || fail "Enter on Go back opened the URL"
keys d
wait_log "-> {\"jsonrpc\":\"2.0\",\"id\":$rreq,\"result\":{\"action\":\"decline\"}}"
risky_permission
wait_status "· ready"
[ "$(opened_count)" = 4 ] || fail "a declined high-severity URL was opened"
passed_check "a high-severity URL asks again with Go back selected; Enter goes back, d declines"

risky_round
keys Right Enter
wait_for "[›Go back‹] [ Open anyway ]"
keys Right
wait_for "[ Go back ] [›Open anyway‹]"
keys Enter
wait_opened 5
[ "$(sed -n 5p "$opened")" = "$risky" ] || fail "opened '$(sed -n 5p "$opened")', want '$risky'"
wait_log "-> {\"jsonrpc\":\"2.0\",\"id\":$rreq,\"result\":{\"action\":\"accept\"}}"
risky_permission
wait_status "· ready"
wait_status "1 URL flow"
keys C-g
wait_for "evil.example"
keys x
wait_status_gone "URL flow"
grep -qE -- '-> .*"result":\{"outcome":\{"optionId":"allow' "$log" && fail "a permission was granted"
passed_check "→ then Enter on the second row opens the high-severity URL; nothing was granted"

# Quit from the idle prompt; the terminal comes back as it was.
status="$(quit_elicit)"
[ "$status" = 0 ] || fail "exit status $status"
assert_restored
passed_check "quit, terminal restored"
echo "e2e-url: $passed passed, 0 failed"
