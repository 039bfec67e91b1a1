package mcpconn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// observer sees every JSON-RPC message as raw bytes, on both transports,
// before the SDK decodes it. The SDK hands elicitation schemas and tool
// input schemas over as Go maps, which lose the property order the server
// wrote (a form's fields must come in that order): the observer keeps the
// raw schemas, and the handler takes each back by its content. It also
// notices an elicitation the SDK refused before the handler saw it (a
// schema outside the SDK's subset), so the user hears of it, and writes
// the --log trace. It is hand-written because the SDK offers no hook on
// the raw messages of an IOTransport or a streamable client.
type observer struct {
	mu      sync.Mutex
	keys    *schemaKeys                  // raw schema -> its canonical text, for the last few
	schemas map[string][]json.RawMessage // elicitKey -> raw requestedSchemas, oldest first
	tools   map[string]json.RawMessage   // tool name -> raw inputSchema
	asked   map[string]*asked            // JSON-RPC id -> an elicitation/create not yet answered
	log     io.Writer
	// refused is called (not under the lock) when an elicitation/create
	// was answered with an error without reaching the handler.
	refused func(message, reason string)
}

// asked is an elicitation/create the server sent.
type asked struct {
	key     string
	message string
	handled bool // the handler took it
	// withdrawn is set when the server cancelled it (notifications/cancelled).
	withdrawn bool
}

func newObserver(log io.Writer) *observer {
	return &observer{keys: newSchemaKeys(), schemas: map[string][]json.RawMessage{}, tools: map[string]json.RawMessage{}, asked: map[string]*asked{}, log: log}
}

// maxKept bounds the schemas and tools the observer keeps: past it, the
// oldest go (their forms then come in the SDK's key order).
const maxKept = 1024

// maxObserved is the largest message the observer reads; a longer one
// passes unobserved (its schema then comes in the SDK's key order).
const maxObserved = 8 << 20

// wireMessage is a JSON-RPC message, with the params of the requests and
// notifications the observer reads (elicitation/create, and
// notifications/cancelled's requestId) read in the same pass.
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params wireParams      `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type wireParams struct {
	wireElicit
	RequestID json.RawMessage `json:"requestId"`
}

type wireElicit struct {
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	URL             string          `json:"url"`
	ElicitationID   string          `json:"elicitationId"`
}

// in observes one message from the server. What it keeps of the line is
// copied: the tap reuses it.
func (o *observer) in(line []byte) {
	o.trace("<-", line)
	line = bytes.TrimSpace(line)
	if len(line) == 0 || len(line) > maxObserved || tooDeep(line) {
		return
	}
	if line[0] == '[' { // a batch
		var msgs []wireMessage
		if !decodeChecked(line, &msgs) {
			return
		}
		for _, m := range msgs {
			o.inMessage(m)
		}
		return
	}
	var m wireMessage
	if decodeChecked(line, &m) {
		o.inMessage(m)
	}
}

func (o *observer) inMessage(m wireMessage) {
	switch {
	case m.Method == "notifications/cancelled":
		o.mu.Lock()
		if a := o.asked[string(bytes.TrimSpace(m.Params.RequestID))]; a != nil {
			a.withdrawn = true
		}
		o.mu.Unlock()
	case m.Method == "elicitation/create":
		p := m.Params.wireElicit
		key := o.keep(p)
		if len(m.ID) > 0 {
			o.mu.Lock()
			o.asked[string(m.ID)] = &asked{key: key, message: p.Message}
			o.mu.Unlock()
		}
	case len(m.Result) > 0 && m.Result[0] == '{':
		var r struct {
			Tools []struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
			InputRequests map[string]struct {
				Method string     `json:"method"`
				Params wireElicit `json:"params"`
			} `json:"inputRequests"`
		}
		if !decodeChecked(m.Result, &r) {
			return
		}
		o.mu.Lock()
		for _, t := range r.Tools {
			if len(o.tools) >= 10*maxKept {
				clear(o.tools)
			}
			if len(t.InputSchema) > 0 {
				o.tools[t.Name] = rawOf(t.InputSchema)
			}
		}
		o.mu.Unlock()
		for _, ir := range r.InputRequests { // 2026-07-28 multi-round-trip
			if ir.Method == "elicitation/create" {
				o.keep(ir.Params)
			}
		}
	}
}

// keep records an elicitation's raw schema under its key.
func (o *observer) keep(p wireElicit) string {
	if p.Mode == "url" || p.URL != "" || p.ElicitationID != "" {
		return urlKey(p.Message, p.URL, p.ElicitationID)
	}
	if len(p.RequestedSchema) == 0 {
		return ""
	}
	raw, canon, ok := o.keys.get(p.RequestedSchema)
	if !ok {
		return ""
	}
	key := formKeyOf(p.Message, canon)
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.schemas) >= maxKept { // never more than this, whatever the server sends
		clear(o.schemas)
	}
	if len(o.schemas[key]) < 64 { // a server repeating one form cannot make us hold more
		o.schemas[key] = append(o.schemas[key], raw)
	}
	return key
}

// claim is called by the handler: it returns the raw schema of the form
// the SDK decoded into schema (nil when it was not observed), and marks
// the request as handled; a is the request (nil for an input request of a
// 2026-07-28 result, which has no id of its own).
func (o *observer) claim(message string, schema any) (raw json.RawMessage, a *asked) {
	key := formKey(message, schema)
	o.mu.Lock()
	defer o.mu.Unlock()
	a = o.handled(key)
	list := o.schemas[key]
	if len(list) == 0 {
		return nil, a
	}
	raw = list[0]
	if len(list) == 1 {
		delete(o.schemas, key)
	} else {
		o.schemas[key] = list[1:]
	}
	return raw, a
}

// claimURL marks a URL elicitation as handled (see claim).
func (o *observer) claimURL(message, url, id string) *asked {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.handled(urlKey(message, url, id))
}

func (o *observer) handled(key string) *asked {
	for _, a := range o.asked { // identical requests are interchangeable
		if a.key == key && !a.handled {
			a.handled = true
			return a
		}
	}
	return nil
}

// withdrawn reports whether the server cancelled request a.
func (o *observer) withdrawn(a *asked) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return a != nil && a.withdrawn
}

// toolSchema returns the raw inputSchema the server listed for a tool.
func (o *observer) toolSchema(name string) json.RawMessage {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.tools[name]
}

// out observes one message to the server: an error answer to an
// elicitation the handler never saw is a refusal by the SDK.
func (o *observer) out(line []byte) {
	o.trace("->", line)
	// Only the id, the method and the error: not a copy of the result.
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if len(line) > maxObserved || !decode(bytes.TrimSpace(line), &m) || len(m.ID) == 0 || m.Method != "" {
		return
	}
	o.mu.Lock()
	a := o.asked[string(m.ID)]
	delete(o.asked, string(m.ID))
	if a != nil && !a.handled { // refused before the handler: its schema is not claimed
		if list := o.schemas[a.key]; len(list) > 1 {
			o.schemas[a.key] = list[1:]
		} else {
			delete(o.schemas, a.key)
		}
	}
	o.mu.Unlock()
	if a == nil || a.handled || m.Error == nil || o.refused == nil {
		return
	}
	o.refused(a.message, fmt.Sprintf("%s (%d)", m.Error.Message, m.Error.Code))
}

// note writes a line of elicit's own to the trace.
func (o *observer) note(s string) { o.trace("--", []byte(s)) }

func (o *observer) trace(dir string, b []byte) {
	if o.log == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Fprintf(o.log, "%s %s %s\n", time.Now().UTC().Format("15:04:05.000"), dir, bytes.TrimRight(b, "\r\n"))
}
