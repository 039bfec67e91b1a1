package mcpconn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
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
	return &observer{schemas: map[string][]json.RawMessage{}, tools: map[string]json.RawMessage{}, asked: map[string]*asked{}, log: log}
}

// maxKept bounds the schemas and tools the observer keeps: past it, the
// oldest go (their forms then come in the SDK's key order).
const maxKept = 1024

// maxObserved is the largest message the observer reads; a longer one
// passes unobserved (its schema then comes in the SDK's key order).
const maxObserved = 8 << 20

type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type wireElicit struct {
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	URL             string          `json:"url"`
	ElicitationID   string          `json:"elicitationId"`
}

// in observes one message from the server.
func (o *observer) in(line []byte) {
	o.trace("<-", line)
	line = bytes.TrimSpace(line)
	if len(line) == 0 || len(line) > maxObserved {
		return
	}
	var msgs []wireMessage
	if line[0] == '[' { // a batch
		if json.Unmarshal(line, &msgs) != nil {
			return
		}
	} else {
		var m wireMessage
		if json.Unmarshal(line, &m) != nil {
			return
		}
		msgs = []wireMessage{m}
	}
	for _, m := range msgs {
		o.inMessage(m)
	}
}

func (o *observer) inMessage(m wireMessage) {
	switch {
	case m.Method == "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			o.mu.Lock()
			if a := o.asked[string(bytes.TrimSpace(p.RequestID))]; a != nil {
				a.withdrawn = true
			}
			o.mu.Unlock()
		}
	case m.Method == "elicitation/create":
		var p wireElicit
		if json.Unmarshal(m.Params, &p) != nil {
			return
		}
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
		if json.Unmarshal(m.Result, &r) != nil {
			return
		}
		o.mu.Lock()
		for _, t := range r.Tools {
			if len(o.tools) >= 10*maxKept {
				clear(o.tools)
			}
			if len(t.InputSchema) > 0 {
				o.tools[t.Name] = t.InputSchema
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
	var v any
	if len(p.RequestedSchema) == 0 || json.Unmarshal(p.RequestedSchema, &v) != nil {
		return ""
	}
	key := formKey(p.Message, v)
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.schemas) >= maxKept { // never more than this, whatever the server sends
		clear(o.schemas)
	}
	if len(o.schemas[key]) < 64 { // a server repeating one form cannot make us hold more
		o.schemas[key] = append(o.schemas[key], p.RequestedSchema)
	}
	return key
}

// formKey names a form by its message and its schema's content (keys in
// sorted order, numbers as float64): what the SDK's decoded map still
// tells.
func formKey(message string, schema any) string {
	var b strings.Builder
	b.Grow(512)
	b.WriteString("form\x00")
	b.WriteString(message)
	b.WriteByte(0)
	if !canonical(&b, schema) {
		return ""
	}
	return b.String()
}

// canonical writes a decoded JSON value as json.Marshal would (object keys
// sorted, numbers as float64), and reports whether it could. It is
// hand-written because formKey runs twice for every form (the raw schema
// and the SDK's copy): encoding/json's reflection and its sorted map keys
// were a third of what elicit mcp call allocated beyond a bare client.
// Anything but the types a JSON decoder makes goes through json.Marshal.
func canonical(b *strings.Builder, v any) bool {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		return writeString(b, v)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return false // json.Marshal refuses them too
		}
		// encoding/json's float64 format: 'e' outside [1e-6, 1e21).
		format, abs := byte('f'), math.Abs(v)
		if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
			format = 'e'
		}
		var buf [32]byte
		n := strconv.AppendFloat(buf[:0], v, format, -1, 64)
		if format == 'e' { // e-09 becomes e-9, as encoding/json writes it
			if l := len(n); l >= 4 && n[l-4] == 'e' && n[l-3] == '-' && n[l-2] == '0' {
				n[l-2] = n[l-1]
				n = n[:l-1]
			}
		}
		b.Write(n)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if !canonical(b, e) {
				return false
			}
		}
		b.WriteByte(']')
	case map[string]any:
		var small [16]string
		keys := small[:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			if !writeString(b, k) {
				return false
			}
			b.WriteByte(':')
			if !canonical(b, v[k]) {
				return false
			}
		}
		b.WriteByte('}')
	default:
		return marshalInto(b, v)
	}
	return true
}

// marshalInto writes json.Marshal's encoding of v (what canonical does not
// walk itself).
func marshalInto(b *strings.Builder, v any) bool {
	out, err := json.Marshal(v)
	if err != nil {
		return false
	}
	b.Write(out)
	return true
}

// writeString writes s as json.Marshal would.
func writeString(b *strings.Builder, s string) bool {
	if !plainString(s) {
		return marshalInto(b, s)
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
	return true
}

// plainString reports whether json.Marshal writes s between quotes as it
// is: printable ASCII without a quote, a backslash or an HTML character.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

func urlKey(message, url, id string) string { return "url\x00" + message + "\x00" + url + "\x00" + id }

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
	if len(line) > maxObserved || json.Unmarshal(bytes.TrimSpace(line), &m) != nil || len(m.ID) == 0 || m.Method != "" {
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

// lineTap hands every complete line that passes through it to f, before
// the bytes go on; a line over maxObserved is not handed (it passes).
type lineTap struct {
	f    func([]byte)
	buf  []byte
	over bool
}

func (t *lineTap) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if !t.over {
			if len(t.buf)+len(chunk) > maxObserved {
				t.over, t.buf = true, nil
			} else {
				t.buf = append(t.buf, chunk...)
			}
		}
		if i < 0 {
			return
		}
		if !t.over && len(bytes.TrimSpace(t.buf)) > 0 {
			t.f(t.buf)
		}
		t.buf, t.over = t.buf[:0], false
		p = p[i+1:]
	}
}

// tapReader observes what the SDK reads.
type tapReader struct {
	r   io.ReadCloser
	tap lineTap
}

func (t *tapReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.tap.feed(p[:n])
	return n, err
}

func (t *tapReader) Close() error { return t.r.Close() }

// tapWriter observes what the SDK writes.
type tapWriter struct {
	mu  sync.Mutex
	w   io.WriteCloser
	tap lineTap
}

func (t *tapWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.tap.feed(p)
	t.mu.Unlock()
	return t.w.Write(p)
}

func (t *tapWriter) Close() error { return t.w.Close() }
