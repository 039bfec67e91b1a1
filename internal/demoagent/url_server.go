package demoagent

import (
	"context"
	"crypto/rand"
	"errors"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// urlServer is the loopback web server behind /url: each URL-mode elicitation points at a page
// of its own, and pressing "Approve" there completes the flow.
type urlServer struct {
	srv      *http.Server
	base     string // http://127.0.0.1:PORT
	complete func(id string) error

	mu    sync.Mutex
	flows map[string]*urlFlow
}

// urlFlow is one URL-mode elicitation the server serves a page for.
type urlFlow struct {
	message   string
	completes bool // false for the demo flow that never completes
	done      bool
}

// startURLServer listens on a random loopback port. complete is called with the elicitation id
// when the user approves a flow that completes.
func startURLServer(complete func(id string) error) (*urlServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &urlServer{base: "http://" + ln.Addr().String(), complete: complete, flows: make(map[string]*urlFlow)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /flow/{id}", s.servePage)
	mux.HandleFunc("/approve", s.serveApprove)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// close stops the server.
func (s *urlServer) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = s.srv.Shutdown(ctx)
}

// newFlow registers a flow under a fresh elicitation id and returns the id and its page's URL.
func (s *urlServer) newFlow(message string, completes bool) (id, page string) {
	id = "elicit-" + strings.ToLower(rand.Text())
	s.mu.Lock()
	s.flows[id] = &urlFlow{message: message, completes: completes}
	s.mu.Unlock()
	return id, s.base + "/flow/" + url.PathEscape(id)
}

// drop forgets a flow the user declined or cancelled, so its page no longer approves anything.
func (s *urlServer) drop(id string) {
	s.mu.Lock()
	delete(s.flows, id)
	s.mu.Unlock()
}

// errUnknownFlow is approve's error for an id the server does not know (or dropped).
var errUnknownFlow = errors.New("there is no pending flow with this id")

// approve completes a flow: it marks it done and calls complete, once. A flow made not to
// complete stays pending.
func (s *urlServer) approve(id string) (string, error) {
	s.mu.Lock()
	f, ok := s.flows[id]
	switch {
	case !ok:
		s.mu.Unlock()
		return "", errUnknownFlow
	case !f.completes:
		s.mu.Unlock()
		return "This flow never completes, by design: mark it done or cancel it in your client.", nil
	case f.done:
		s.mu.Unlock()
		return "This flow was approved already.", nil
	}
	f.done = true
	s.mu.Unlock()
	if err := s.complete(id); err != nil {
		return "", err
	}
	return "Approved. The agent told your client the flow is complete; you can close this tab.", nil
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>elicit demo: {{.Title}}</title>
<style>body{font:16px system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em}
button{font-size:1.1em;padding:.5em 1.5em}code{background:#eee;padding:0 .3em}</style></head>
<body><h1>{{.Title}}</h1><p>{{.Message}}</p>
{{if .ID}}<p>Elicitation <code>{{.ID}}</code></p>
<form method="post" action="/approve"><input type="hidden" name="id" value="{{.ID}}"><button type="submit">Approve</button></form>{{end}}
</body></html>
`))

type pageData struct {
	Title, Message, ID string
}

// servePage shows a flow's page with its Approve button.
func (s *urlServer) servePage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.mu.Lock()
	f, ok := s.flows[id]
	var msg string
	if ok {
		msg = f.message
	}
	s.mu.Unlock()
	if !ok {
		renderPage(w, http.StatusNotFound, pageData{Title: "Unknown flow", Message: errUnknownFlow.Error()})
		return
	}
	renderPage(w, http.StatusOK, pageData{Title: "Demo approval", Message: msg, ID: id})
}

// serveApprove handles the Approve button (a POST) and plain GET /approve?id=... for scripts.
func (s *urlServer) serveApprove(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	msg, err := s.approve(r.FormValue("id"))
	switch {
	case errors.Is(err, errUnknownFlow):
		renderPage(w, http.StatusNotFound, pageData{Title: "Unknown flow", Message: err.Error()})
	case err != nil:
		renderPage(w, http.StatusBadGateway, pageData{Title: "Not delivered", Message: "Could not tell the client: " + err.Error()})
	default:
		renderPage(w, http.StatusOK, pageData{Title: "Done", Message: msg})
	}
}

func renderPage(w http.ResponseWriter, status int, d pageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = pageTemplate.Execute(w, d)
}
