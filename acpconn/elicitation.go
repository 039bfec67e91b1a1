package acpconn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// invalidParams is a -32602 error whose message names what is wrong, with
// the property (when there is one) and the reason in its data as well.
func invalidParams(property, reason string) *acp.RequestError {
	msg := "Invalid params: " + reason
	data := map[string]any{"reason": reason}
	if property != "" {
		msg = fmt.Sprintf("Invalid params: %s: %s", property, reason)
		data["property"] = property
	}
	return &acp.RequestError{Code: -32602, Message: msg, Data: data}
}

type rawElicitation struct {
	SessionID       *string         `json:"sessionId"`
	ToolCallID      *string         `json:"toolCallId"`
	RequestID       json.RawMessage `json:"requestId"`
	Message         *string         `json:"message"`
	Mode            *string         `json:"mode"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	ElicitationID   *string         `json:"elicitationId"`
	URL             *string         `json:"url"`
}

// parseElicitation validates elicitation/create params the way the SDK does
// not: mode is required and must be one the client declared, URL mode needs
// an elicitationId and an http(s) URL, and the schema must be in the
// restricted subset. Every refusal names what is wrong. What it returns is
// the question as every layer above takes it (ID 0 until it is
// registered); q.Kind says the mode (a refusal's q may hold a mode it did
// not know as Form). urls analyzes a URL (nil: the built-in list).
func parseElicitation(params json.RawMessage, allowForm, allowURL bool, urls *urlcheck.Analyzer) (*question.Question, *acp.RequestError) {
	var r rawElicitation
	q := &question.Question{Kind: question.Form}
	if p := bytes.TrimSpace(params); len(p) == 0 || p[0] != '{' {
		return q, invalidParams("", "params must be an object")
	}
	if err := json.Unmarshal(params, &r); err != nil {
		return q, invalidParams("", "malformed params: "+err.Error())
	}
	if r.SessionID != nil {
		q.From.Session = *r.SessionID
	}
	if r.ToolCallID != nil {
		q.From.ToolCall = *r.ToolCallID
	}
	if len(r.RequestID) > 0 && string(r.RequestID) != "null" {
		// Exact: a string's value, or a number's JSON text.
		var s string
		if json.Unmarshal(r.RequestID, &s) != nil {
			s = string(bytes.TrimSpace(r.RequestID))
		}
		q.From.RequestID = s
	}
	if r.Mode == nil {
		return q, invalidParams("mode", `mode is required ("form" or "url")`)
	}
	if r.Message == nil {
		return q, invalidParams("message", "message is required")
	}
	if err := question.CheckMessage(*r.Message); err != nil {
		return q, invalidParams("message", err.Error())
	}
	q.Message = sanitize.Text(*r.Message)
	switch *r.Mode {
	case "form":
		if !allowForm {
			return q, invalidParams("mode", "form mode was not declared by this client")
		}
		if len(r.RequestedSchema) == 0 || string(r.RequestedSchema) == "null" {
			return q, invalidParams("requestedSchema", "requestedSchema is required in form mode")
		}
		if err := question.CheckSchema(r.RequestedSchema); err != nil {
			return q, invalidParams("requestedSchema", err.Error())
		}
		q.RawSchema = r.RequestedSchema
		s, err := schema.ParseSchema(r.RequestedSchema)
		if err != nil {
			var se *schema.SchemaError
			switch {
			case errors.As(err, &se) && se.Property != "":
				return q, invalidParams("requestedSchema.properties."+se.Property, se.Reason)
			case errors.As(err, &se):
				return q, invalidParams("requestedSchema", se.Reason)
			}
			return q, invalidParams("requestedSchema", err.Error())
		}
		q.Schema = s
	case "url":
		q.Kind = question.URL
		if !allowURL {
			return q, invalidParams("mode", "url mode was not declared by this client")
		}
		if r.ElicitationID == nil || *r.ElicitationID == "" {
			return q, invalidParams("elicitationId", "elicitationId is required in url mode")
		}
		if r.URL == nil || *r.URL == "" {
			return q, invalidParams("url", "url is required in url mode")
		}
		q.ElicitationID = *r.ElicitationID
		q.URL = *r.URL
		q.Report = urls.Analyze(q.URL)
		if q.Report.Invalid() {
			return q, invalidParams("url", "url does not parse: "+warningText(q.Report, "invalid"))
		}
		if !q.Report.Openable() {
			return q, invalidParams("url", fmt.Sprintf("url scheme %q is not allowed: only http and https are opened", sanitize.Line(q.Report.Scheme)))
		}
	default:
		return q, invalidParams("mode", fmt.Sprintf(`unknown mode %q ("form" or "url")`, sanitize.Line(*r.Mode)))
	}
	return q, nil
}

func warningText(r urlcheck.Report, code string) string {
	for _, w := range r.Warnings {
		if w.Code == code {
			return w.Message
		}
	}
	return code
}
