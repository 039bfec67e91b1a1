package inbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/elicit-dev/elicit/ahp"
)

// MaxSession is the most the inbox holds of one session: a message from
// its host, and its open requests together. A session past it is dropped
// with the reason.
const MaxSession = 1 << 20

// Options say where the inbox looks.
type Options struct {
	// Dir is the directory of the user's sockets ("": Dir()).
	Dir string
	// Attach are AHP hosts elsewhere (--attach URL, [inbox] attach), in
	// the order given: their questions' ids start with h1, h2, ...
	Attach []Remote
	// ClientID names the inbox to the hosts (default: inbox-PID).
	ClientID string
}

// Remote is an AHP host reached over the network, with its bearer token.
type Remote struct {
	URL, Token string
}

// Source is one place questions come from: a session's socket (Key is
// its name, the elicit process's id and four hex digits: 4242-1a2b) or a
// remote host (Key is h1, h2, ...).
type Source struct {
	Key    string
	Socket string // the socket's path, or ""
	URL    string // the remote host's URL, or ""
	Token  string
}

// String names the source for messages.
func (s Source) String() string {
	if s.Socket != "" {
		pid, _, _ := strings.Cut(s.Key, "-")
		return "the session of process " + pid
	}
	return s.URL
}

// Problem is a source the inbox could not read, and why.
type Problem struct {
	Source Source
	Err    error
}

// Error says which source and why.
func (p Problem) Error() string { return p.Source.String() + ": " + p.Err.Error() }

func (o Options) dir() (string, error) {
	if o.Dir != "" {
		return o.Dir, checkDir(o.Dir)
	}
	return Dir()
}

// clients numbers the inbox's connections: each has an id of its own.
var clients atomic.Int64

// clientID is a new connection's id: ClientID (default inbox-PID), then
// the connection's number.
func (o Options) clientID() string {
	id := o.ClientID
	if id == "" {
		id = "inbox-" + strconv.Itoa(os.Getpid())
	}
	return id + "-" + strconv.FormatInt(clients.Add(1), 10)
}

// Sources lists the user's sessions (their sockets in the directory,
// oldest process first) and the remote hosts. A file in the directory
// that is not a socket of the user's is left alone. When the directory
// cannot be used, the remote hosts are still listed, with the error.
func (o Options) Sources() ([]Source, error) {
	out, err := o.sockets()
	for i, r := range o.Attach {
		out = append(out, Source{Key: "h" + strconv.Itoa(i+1), URL: r.URL, Token: r.Token})
	}
	return out, err
}

func (o Options) sockets() ([]Source, error) {
	dir, err := o.dir()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Source
	for _, e := range entries {
		name := e.Name()
		pid, _, ok := strings.Cut(strings.TrimSuffix(name, ".sock"), "-")
		if !strings.HasSuffix(name, ".sock") || !ok || pid == "" || strings.Trim(pid, "0123456789") != "" {
			continue
		}
		fi, err := e.Info()
		if err != nil || !ours(fi) {
			continue
		}
		out = append(out, Source{Key: strings.TrimSuffix(name, ".sock"), Socket: filepath.Join(dir, name)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, _ := strconv.Atoi(strings.Split(out[i].Key, "-")[0])
		b, _ := strconv.Atoi(strings.Split(out[j].Key, "-")[0])
		return a < b
	})
	return out, nil
}

// stale removes a session's socket that refused a connection: nobody
// listens there (the session crashed). It is removed only while it is
// still a socket of the user's; a dial that failed another way leaves it.
func stale(s Source, err error) {
	if s.Socket == "" || !errors.Is(err, syscall.ECONNREFUSED) {
		return
	}
	if fi, lerr := os.Lstat(s.Socket); lerr == nil && ours(fi) {
		os.Remove(s.Socket)
	}
}

// socketGiveUp is how long a client tries to reach a session's socket
// again after its connection dropped: a session that stopped answering
// that long has ended (a remote host is tried until the inbox closes).
const socketGiveUp = 5 * time.Second

// dial connects to s as an AHP client.
func dial(ctx context.Context, s Source, id string) (*ahp.Client, error) {
	o := ahp.ClientOptions{Socket: s.Socket, URL: s.URL, Token: s.Token, ClientID: id, MaxMessage: MaxSession}
	if s.Socket != "" {
		o.GiveUpAfter = socketGiveUp
	}
	c, err := ahp.Dial(ctx, o)
	if err != nil {
		stale(s, err)
		return nil, err
	}
	return c, nil
}
