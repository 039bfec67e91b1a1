package foreignhost

import (
	"encoding/json"
	"strings"
)

type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// handle answers one message of a client.
func (h *Host) handle(c *conn, data []byte) {
	var m message
	if json.Unmarshal(data, &m) != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	result, code, text := h.call(c, m)
	if m.ID == nil {
		return
	}
	reply := map[string]any{"jsonrpc": "2.0", "id": m.ID}
	if code != 0 {
		reply["error"] = map[string]any{"code": code, "message": text, "data": map[string]any{"hint": 1}}
	} else {
		reply["result"] = result
	}
	h.write(c, reply)
}

// call runs one request or notification. h.mu is held.
func (h *Host) call(c *conn, m message) (result any, code int, text string) {
	var p struct {
		Channel   string          `json:"channel"`
		ClientID  string          `json:"clientId"`
		ClientSeq json.Number     `json:"clientSeq"`
		Action    json.RawMessage `json:"action"`
	}
	_ = json.Unmarshal(m.Params, &p)
	switch m.Method {
	case "initialize":
		c.clientID = p.ClientID
		return map[string]any{"protocolVersion": "1.1.0", "serverSeq": h.seq,
			"serverInfo": map[string]any{"name": "pi-ahp", "version": h.odd(2, "2.0.0"), "build": []int{1, 2}},
			"snapshots":  []any{}, "capabilities": map[string]any{"canvas": true}, "defaultDirectory": 42}, 0, ""
	case "reconnect":
		return nil, -32008, "unknown client: initialize again"
	case "ping":
		return map[string]any{}, 0, ""
	case "listSessions":
		return map[string]any{"items": []any{h.summary()}, "nextCursor": nil, "total": h.odd("1", 1)}, 0, ""
	case "subscribe":
		state, err := h.state(p.Channel)
		if err != nil {
			return nil, -32602, err.Error()
		}
		c.subs[p.Channel] = true
		return map[string]any{"snapshot": map[string]any{"resource": p.Channel, "state": state, "fromSeq": h.seq, "stale": h.odd("no", false)}}, 0, ""
	case "unsubscribe":
		delete(c.subs, p.Channel)
		return nil, 0, ""
	case "dispatchAction":
		h.dispatch(c, p.Channel, p.ClientSeq, p.Action)
		return nil, 0, ""
	}
	return nil, -32601, "method not found: " + m.Method
}

// summary is the session in listSessions, with odd fields.
func (h *Host) summary() map[string]any {
	return map[string]any{"resource": h.SessionURI(), "provider": "pi", "title": "Pi session",
		"status": h.odd("input-needed", 24), "modifiedAt": h.odd(1731400000123, "2026-11-12T10:04:31Z"), "activity": "waiting for you",
		"workingDirectories": []string{"file:///work"}, "_meta": map[string]any{"git": map[string]any{"branch": "main"}}}
}

// dispatch applies a client's input action to the chat it names and
// echoes it to the chat's subscribers with the sender's origin; an action
// this host cannot apply is echoed to the sender with a rejectionReason.
// h.mu is held.
func (h *Host) dispatch(c *conn, channel string, seq json.Number, raw json.RawMessage) {
	var a struct {
		Type       string                     `json:"type"`
		RequestID  string                     `json:"requestId"`
		QuestionID string                     `json:"questionId"`
		Answer     json.RawMessage            `json:"answer"`
		Response   string                     `json:"response"`
		Answers    map[string]json.RawMessage `json:"answers"`
	}
	_ = json.Unmarshal(raw, &a)
	h.got = append(h.got, Dispatch{Channel: channel, ClientID: c.clientID, Type: a.Type, Action: raw})
	h.poke()
	origin := map[string]any{"clientId": c.clientID, "clientSeq": h.odd(seq.String(), seq), "displayName": "someone"}
	reject := func(why string) {
		h.seq++
		h.write(c, map[string]any{"jsonrpc": "2.0", "method": "action", "params": map[string]any{
			"channel": channel, "action": raw, "serverSeq": h.seq, "origin": origin, "rejectionReason": why}})
	}
	ch, r := h.find(a.RequestID)
	switch {
	case !strings.HasPrefix(a.Type, "chat/"):
		reject("only chat actions are dispatched here")
		return
	case ch == nil || ch.uri != channel:
		reject("no such request in " + channel)
		return
	case r.response != "":
		reject("the request was already completed")
		return
	}
	switch a.Type {
	case "chat/inputAnswerChanged":
		if len(a.Answer) == 0 || string(a.Answer) == "null" {
			delete(r.answers, a.QuestionID)
		} else {
			r.answers[a.QuestionID] = a.Answer
		}
	case "chat/inputCompleted":
		for k, v := range a.Answers {
			r.answers[k] = v
		}
		r.response = a.Response
	default:
		reject("not an input action")
		return
	}
	h.broadcast(channel, withExtra(raw), origin)
	if a.Type == "chat/inputCompleted" {
		h.broadcast(h.SessionURI(), map[string]any{"type": "session/inputNeededRemoved", "id": "need-" + r.id}, nil)
	}
}

// withExtra is an action with a field no client knows.
func withExtra(raw json.RawMessage) map[string]any {
	var a map[string]any
	_ = json.Unmarshal(raw, &a)
	a["receivedAt"] = 1731400000456
	return a
}
