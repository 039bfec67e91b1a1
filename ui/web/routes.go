package web

import (
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"strings"
)

// assets are the page's files, hand-written, served as they are: no
// framework, no build step, nothing fetched from elsewhere.
//
//go:embed assets
var assets embed.FS

// csp lets the page run its own files and nothing else: no inline script
// or style, no other origin, no frames around it; and, where the browser
// knows Trusted Types (Chromium), no string may become HTML at all, so
// an agent's text can only ever be text.
const csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; " +
	"require-trusted-types-for 'script'; trusted-types 'none'"

// routes is every path the page uses, each behind the checks its kind
// needs.
func (s *Server) routes() http.Handler {
	files, _ := fs.Sub(assets, "assets")
	mux := http.NewServeMux()
	static := http.FileServerFS(files)
	mux.Handle("GET /{$}", static)
	for _, f := range []string{"/app.js", "/dom.js", "/form.js", "/question.js", "/style.css"} {
		mux.Handle("GET "+f, static)
	}
	mux.Handle("POST /api/pair", s.api(false, s.pair))
	mux.Handle("GET /api/me", s.api(true, s.me))
	mux.Handle("GET /api/live", s.api(true, s.live))
	mux.Handle("GET /api/question", s.api(true, s.question))
	mux.Handle("POST /api/answer", s.api(true, s.answer))
	return s.guard(mux)
}

// guard checks every request's Host and sets the headers every response
// carries.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Cache-Control", "no-cache")
		if !s.hostAllowed(r.Host) {
			http.Error(w, "this page is reached by a loopback address, localhost or a name given to --allow-host, not by the name in Host", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// api wraps an API handler: never cached; only from the page's own
// origin (an Origin naming the host is required of everything but a
// plain GET, and of the live channel); and, when paired is set, only for
// a paired device's cookie.
func (s *Server) api(paired bool, next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		required := r.Method != http.MethodGet || strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
		if !originAllowed(r, required) {
			s.log("refused a request from another origin (" + quoteHeader(r.Header.Get("Origin")) + ")")
			writeJSON(w, http.StatusForbidden, map[string]string{"message": "refused: the request does not come from this page"})
			return
		}
		if paired {
			if _, ok := s.device(r); !ok {
				writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "This browser is not paired. Run elicit inbox pair on the computer and open the link it prints."})
				return
			}
		}
		next(w, r)
	})
}

// quoteHeader is a header's value for the log: quoted, cut short.
func quoteHeader(v string) string {
	if len(v) > 80 {
		v = v[:80]
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// meReply is what GET /api/me answers.
type meReply struct {
	Device      string `json:"device"`
	Permissions bool   `json:"permissions"`
}

func (s *Server) me(w http.ResponseWriter, r *http.Request) {
	dev, _ := s.device(r)
	writeJSON(w, http.StatusOK, meReply{Device: dev.Name, Permissions: s.o.Permissions})
}

// question is GET /api/question?id=ID: one waiting question, whole.
func (s *Server) question(w http.ResponseWriter, r *http.Request) {
	it, ok := s.find(r.URL.Query().Get("id"))
	if !ok {
		writeJSON(w, http.StatusGone, answerReply{Gone: true, Message: s.goneMessage(r.URL.Query().Get("id"))})
		return
	}
	writeJSON(w, http.StatusOK, questionOf(it, s.o.Permissions))
}

// writeJSON writes v with status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
