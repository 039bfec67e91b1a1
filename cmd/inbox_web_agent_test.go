package cmd

import (
	"bufio"
	"encoding/json"
	"os"
)

// webFormAgent is the scripted agent of the web inbox's tests: each
// prompt asks one form (a select `choice` and a text `note`), whose
// title, message and option labels carry HTML an agent might send, and
// says what it got ("got: {...}") before the turn ends.
const webFormAgent = "webform"

// webFormSchema is the form it asks.
const webFormSchema = `{"type":"object","properties":{
 "choice":{"type":"string","title":"Colour <img src=x id=injected>","oneOf":[
   {"const":"red","title":"Red"},{"const":"green","title":"Green <script>document.title='owned'</script>"}]},
 "note":{"type":"string","title":"Note"}},"required":["choice"]}`

// runWebFormAgent is the agent; it returns at end of input.
func runWebFormAgent() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20)
	out := json.NewEncoder(os.Stdout)
	var prompt json.RawMessage // the prompt waiting on the form's answer
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		reply := func(id json.RawMessage, result any) {
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
		}
		switch {
		case m.Method == "initialize":
			reply(m.ID, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "agentInfo": map[string]any{"name": "webform"}})
		case m.Method == "session/new":
			reply(m.ID, map[string]any{"sessionId": "s1"})
		case m.Method == "session/prompt":
			prompt = m.ID
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": "form-1", "method": "elicitation/create", "params": map[string]any{
				"sessionId": "s1", "mode": "form", "message": "Pick a colour <b onmouseover=alert(1)>now</b>", "requestedSchema": json.RawMessage(webFormSchema)}})
		case m.Method == "" && prompt != nil && (m.Result != nil || m.Error != nil):
			got := string(m.Result)
			if m.Error != nil {
				got = "error " + string(m.Error)
			}
			out.Encode(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": "s1",
				"update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "got: " + got + "\n"}}}})
			reply(prompt, map[string]any{"stopReason": "end_turn"})
			prompt = nil
		}
	}
}
