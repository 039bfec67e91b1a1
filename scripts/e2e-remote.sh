#!/usr/bin/env bash
# End to end: remote agents over ACP's Streamable HTTP & WebSocket
# transport (elicit --url), on loopback only.
#
# 1. A scripted agent (testdata/remote/sdk-agent.mjs) served by the official
#    TypeScript SDK's server transport (AcpServer over Node's http module,
#    WebSocket through ws): initialize, a form, a URL request and a
#    streamed flood, over WebSocket and over HTTP+SSE (-p); the fallback to
#    HTTP+SSE when the server offers no WebSocket; a wrong token (a clear
#    error after one request, no retry); plain http to a host that is not
#    loopback (refused before anything is sent); and in the full screen
#    (tmux) a form and a URL consent over each transport, then a form half
#    typed when the server drops every connection: reported, reconnected,
#    the session resumed, the agent asks again and the same form, with
#    what was typed, answers it.
# 2. A real agent's own server: `qwen serve` (qwen-code) with the loopback
#    model mock, a prompt answered end to end over each transport.
#
# Needs npm (and Node 20 or later; qwen-code needs Node 22, installed from
# npm when the host's is older). When the registry is unreachable it prints
# one SKIP line and exits 0.
#
# Environment:
#   ELICIT_REMOTE_CACHE  where the SDK server, qwen-code and (on older Node)
#                        Node 22 are installed (default $HOME/.cache/elicit-remote)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tmux-lib.sh

SDK_PACKAGES=(@agentclientprotocol/sdk@2.4.0 zod@4.6.7 ws@8.23.0)
QWEN_PACKAGE=@qwen-code/qwen-code@0.24.4
NODE22_VERSION=22.23.3
CACHE="${ELICIT_REMOTE_CACHE:-$HOME/.cache/elicit-remote}"
# Not the real-agents script's cache: two scripts installing into one
# prefix at once (two checkouts on one machine) break each other.
AGENT_CACHE="$CACHE/agents"
HELLO="Hello from the mock model."

if ! timeout 30 npm view @agentclientprotocol/sdk@2.4.0 version >/dev/null 2>&1; then
	echo "SKIP remote agents: npm registry unreachable"
	exit 0
fi

e2e_setup
pids=()
groups=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for g in "${groups[@]}"; do kill -- "-$g" 2>/dev/null || true; done
	e2e_cleanup
}
trap cleanup EXIT

npm_install() { # PREFIX PACKAGE...
	local prefix="$1"
	shift
	mkdir -p "$prefix"
	npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "$@" >"$work/npm.log" 2>&1 ||
		{ cat "$work/npm.log" >&2; fail "npm install $*"; }
}

echo "installing the SDK server into $CACHE"
npm_install "$CACHE" "${SDK_PACKAGES[@]}"
cp testdata/remote/sdk-agent.mjs "$CACHE/sdk-agent.mjs"

# listening FILE PID: FILE holds the SDK agent's "listening" line; fails
# the script when PID (the agent) exited first.
listening() {
	grep -q '^listening ' "$1" 2>/dev/null && return 0
	kill -0 "$2" 2>/dev/null || { cat "${1%.out}.err" >&2; fail "the SDK agent exited before it listened"; }
	return 1
}

# start_sdk NAME [ARGS...]: runs the SDK agent; sets URL_<NAME> to its
# endpoint and BASE_<NAME> to its origin.
start_sdk() {
	local name="$1"
	shift
	(cd "$CACHE" && exec node sdk-agent.mjs "$@") >"$work/$name.out" 2>"$work/$name.err" &
	pids+=($!)
	poll "\"listening\" from the SDK agent $name" listening "$work/$name.out" "$!"
	local url
	url="$(sed -n 's/^listening //p' "$work/$name.out")"
	printf -v "URL_$name" '%s' "$url"
	printf -v "BASE_$name" '%s' "${url%/acp}"
}
start_sdk main
start_sdk nows --no-ws
SDK_AGENT_TOKEN=right-token start_sdk tok

# run_p TRANSPORT PROMPT [FLAGS...]: elicit -p against the main server.
run_p() {
	local tr="$1" prompt="$2"
	shift 2
	(cd "$work" && timeout "$E2E_TIMEOUT" "$bin" --url "$URL_main" --transport "$tr" --log "$work/p-$tr.log" "$@" -p "$prompt")
}

echo '{"name":"Ada","color":"green"}' >"$work/answers.json"
for tr in ws http; do
	out="$(run_p "$tr" hello)" && [ "$out" = "hello from the SDK agent" ] || fail "$tr: hello: $out"
	out="$(run_p "$tr" form --answers "$work/answers.json" 2>/dev/null)" &&
		[ "$out" = 'form: accept {"color":"green","name":"Ada"}' ] || fail "$tr: form: $out"
	out="$(run_p "$tr" url 2>/dev/null)" && [ "$out" = "url: cancel" ] || fail "$tr: url: $out" # nobody to ask: cancel, never a made-up decline
	out="$(run_p "$tr" "flood 5000")" || fail "$tr: flood"
	n="$(grep -o 'w ' <<<"$out" | wc -l | tr -d ' ')"
	[ "$n" = 5000 ] && grep -qF "flood of 5000 done" <<<"$out" || fail "$tr: flood: $n chunks"
	passed_check "-p over $tr: initialize, a form, a URL request, a flood of 5000"
done
grep -qF "over WebSocket" "$work/p-ws.log" && grep -qF "over HTTP+SSE" "$work/p-http.log" ||
	fail "the trace does not say which transport is in use"

# Without --transport: WebSocket when offered, HTTP+SSE when not.
(cd "$work" && timeout "$E2E_TIMEOUT" "$bin" --url "$URL_main" --log "$work/auto.log" -p hello >/dev/null) || fail "auto"
grep -qF "over WebSocket" "$work/auto.log" || fail "auto did not prefer WebSocket"
out="$(cd "$work" && timeout "$E2E_TIMEOUT" "$bin" --url "$URL_nows" --log "$work/nows.log" -p hello)" || fail "fallback: $out"
grep -qF "did not upgrade to WebSocket" "$work/nows.log" && grep -qF "over HTTP+SSE" "$work/nows.log" ||
	fail "no fallback to HTTP+SSE"
passed_check "WebSocket preferred, HTTP+SSE when the server offers no WebSocket"

# A wrong token: a clear error after one request, no retry.
before="$(curl -s "$BASE_tok/control/count")"
set +e
out="$(cd "$work" && BAD_TOKEN=wrong-token timeout "$E2E_TIMEOUT" "$bin" --url "$URL_tok" --token-env BAD_TOKEN --log "$work/tok.log" -p hello 2>&1)"
code=$?
set -e
after="$(curl -s "$BASE_tok/control/count")"
[ "$code" != 0 ] && grep -qF "refused the credentials (HTTP 401" <<<"$out" || fail "wrong token: $code $out"
[ $((after - before)) = 1 ] || fail "wrong token: $((after - before)) requests, want 1"
! grep -qF wrong-token "$work/tok.log" <<<"$out" || fail "the token shows in the output or the trace"
out="$(cd "$work" && GOOD_TOKEN=right-token timeout "$E2E_TIMEOUT" "$bin" --url "$URL_tok" --token-env GOOD_TOKEN -p hello)" ||
	fail "right token: $out"
passed_check "a wrong token: one request, a clear error; the right one gets through"

# Plain http off loopback: refused before anything is sent.
set +e
out="$("$bin" --url http://agent.invalid/acp -p hello 2>&1)"
code=$?
set -e
[ "$code" = 2 ] && grep -qF "only to a loopback address" <<<"$out" || fail "plain http off loopback: $code $out"
passed_check "plain http to a host that is not loopback refused without --allow-plaintext"

# The full screen over each transport: a form, a URL consent, and a form
# that survives the server dropping every connection.
for tr in ws http; do
	start_elicit "$bin" --url "$URL_main" --transport "$tr" --cwd "$work" --no-history --log "$work/screen-$tr.log"
	name=WebSocket
	[ "$tr" = http ] && name=HTTP+SSE
	wait_for "over $name at" || fail "$tr: not connected"
	type_text form
	keys Enter
	wait_for "Who is asking?" || fail "$tr: no form"
	focus_question
	type_text Ada
	keys Enter Enter
	wait_for "Review" || fail "$tr: no review"
	keys Enter
	wait_for 'form: accept {"name":"Ada"}' || fail "$tr: form answer"
	# The reply and the turn's end come apart (over HTTP+SSE on different
	# streams): a prompt sent before the end is refused as a second turn.
	wait_turns_over "$work/screen-$tr.log"
	type_text url
	keys Enter
	wait_for "example.com" || fail "$tr: no URL consent"
	focus_question
	keys d
	wait_for "url: decline" || fail "$tr: url answer"
	wait_turns_over "$work/screen-$tr.log"
	type_text ask
	keys Enter
	wait_for "Kept across a drop" || fail "$tr: no kept form"
	focus_question
	type_text Gra
	curl -s "$BASE_main/control/drop" >/dev/null
	wait_for "reconnecting" || fail "$tr: the drop was not reported"
	wait_for "asked the form" || fail "$tr: the form was not asked again"
	on_screen "Gra" || fail "$tr: what was typed is gone"
	type_text ce
	keys Enter Enter
	wait_for "Review" || fail "$tr: no review after the reconnect"
	keys Enter
	wait_for 'kept form: accept {"name":"Grace"}' || fail "$tr: the kept form's answer"
	# A turn the drop ended gives its prompt back to the input (whether
	# the drop met the turn is the server's timing): empty it to quit.
	if on_screen "your prompt is back in the input"; then
		[ "$(prompt_squeezed)" = ask ] || fail "$tr: the prompt holds '$(prompt_squeezed)', want the dropped turn's 'ask'"
		clear_prompt
	fi
	quit_elicit >/dev/null
	t kill-session -t e2e 2>/dev/null || true # the server stays (see start_elicit)
	passed_check "full screen over $tr: a form, a URL consent, a form kept across a dropped connection"
done

# A real agent's own server: qwen serve with the model mock.
echo "installing $QWEN_PACKAGE into $AGENT_CACHE"
npm_install "$AGENT_CACHE" "$QWEN_PACKAGE"
node_bin=""
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
	arch=x64
	[ "$(uname -m)" = aarch64 ] && arch=arm64
	npm_install "$AGENT_CACHE/node22" "node-linux-$arch@$NODE22_VERSION"
	node_bin="$AGENT_CACHE/node22/node_modules/node-linux-$arch/bin"
fi
go build -o "$work/modelmock" ./internal/modelmock/cmd/modelmock
"$work/modelmock" -addr 127.0.0.1:0 -log "$work/mock.log" -no-stdin >"$work/mock.url" 2>>"$work/mock.log" &
pids+=($!)
mock_url() { grep -q '^http' "$work/mock.url" 2>/dev/null; }
poll "URL from the model mock" mock_url
mock="$(head -n1 "$work/mock.url")"
mkdir -p "$work/qwen-ws" "$work/qwen-home"
path="$AGENT_CACHE/node_modules/.bin:/usr/local/bin:/usr/bin:/bin"
[ -n "$node_bin" ] && path="$node_bin:$path"
# In a process group of its own: qwen serve starts the agent as a child,
# and the whole group is ended at exit.
(cd "$work/qwen-ws" && exec setsid env -i "HOME=$work/qwen-home" "PATH=$path" NO_PROXY=127.0.0.1,localhost \
	OPENAI_BASE_URL="$mock/v1" OPENAI_API_KEY=mock OPENAI_MODEL=mock-model \
	qwen serve --port 0 --no-web) >"$work/qwen.out" 2>&1 &
groups+=($!)
qwen_listening() { grep -q '^qwen serve listening on http:' "$work/qwen.out" && grep -qF "/acp WebSocket transport enabled" "$work/qwen.out"; }
poll "qwen serve listening (see $work/qwen.out)" qwen_listening
qwen_url="$(sed -n 's/^qwen serve listening on \(http:[^ ]*\).*/\1/p' "$work/qwen.out")"
for tr in ws http; do
	out="$(cd "$work/qwen-ws" && timeout 180 "$bin" --url "$qwen_url/acp" --transport "$tr" --log "$work/qwen-$tr.log" -p hello)" ||
		fail "qwen over $tr: $out"
	grep -qF "$HELLO" <<<"$out" || fail "qwen over $tr: reply $out"
	passed_check "qwen serve over $tr: a prompt answered end to end"
done

echo "$passed passed, 0 failed"
