package inbox

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"

	"github.com/elicit-dev/elicit/ahp"
)

// Besides the AHP WebSocket, a socket answers two plain requests, each
// one round trip, for the commands that read once: how many questions
// wait (a status line: Count), and what they are (List). Answering and
// following a session go through AHP.
const (
	countPath = "/count"
	listPath  = "/list"
)

// countReply is what countPath answers.
type countReply struct {
	Open int `json:"open"`
}

// listReply is what listPath answers: the session and its open requests.
type listReply struct {
	Title    string           `json:"title"`
	Meta     *ahp.SessionMeta `json:"meta,omitempty"`
	Requests []ahp.Request    `json:"requests"`
}

// Published is a session's host served on its socket in Dir.
type Published struct {
	// Path is the socket's path.
	Path string
	srv  *http.Server
	ws   *ahp.Handler
	ln   *ahp.UnixListener
}

// Publish serves host h to the user's inbox: a new socket in Dir named
// after this process (PID-XXXX.sock, mode 0600), whose every peer must
// be this user; they see and may answer the requests asked with
// RequestPrivate. o's caps apply (SameUser is set). Close removes the
// socket.
func Publish(h *ahp.Host, o ahp.HandlerOptions) (*Published, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	b := make([]byte, 2)
	_, _ = rand.Read(b)
	path := filepath.Join(dir, strconv.Itoa(os.Getpid())+"-"+hex.EncodeToString(b)+".sock")
	ln, err := ahp.ListenUnix(path)
	if err != nil {
		return nil, err
	}
	o.SameUser = true
	p := &Published{Path: path, ws: ahp.NewHandler(h, o), ln: ln}
	mux := http.NewServeMux()
	mux.Handle("/", p.ws)
	mux.HandleFunc("GET "+countPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(countReply{Open: h.OpenCount()})
	})
	mux.HandleFunc("GET "+listPath, func(w http.ResponseWriter, _ *http.Request) {
		in := h.Inputs()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(listReply{Title: h.Title(), Meta: h.SessionMeta(), Requests: in.OpenRequests()})
	})
	// No timeouts: a connection is the user's own, and an idle server
	// must wake nobody up.
	p.srv = &http.Server{Handler: mux}
	go p.srv.Serve(ln)
	return p, nil
}

// Refused is how many connections of another user the socket refused.
func (p *Published) Refused() int { return p.ln.PeerRefused() }

// Close ends every connection and removes the socket.
func (p *Published) Close() {
	p.ws.Close()
	p.srv.Close() // closes the listener, which removes the socket
}
