#!/bin/bash
# An Elicitation hook for elicit (and Claude Code): answers one kind of
# form, refuses another, and lets the user answer the rest. Needs jq.
set -euo pipefail
input=$(cat)

# URL questions stay with the user (elicit refuses a hook's accept anyway).
[ "$(jq -r .mode <<<"$input")" = form ] || exit 0

# Refuse anything about production, saying why: exit 2 declines, and
# elicit shows what was written on stderr.
if jq -r .message <<<"$input" | grep -qi production; then
  echo "no production changes from this machine" >&2
  exit 2
fi

# A form with a "branch" property is answered with main; elicit checks
# the content against the schema like any answer.
if jq -e '.requested_schema.properties | has("branch")' <<<"$input" >/dev/null; then
  jq -n '{hookSpecificOutput: {hookEventName: "Elicitation", action: "accept", content: {branch: "main"}}}'
  exit 0
fi

# Anything else: print nothing, and the user is asked.
