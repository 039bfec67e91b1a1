package web

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/unixhttp"
)

// The control socket: how `elicit inbox pair` gets a pairing link from
// the running web inbox, and how `elicit inbox devices --revoke` ends a
// revoked device's live channel at once. It is a Unix socket beside the
// sessions' in the inbox directory (web-PID.ctl: the inbox lists only
// *.sock), mode 0600, every peer checked to be the user (ahp.ListenUnix).

// ErrNotRunning says no web inbox runs for this user.
var ErrNotRunning = errors.New("no web inbox is running: start one with elicit inbox --web")

type control struct {
	srv *http.Server
	ln  *ahp.UnixListener
}

// pairInfo is what POST /pair answers.
type pairInfo struct {
	URL     string    `json:"url"`
	Expires time.Time `json:"expires"`
}

func startControl(s *Server) (*control, error) {
	dir := s.o.Inbox.Dir
	if dir == "" {
		var err error
		if dir, err = inbox.Dir(); err != nil {
			return nil, err
		}
	}
	ln, err := ahp.ListenUnix(filepath.Join(dir, "web-"+strconv.Itoa(os.Getpid())+".ctl"))
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /pair", func(w http.ResponseWriter, _ *http.Request) {
		u, exp := s.PairURL()
		writeJSON(w, http.StatusOK, pairInfo{URL: u, Expires: exp})
	})
	mux.HandleFunc("POST /revoked", func(w http.ResponseWriter, _ *http.Request) {
		s.dropRevoked()
		w.WriteHeader(http.StatusNoContent)
	})
	c := &control{srv: &http.Server{Handler: mux}, ln: ln}
	go c.srv.Serve(ln)
	return c, nil
}

func (c *control) close() { c.srv.Close() } // closes the listener, which removes the socket

// dropRevoked ends the live channels of devices no longer paired.
func (s *Server) dropRevoked() {
	list, err := s.devices.List()
	paired := map[string]bool{}
	for _, d := range list {
		paired[d.ID] = true
	}
	s.hub.drop(func(id string) bool { return err == nil && paired[id] })
}

// Running lists the control sockets of the web inboxes running in the
// inbox directory dir, oldest process first; a socket nobody listens on
// (a crash's) is removed.
func Running(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		name := e.Name()
		pid, ok := strings.CutSuffix(strings.TrimPrefix(name, "web-"), ".ctl")
		if !ok || !strings.HasPrefix(name, "web-") || strings.Trim(pid, "0123456789") != "" || e.Type() != fs.ModeSocket {
			continue
		}
		out = append(out, filepath.Join(dir, name))
	}
	sort.Slice(out, func(i, j int) bool { return ctlPID(out[i]) < ctlPID(out[j]) })
	return out
}

func ctlPID(path string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "web-"), ".ctl"))
	return n
}

// Pair asks the web inbox running in dir for a new pairing link (pid 0:
// the only one running). It is ErrNotRunning when none runs.
func Pair(ctx context.Context, dir string, pid int) (url string, expires time.Time, err error) {
	var live []string
	for _, sock := range Running(dir) {
		if pid != 0 && ctlPID(sock) != pid {
			continue
		}
		var d net.Dialer
		c, err := d.DialContext(ctx, "unix", sock)
		if errors.Is(err, syscall.ECONNREFUSED) {
			os.Remove(sock) // its web inbox crashed
			continue
		}
		if err != nil {
			return "", time.Time{}, err
		}
		c.Close()
		live = append(live, sock)
	}
	switch len(live) {
	case 0:
		return "", time.Time{}, ErrNotRunning
	case 1:
		var info pairInfo
		if err := post(ctx, live[0], "/pair", &info); err != nil {
			return "", time.Time{}, err
		}
		return info.URL, info.Expires, nil
	}
	var pids []string
	for _, sock := range live {
		pids = append(pids, strconv.Itoa(ctlPID(sock)))
	}
	return "", time.Time{}, fmt.Errorf("several web inboxes run (processes %s): give --pid with one of them", strings.Join(pids, ", "))
}

// Revoked tells every web inbox running in dir that a device was
// revoked, so its live channel ends now.
func Revoked(ctx context.Context, dir string) {
	for _, sock := range Running(dir) {
		_ = post(ctx, sock, "/revoked", nil)
	}
}

// post sends an empty POST to path on the socket and reads the JSON reply
// into v (nil: none).
func post(ctx context.Context, socket, path string, v any) error {
	err := unixhttp.Call(ctx, socket, http.MethodPost, path, 64<<10, v)
	if se, ok := err.(*unixhttp.StatusError); ok {
		return fmt.Errorf("the web inbox %s", se)
	}
	return err
}
