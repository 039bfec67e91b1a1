package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/elicit-dev/elicit/internal/testkit"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const childEnv = "ELICIT_AUDIT_TEST_CHILD"

const childLines = 300

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		os.Exit(child(path, os.Getenv(childEnv+"_NAME")))
	}
	testkit.SkipRaceExitSleep() // the children this binary starts exit at once
	os.Exit(m.Run())
}

// child appends childLines long entries, as another elicit process would.
func child(path, name string) int {
	l, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer l.Close()
	for i := range childLines {
		e := Entry{Agent: name, Kind: Form, AnsweredBy: ByHook, Outcome: "accept", Note: strings.Repeat(name, 2000), Keys: []string{fmt.Sprint(i)}}
		if err := l.Record(e); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

func TestTwoProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var cmds []*exec.Cmd
	for _, name := range []string{"a", "b"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+path, childEnv+"_NAME="+name)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("a line is not one entry: %v", err)
		}
		seen[e.Agent]++
	}
	if seen["a"] != childLines || seen["b"] != childLines {
		t.Errorf("lines per process: %v", seen)
	}
}

func TestRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "audit.jsonl")
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 12, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	e := Entry{Time: at, Agent: "claude", Session: "s1", Kind: URL, Message: strings.Repeat("é", MaxMessage+5), Site: "example.com", AnsweredBy: ByUser, Outcome: "accept"}
	if err := l.Record(e); err != nil {
		t.Fatal(err)
	}
	if err := l.Record(Entry{Kind: Permission, AnsweredBy: ByAuto, Outcome: "cancel"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode: %v %v", st, err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines:\n%s", len(lines), data)
	}
	var got Entry
	if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
		t.Fatal(err)
	}
	if !got.Time.Equal(at) || got.Time.Location() != time.UTC || got.Message != strings.Repeat("é", MaxMessage)+"…" || got.Site != "example.com" {
		t.Errorf("entry = %+v", got)
	}
	if !strings.Contains(lines[1], `"kind":"permission"`) || !strings.Contains(lines[1], `"answered_by":"auto"`) || strings.Contains(lines[1], `"time":"0001`) {
		t.Errorf("second line: %s", lines[1])
	}
	var none *Log
	if none.Record(e) != nil || none.Close() != nil {
		t.Error("a nil Log failed")
	}
}

func TestSetContent(t *testing.T) {
	secret := func(k string) bool { return k == "password" }
	tests := []struct {
		name    string
		content string
		secret  func(string) bool
		keys    string
		values  string
		bad     bool
	}{
		{"mixed", `{"user":"ada","password":"hunter2","n":1.50}`, secret, "user password n", `{"n":1.50,"user":"ada"}`, false},
		{"nil rule keeps no value", `{"user":"ada"}`, nil, "user", `null`, false},
		{"empty", `{}`, secret, "", `null`, false},
		{"not an object", `[1]`, secret, "", "", true},
		{"broken", `{"a":`, secret, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e Entry
			err := e.SetContent(json.RawMessage(tt.content), tt.secret)
			if (err != nil) != tt.bad {
				t.Fatalf("err = %v", err)
			}
			if tt.bad {
				return
			}
			values, _ := json.Marshal(e.Values)
			if strings.Join(e.Keys, " ") != tt.keys || string(values) != tt.values {
				t.Errorf("keys %v values %s", e.Keys, values)
			}
			if strings.Contains(string(values), "hunter2") {
				t.Error("a secret value was kept")
			}
		})
	}
}
