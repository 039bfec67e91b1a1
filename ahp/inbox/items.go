package inbox

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// Session is what the inbox knows of one source's session.
type Session struct {
	Source Source
	// Meta is what the session's own socket said of it (agent, directory,
	// process); a remote host says nothing of it.
	Meta  ahp.SessionMeta
	Title string // the host's title for the session, sanitized
}

// Item is one question waiting in the inbox. Every string is sanitized
// for a terminal except Request, which is the host's own (answer with it).
type Item struct {
	// ID names the question to `elicit inbox answer`: the source's key and
	// the request's id, as "4242-1a2b.q1" (a session's) or "h1.q1" (a
	// remote host's).
	ID      string
	Kind    string // form, url, permission or choice (ahp.MetaForm ...)
	Agent   string // who asks: the agent or MCP server
	Cwd     string // the session's directory ("" for a remote host)
	Title   string // the session's title
	Message string // the first line of the question's message
	// Tool is the title of the tool call a permission is about.
	Tool string
	// WaitingSince is when it was asked (when the inbox first saw it, for
	// a host that does not say).
	WaitingSince time.Time
	Session      *Session
	Request      ahp.Request
}

// ItemID is the inbox's id of request id of source key.
func ItemID(key, request string) string { return key + "." + request }

// SplitID is the source's key and the request's id in an item's id.
func SplitID(id string) (key, request string, ok bool) {
	key, request, ok = strings.Cut(id, ".")
	return key, request, ok && key != "" && request != ""
}

// KindOf is what kind of question r is: what elicit's host said, else
// url for a URL to open, choice for a single single-select, else form.
func KindOf(r *ahp.Request) string {
	if k := ahp.MetaOf(r).Kind; k != "" {
		switch k {
		case ahp.MetaForm, ahp.MetaURL, ahp.MetaPermission, ahp.MetaChoice:
			return k
		}
	}
	switch {
	case r.URL != "" && len(r.Questions) == 0:
		return ahp.MetaURL
	case len(r.Questions) == 1 && r.Questions[0].Kind == ahp.KindSingleSelect:
		return ahp.MetaChoice
	}
	return ahp.MetaForm
}

// itemsOf are the open requests of in as items of session s; seen is when
// the inbox first saw each request (for a host that does not say when it
// asked).
func itemsOf(s *Session, in ahp.Inputs, seen func(id string) time.Time) []Item {
	var out []Item
	for _, r := range in.OpenRequests() {
		out = append(out, s.Item(r, seen(r.ID)))
	}
	return out
}

// Item is request r of the session as the inbox lists it; seen is when
// the inbox first saw it, its waiting time when the host does not say
// when it was asked.
func (s *Session) Item(r ahp.Request, seen time.Time) Item {
	m := ahp.MetaOf(&r)
	at := m.Asked()
	if at.IsZero() {
		at = seen
	}
	agent := sanitize.Line(s.Meta.Agent)
	if agent == "" {
		agent = s.Title
	}
	msg, _, _ := strings.Cut(strings.TrimSpace(r.Message), "\n")
	if msg == "" && r.URL != "" {
		msg = r.URL
	}
	return Item{ID: ItemID(s.Source.Key, r.ID), Kind: KindOf(&r), Agent: agent, Cwd: sanitize.Line(s.Meta.Cwd),
		Title: s.Title, Message: sanitize.Summary(msg, 200), Tool: sanitize.Line(m.Tool), WaitingSince: at, Session: s, Request: r}
}

// Sort orders items oldest first (ties by id).
func Sort(items []Item) {
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if !a.WaitingSince.Equal(b.WaitingSince) {
			return a.WaitingSince.Before(b.WaitingSince)
		}
		return a.ID < b.ID
	})
}

// List reads every source once, all at the same time, and returns their
// waiting questions, oldest first, with the sources it could not read.
// A session's socket that refuses the connection is a crashed session's:
// it is removed, and not a problem.
func List(ctx context.Context, o Options) ([]Item, []Problem) {
	srcs, err := o.Sources()
	var problems []Problem
	if err != nil {
		problems = append(problems, Problem{Source: Source{Key: "inbox", URL: "the inbox directory"}, Err: err})
	}
	now := time.Now()
	var mu sync.Mutex
	var items []Item
	var wg sync.WaitGroup
	for _, s := range srcs {
		wg.Go(func() {
			sess, in, err := read(ctx, s, o.clientID())
			if err != nil {
				stale(s, err)
				if s.Socket == "" || !refused(err) {
					mu.Lock()
					problems = append(problems, Problem{Source: s, Err: err})
					mu.Unlock()
				}
				return
			}
			its := itemsOf(sess, in, func(string) time.Time { return now })
			mu.Lock()
			items = append(items, its...)
			mu.Unlock()
		})
	}
	wg.Wait()
	Sort(items)
	return items, problems
}

// read is a source's session and open requests, read once: one request
// to a session's socket (listPath), an AHP connection to a remote host.
func read(ctx context.Context, s Source, id string) (*Session, ahp.Inputs, error) {
	if s.Socket != "" {
		var r listReply
		if err := get(ctx, s.Socket, listPath, MaxSession, &r); err != nil {
			return nil, ahp.Inputs{}, err
		}
		sess := &Session{Source: s, Title: sanitize.Line(r.Title)}
		if r.Meta != nil {
			sess.Meta = *r.Meta
		}
		var in ahp.Inputs
		for _, req := range r.Requests {
			in.Entries = append(in.Entries, ahp.Entry{Request: req})
		}
		return sess, in, nil
	}
	c, err := dial(ctx, s, id)
	if err != nil {
		return nil, ahp.Inputs{}, err
	}
	defer c.Close()
	return &Session{Source: s, Meta: c.SessionMeta(), Title: sanitize.Line(c.Title())}, c.Inputs(), nil
}
