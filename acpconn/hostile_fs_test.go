//go:build unix

package acpconn

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// sandbox makes base/session (the session directory) and base/outside.
func sandbox(t *testing.T) (session, outside string) {
	t.Helper()
	base := t.TempDir()
	session, outside = filepath.Join(base, "session"), filepath.Join(base, "outside")
	for _, d := range []string{session, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return session, outside
}

// fsReq is one fs request for the fs-requests agent.
type fsReq struct {
	method string
	params map[string]any
}

func read(path string, extra ...any) fsReq {
	p := map[string]any{"path": path}
	for i := 0; i+1 < len(extra); i += 2 {
		p[extra[i].(string)] = extra[i+1]
	}
	return fsReq{"fs/read_text_file", p}
}

func write(path, content string) fsReq {
	return fsReq{"fs/write_text_file", map[string]any{"path": path, "content": content}}
}

// runFS has the fs-requests agent send reqs and returns its outcome lines
// and every event of the turn.
func runFS(t *testing.T, dir string, cfg Config, reqs ...fsReq) ([]string, []Event) {
	t.Helper()
	var list [][2]any
	for _, r := range reqs {
		list = append(list, [2]any{r.method, r.params})
	}
	b, _ := json.Marshal(list)
	cfg.Dir = dir
	cfg.Env = append(cfg.Env, "ACPCONN_FS_REQS="+string(b))
	c := start(t, "fs-requests", cfg)
	c.StartPrompt("go")
	end, evs := until[TurnEnded](t, c)
	if end.Err != nil {
		t.Fatalf("turn failed: %v", end.Err)
	}
	return strings.Split(strings.TrimSuffix(agentText(evs), "\n"), "\n"), evs
}

func refused(t *testing.T, what, outcome string) {
	t.Helper()
	if !strings.HasPrefix(outcome, "error ") {
		t.Errorf("%s was not refused: %s", what, outcome)
	}
}

// Issue case 1: a dangling symlink to outside must not let a write create
// the file outside.
func TestFSDanglingSymlinkWriteStaysInside(t *testing.T) {
	session, outside := sandbox(t)
	if err := os.Symlink("../outside/new.txt", filepath.Join(session, "link")); err != nil {
		t.Fatal(err)
	}
	got, _ := runFS(t, session, Config{}, write("link", "escaped"), write("sub/../link", "escaped"))
	for _, o := range got {
		refused(t, "write through a dangling link", o)
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); err == nil {
		t.Error("the write created a file outside the session directory")
	}
}

// Issue case 3: a hard link to an outside file is not written through; a
// FIFO neither hangs a read nor a write.
func TestFSHardLinkAndFIFORefused(t *testing.T) {
	session, outside := sandbox(t)
	must(t, os.WriteFile(filepath.Join(outside, "hl.txt"), []byte("orig"), 0o644))
	must(t, os.Link(filepath.Join(outside, "hl.txt"), filepath.Join(session, "hl.txt")))
	must(t, syscall.Mkfifo(filepath.Join(session, "fifo"), 0o644))
	got, _ := runFS(t, session, Config{}, write("hl.txt", "changed"), read("fifo"), write("fifo", "x"), read("fifo", "limit", 1))
	if len(got) != 4 {
		t.Fatalf("outcomes %q", got)
	}
	refused(t, "a write to a hard-linked file", got[0])
	for _, o := range got[1:] {
		refused(t, "a FIFO", o)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "hl.txt")); string(b) != "orig" {
		t.Errorf("the outside file now holds %q", b)
	}
}

// Issue case 4: reading one line of a 1 GiB file allocates O(limit), not
// O(file); a line past the response cap is refused with a clear error.
func TestFSReadIsBoundedByLimit(t *testing.T) {
	session, _ := sandbox(t)
	f, err := os.Create(filepath.Join(session, "big"))
	must(t, err)
	_, err = f.WriteString("first\n")
	must(t, err)
	must(t, f.Truncate(1<<30)) // sparse: no disk, one 1 GiB line of zeros after the first
	must(t, f.Close())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, _ := runFS(t, session, Config{}, read("big", "limit", 1), read("big", "line", 2, "limit", 1))
	runtime.ReadMemStats(&after)
	if len(got) != 2 || got[0] != `ok first\n` {
		t.Fatalf("outcomes %.200q", got)
	}
	refused(t, "a 1 GiB line", got[1])
	if !strings.Contains(got[1], "MiB") {
		t.Errorf("the refusal does not say why: %s", got[1])
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("the whole turn allocated %.1f MiB", float64(alloc)/(1<<20))
	if alloc > 96<<20 {
		t.Errorf("reading one line allocated %d MiB", alloc>>20)
	}
}

// Issue case 5: writes follow the user's word; every access is reported
// as a FileAccess event (with the content before and after a write).
func TestFSWritePolicyAndAccessEvents(t *testing.T) {
	session, _ := sandbox(t)
	got, evs := runFS(t, session, Config{Writes: WritesRefused, WritesRefusedWhy: "run with --approve"}, write("new.txt", "x"))
	refused(t, "a write under WritesRefused", got[0])
	if _, err := os.Stat(filepath.Join(session, "new.txt")); err == nil {
		t.Error("the refused write happened")
	}
	if !hasNotice(evs, "--approve") {
		t.Error("no notice of the refusal")
	}
	// WritesAsked: see TestUncoveredWriteIsAsked.
	_, evs = runFS(t, session, Config{}, write("a/b.txt", "one\n"), write("a/b.txt", "two\n"), read("a/b.txt"), read("../x"))
	var acc []FileAccess
	for _, ev := range evs {
		if a, ok := ev.(FileAccess); ok {
			acc = append(acc, a)
		}
	}
	want := []FileAccess{
		{Op: "write", Path: "a/b.txt", Bytes: 4, Created: true, New: "one\n"},
		{Op: "write", Path: "a/b.txt", Bytes: 4, Old: "one\n", New: "two\n", OldBytes: 4},
		{Op: "read", Path: "a/b.txt", Bytes: 4, Lines: 1},
	}
	if len(acc) != 4 || !reflect.DeepEqual(acc[:3], want) || acc[3].Op != "refused" || acc[3].Attempt != "read" {
		t.Errorf("events:\n%+v", acc)
	}
}

func hasNotice(evs []Event, part string) bool {
	for _, ev := range evs {
		if n, ok := ev.(Notice); ok && strings.Contains(n.Text, part) {
			return true
		}
	}
	return false
}
