package netclient

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// events reads an SSE stream through ReadEvents, and through a counting
// parser (which must fail where it fails).
func events(r io.Reader) ([]string, error) {
	var out []string
	var all bytes.Buffer
	err := ReadEvents(io.TeeReader(r, &all), func(d []byte) error {
		out = append(out, string(d))
		return nil
	})
	_, cerr := io.Copy(io.Discard, &eventCapped{rc: io.NopCloser(&all)})
	if (err == nil) != (cerr == nil) {
		return out, fmt.Errorf("the counting parser disagrees: %v, %v", err, cerr)
	}
	return out, err
}

// referenceSSE is the event stream format read the plain way (all lines
// at once), for the fuzzer to hold ReadEvents to.
func referenceSSE(s string) []string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	var out []string
	var data []string
	has, skip := false, false
	flush := func() {
		if has && !skip && strings.TrimSpace(strings.Join(data, "\n")) != "" {
			out = append(out, strings.Join(data, "\n"))
		}
		data, has, skip = nil, false, false
	}
	for _, line := range strings.Split(s, "\n") {
		switch {
		case line == "":
			flush()
		case line[0] == ':':
		default:
			name, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch name {
			case "data":
				data, has = append(data, value), true
			case "event":
				skip = value != "" && value != "message"
			}
		}
	}
	flush()
	return out
}

func TestReadEvents(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"data: {\"a\":1}\n\n", []string{`{"a":1}`}},
		{": keep-alive\n\ndata: x\r\n\r\ndata:y\r\r", []string{"x", "y"}},
		{"data: {\"a\":\ndata: 1}\n\n", []string{"{\"a\":\n1}"}},
		{"event: ping\ndata: {}\n\nevent: message\ndata: z\n\n", []string{"z"}},
		{"id: 7\nretry: 10\ndata: last", []string{"last"}},
		{"data:\n\n", nil},
	} {
		got, err := events(strings.NewReader(tc.in))
		if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q: %q %v, want %q", tc.in, got, err, tc.want)
		}
	}
}

// An event over MaxMessageBytes ends the stream with ErrTooLarge, one
// line or many, and nothing of it is handed on; one at the limit passes.
func TestReadEventsTooLarge(t *testing.T) {
	many := strings.Repeat("data: "+strings.Repeat("a", 1023)+"\n", MaxMessageBytes/1024) // 1024 bytes each, line breaks counted
	for _, tc := range []struct {
		name, in string
		err      error
	}{
		{"one line", "data: " + strings.Repeat("a", MaxMessageBytes+1) + "\n\n", ErrTooLarge},
		{"many lines", many + "data: a\n\n", ErrTooLarge},
		{"a line without end", "data: " + strings.Repeat("a", MaxMessageBytes+1), ErrTooLarge},
		{"an id line", "id: " + strings.Repeat("a", MaxMessageBytes+10) + "\n\n", ErrTooLarge},
		{"at the limit", "data: " + strings.Repeat("a", MaxMessageBytes) + "\n\n", nil},
		{"many under the limit", many, nil},
	} {
		got, err := events(strings.NewReader(tc.in))
		if err != tc.err || (tc.err != nil && len(got) != 0) || (tc.err == nil && len(got) != 1) {
			t.Errorf("%s: err %v, %d events", tc.name, err, len(got))
		}
	}
}

// FuzzReadSSE: ReadEvents reads any stream as the plain reference does, in
// one read or one byte at a time.
func FuzzReadSSE(f *testing.F) {
	for _, s := range []string{"data: a\n\n", "data: a\r\ndata: b\r\n\r\n", ": c\rdata:x\r\r", "event: e\ndata: y\n\ndata: z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := referenceSSE(s)
		for _, r := range []io.Reader{strings.NewReader(s), iotest.OneByteReader(bytes.NewReader([]byte(s)))} {
			got, err := events(r)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
				t.Fatalf("%q: got %q, want %q", s, got, want)
			}
		}
	})
}
