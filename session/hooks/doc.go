// Package hooks runs the external commands configured to observe and
// answer questions, with the input and output of Claude Code's
// `Elicitation` and `ElicitationResult` hooks, so that hook scripts written
// for Claude Code work unchanged.
//
//	r := hooks.New(cfg.Hooks)
//	res, err := r.RunElicitation(ctx, hooks.Input{Agent: "claude", SessionID: sid, Message: msg, Mode: "form", RequestedSchema: schema})
//	if err != nil {
//		notice(err) // each failed hook, with its command and why; never silent
//	}
//	switch res.Decision {
//	case hooks.Answer:   // res.Action and res.Content: validate Content like any answer
//	case hooks.Declined: // exit status 2: decline, and show res.Reason (the hook's stderr)
//	case hooks.Pass:     // go on: --answers, history, then the screen
//	}
//
// # Contract
//
// Each hook whose event and agent glob match runs with the Input as JSON
// on stdin, in the session's directory, in a session of its own (no
// terminal) started through procgroup, so what it leaves behind ends with
// elicit. Its
// answer is stdout's {"hookSpecificOutput": {"hookEventName": EVENT,
// "action": "accept"|"decline"|"cancel", "content": {...}}}; empty stdout, or
// no action, passes. Exit status 2 declines, and its stderr says why; so
// does Claude Code's {"decision": "block", "reason": "..."}. Any other
// non-zero status, stdout that is not JSON, an unknown action, a
// hookEventName for the other event, or running past its timeout
// (config.DefaultHookTimeout unless the entry sets one; the whole process
// group is then killed), or printing more than 64 KiB on stdout or stderr
// (it is killed at once), is a failure, reported as an *Error, and the
// next hook runs. What a hook leaves running in its group is ended once it
// exits. Hooks run in the order of the configuration file; the first
// answer wins and the rest do not run.
//
// A hook may never accept a URL-mode question: opening a URL takes the
// user's consent. Such an answer is refused and reported as an *Error.
//
// Beyond Claude Code's fields (session_id, cwd, hook_event_name,
// mcp_server_name, message, mode, url, elicitation_id, requested_schema;
// action and content for ElicitationResult), the input carries `agent`
// and `tool_call_id`. An ACP client does not see which MCP server asked,
// so mcp_server_name holds the agent's name. CLAUDE_PROJECT_DIR is set to
// cwd when it is not already set.
package hooks
