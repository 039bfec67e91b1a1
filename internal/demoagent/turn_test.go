package demoagent

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"
)

func TestChunks(t *testing.T) {
	tests := []struct {
		name string
		in   string
		size int
		want []string
	}{
		{"empty", "", 8, nil},
		{"short", "hello", 8, []string{"hello"}},
		{"breaks after spaces", "one two three four", 8, []string{"one two ", "three ", "four"}},
		{"breaks after newlines", "ab\ncd\nef", 4, []string{"ab\n", "cd\n", "ef"}},
		{"no space cuts at size", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"never splits a rune", "ééééé", 5, []string{"éé", "éé", "é"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := chunks(tt.in, tt.size)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("chunks(%q, %d) = %q, want %q", tt.in, tt.size, got, tt.want)
			}
		})
	}
}

func FuzzChunks(f *testing.F) {
	f.Add("## Heading\n\n- a list\n```go\nfmt.Println(1)\n```\n", 8)
	f.Add("ééé 日本語 text", 4)
	f.Fuzz(func(t *testing.T, s string, size int) {
		if size < 4 || size > 64 {
			t.Skip()
		}
		got := chunks(s, size)
		if strings.Join(got, "") != s {
			t.Fatalf("chunks do not join back to the input: %q", got)
		}
		for _, c := range got {
			if c == "" || len(c) > size {
				t.Fatalf("chunk %q is empty or longer than %d", c, size)
			}
			if utf8.ValidString(s) && !utf8.ValidString(c) {
				t.Fatalf("chunk %q splits a rune", c)
			}
		}
	})
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		in        string
		name, arg string
		ok        bool
	}{
		{"hello", "", "", false},
		{"  /help  ", "help", "", true},
		{"/FORM Enums", "form", "Enums", true},
		{"/forms   20", "forms", "20", true},
		{"flood 1000", "flood", "1000", true},
		{"Flood", "flood", "", true},
		{"flooding the market", "", "", false},
		{"/", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		name, arg, ok := parseCommand(tt.in)
		if name != tt.name || arg != tt.arg || ok != tt.ok {
			t.Errorf("parseCommand(%q) = %q, %q, %v; want %q, %q, %v", tt.in, name, arg, ok, tt.name, tt.arg, tt.ok)
		}
	}
}

func TestParseCount(t *testing.T) {
	tests := []struct {
		in      string
		want    int
		wantErr bool
	}{
		{"", 7, false},
		{"1", 1, false},
		{"100", 100, false},
		{"101", 0, true},
		{"0", 0, true},
		{"-3", 0, true},
		{"ten", 0, true},
	}
	for _, tt := range tests {
		got, err := parseCount(tt.in, 7, 100)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("parseCount(%q) = %d, %v", tt.in, got, err)
		}
	}
}

func TestParseElicitResult(t *testing.T) {
	tests := []struct {
		raw     string
		action  string
		content string
		wantErr bool
	}{
		{`{"action":"accept","content":{"b":1,"a":2}}`, "accept", `{"b":1,"a":2}`, false},
		{`{"action":"decline"}`, "decline", "", false},
		{`{"action":"cancel","content":null}`, "cancel", "", false},
		{`{"action":"maybe"}`, "", "", true},
		{`{}`, "", "", true},
		{`[1]`, "", "", true},
	}
	for _, tt := range tests {
		r, err := parseElicitResult([]byte(tt.raw))
		if (err != nil) != tt.wantErr || r.action != tt.action || string(r.content) != tt.content {
			t.Errorf("parseElicitResult(%s) = %+v, %v", tt.raw, r, err)
		}
	}
}

func TestDescribeErrorAndReport(t *testing.T) {
	re := acp.NewInvalidParams(map[string]any{"error": "property \"address\": nested objects are not supported"})
	if got := describeError(re); got != `-32602 Invalid params {"error":"property \"address\": nested objects are not supported"}` {
		t.Errorf("describeError = %s", got)
	}
	if got := describeError(errors.New("boom")); got != "boom" {
		t.Errorf("describeError = %s", got)
	}
	r, _ := parseElicitResult([]byte(`{"action":"accept","content":{"z":1,"a":true}}`))
	report := receivedReport("1. x", r, nil)
	if !strings.Contains(report, "```json\n{\n  \"action\": \"accept\",\n  \"content\": {\n    \"z\": 1,\n    \"a\": true") {
		t.Errorf("report does not keep the received order:\n%s", report)
	}
}

func TestOneLine(t *testing.T) {
	if got := oneLine("a\n b\t c", 80); got != "a b c" {
		t.Errorf("oneLine = %q", got)
	}
	if got := oneLine("abcdef", 4); got != "abc…" {
		t.Errorf("oneLine = %q", got)
	}
}
