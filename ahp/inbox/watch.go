package inbox

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// Watcher keeps a connection to every source as sessions come and go: a
// socket that appears in the directory is connected to at once (the
// directory is watched with inotify or kqueue, so an idle inbox wakes up
// for nothing), one that goes away, or whose session ends, is dropped;
// remote hosts reconnect as `elicit attach` does. It holds at most
// MaxSession of each session.
type Watcher struct {
	o      Options
	ctx    context.Context
	cancel context.CancelFunc
	fw     *fsnotify.Watcher
	wg     sync.WaitGroup

	mu        sync.Mutex
	live      map[string]*live // by source key
	problems  []Problem
	nproblems int // problems there were in all
	changed   chan struct{}
	feed      []Event       // what the sources did, for Events (feed.go)
	held      map[*live]int // about the bytes the feed holds of each source
}

// live is one connected source.
type live struct {
	s    *Session
	c    *ahp.Client
	in   ahp.Inputs
	seen map[string]time.Time // when each request was first seen
	// done is how clients completed requests, kept after their turn
	// ends (at most maxDone); a request the host withdrew is not in it.
	done map[string]question.Action
}

// maxDone bounds what a live source remembers of completions.
const maxDone = 256

// Watch starts watching: every source is connected to before it returns
// (those that fail are Problems).
func Watch(o Options) (*Watcher, error) {
	w := &Watcher{o: o, live: map[string]*live{}, changed: make(chan struct{}, 1), held: map[*live]int{}}
	w.ctx, w.cancel = context.WithCancel(context.Background())
	srcs, err := o.Sources()
	if err != nil {
		w.problem(Problem{Source: Source{Key: "inbox", URL: "the inbox directory"}, Err: err})
	}
	if dir, derr := o.dir(); derr == nil {
		if w.fw, err = fsnotify.NewWatcher(); err == nil {
			err = w.fw.Add(dir)
		}
		if err != nil {
			w.cancel()
			return nil, fmt.Errorf("watching %s: %w", dir, err)
		}
		w.wg.Add(1)
		go w.watchDir()
	}
	var ready sync.WaitGroup
	for _, s := range srcs {
		ready.Add(1)
		w.wg.Add(1)
		go w.follow(s, ready.Done)
	}
	ready.Wait()
	return w, nil
}

// Changed is signalled (coalesced) whenever Items or Problems changed.
func (w *Watcher) Changed() <-chan struct{} { return w.changed }

func (w *Watcher) poke() {
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

func (w *Watcher) problem(p Problem) {
	w.mu.Lock()
	w.nproblems++
	w.problems = append(w.problems, p)
	if len(w.problems) > 64 {
		w.problems = w.problems[len(w.problems)-64:]
	}
	w.mu.Unlock()
	w.poke()
}

// ProblemsSince are the problems after the first n there were (the 64
// most recent at most), and how many there were in all: pass that as n
// next time.
func (w *Watcher) ProblemsSince(n int) ([]Problem, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := min(w.nproblems-n, len(w.problems))
	if k <= 0 {
		return nil, w.nproblems
	}
	return slices.Clone(w.problems[len(w.problems)-k:]), w.nproblems
}

// Problems are the sources that could not be read, most recent last.
func (w *Watcher) Problems() []Problem {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.problems)
}

// Items are the questions waiting now, oldest first.
func (w *Watcher) Items() []Item {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []Item
	for _, l := range w.live {
		out = append(out, itemsOf(l.s, l.in, func(id string) time.Time { return l.seen[id] })...)
	}
	Sort(out)
	return out
}

// Client is the connection to the source of key (an Item's
// Session.Source.Key), to answer and draft on; nil when it is gone.
func (w *Watcher) Client(key string) *ahp.Client {
	w.mu.Lock()
	defer w.mu.Unlock()
	if l := w.live[key]; l != nil {
		return l.c
	}
	return nil
}

// Answered is the response a client completed the question id (an
// Item's ID) with, as its session said; "" when the watcher knows of no
// such completion (withdrawn by the agent, its session gone, or answered
// before the watcher connected).
func (w *Watcher) Answered(id string) question.Action {
	key, req, ok := SplitID(id)
	if !ok {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if l := w.live[key]; l != nil {
		return l.done[req]
	}
	return ""
}

// Close drops every connection.
func (w *Watcher) Close() {
	w.cancel()
	if w.fw != nil {
		w.fw.Close()
	}
	w.wg.Wait()
}

// watchDir follows sockets appearing in and leaving the directory.
func (w *Watcher) watchDir() {
	defer w.wg.Done()
	for {
		select {
		case <-w.ctx.Done():
			return
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			w.problem(Problem{Source: Source{Key: "inbox", URL: "the inbox directory"}, Err: err})
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			name := filepath.Base(ev.Name)
			if !strings.HasSuffix(name, ".sock") {
				continue
			}
			switch {
			case ev.Has(fsnotify.Create):
				srcs, _ := w.o.sockets()
				for _, s := range srcs {
					if s.Socket == ev.Name && !w.has(s.Key) {
						w.wg.Add(1)
						go w.follow(s, func() {})
					}
				}
			case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
				w.drop(strings.TrimSuffix(name, ".sock"), ev.Name)
			}
		}
	}
}

func (w *Watcher) has(key string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.live[key] != nil
}

// drop forgets the session of key whose socket was path.
func (w *Watcher) drop(key, path string) {
	w.mu.Lock()
	l := w.live[key]
	if l != nil && l.s.Source.Socket == path {
		delete(w.live, key)
	} else {
		l = nil
	}
	w.mu.Unlock()
	if l != nil {
		go l.c.Close()
		w.poke()
	}
}

// follow connects to s and keeps its state until it ends or the watcher
// closes; ready is called once the first state is in (or the dial failed).
// Every event of the source goes to the feed (feed.go), in order, the
// last one an ahp.Closed.
func (w *Watcher) follow(s Source, ready func()) {
	defer w.wg.Done()
	c, err := dial(w.ctx, s, w.o.clientID())
	if err != nil {
		ready()
		if s.Socket == "" || !refused(err) {
			w.problem(Problem{Source: s, Err: err})
		}
		return
	}
	l := &live{s: &Session{Source: s, Meta: c.SessionMeta(), Title: sanitize.Line(c.Title())}, c: c, seen: map[string]time.Time{}, done: map[string]question.Action{}}
	w.mu.Lock()
	w.live[s.Key] = l
	w.update(l, c.Inputs())
	w.mu.Unlock()
	ready()
	w.poke()
	defer c.Close()
	defer w.ended(l)
	var lost error // why a session's socket stopped answering
	for {
		ev, ok := c.Next(w.ctx)
		if !ok {
			return
		}
		var in ahp.Inputs
		var answered *ahp.InputCompleted // by a client (the host's own is a withdrawal)
		switch ev := ev.(type) {
		case ahp.Changed:
			in = ev.Inputs
			if a, ok := ev.Action.(ahp.InputCompleted); ok && ev.Origin != nil {
				answered = &a
			}
		case ahp.Reset:
			in = ev.Inputs
		case ahp.Rejected:
			in = ev.Inputs
		case ahp.Connection:
			if !ev.Up && ev.Err != nil {
				lost = ev.Err
			}
			w.forward(l, ev)
			continue
		case ahp.Problem:
			w.problem(Problem{Source: s, Err: ev.Err})
			w.forward(l, ev)
			continue
		case ahp.Closed:
			// A session's socket that refuses connections is a crashed
			// session's: removed (the client gave up reconnecting to it).
			if lost != nil {
				stale(s, lost)
			}
			if ev.Err != nil {
				w.problem(Problem{Source: s, Err: ev.Err})
			}
			return
		default:
			continue
		}
		w.mu.Lock()
		if w.live[s.Key] != l {
			w.mu.Unlock()
			return // dropped
		}
		if answered != nil {
			if len(l.done) >= maxDone {
				clear(l.done)
			}
			l.done[answered.RequestID] = answered.Response
		}
		big := w.update(l, in)
		if !big {
			w.push(l, ev, in)
		}
		w.mu.Unlock()
		w.poke()
		if big {
			w.problem(Problem{Source: s, Err: errors.New("its questions hold more than 1 MiB: dropped")})
			return
		}
	}
}

// ended forgets l, and says so on the feed.
func (w *Watcher) ended(l *live) {
	w.mu.Lock()
	if w.live[l.s.Source.Key] == l {
		delete(w.live, l.s.Source.Key)
	}
	w.push(l, ahp.Closed{}, ahp.Inputs{})
	w.mu.Unlock()
	w.poke()
}

// update takes in as l's state and reports whether it is over
// MaxSession. w.mu is held.
func (w *Watcher) update(l *live, in ahp.Inputs) bool {
	l.in = in
	now := time.Now()
	for _, r := range in.OpenRequests() {
		if _, ok := l.seen[r.ID]; !ok {
			l.seen[r.ID] = now
		}
	}
	for id := range l.seen {
		if in.Open(id) == nil {
			delete(l.seen, id)
		}
	}
	return sizeOf(in) > MaxSession
}

// sizeOf is about what in holds, in bytes: its text, ids and answers.
func sizeOf(in ahp.Inputs) int {
	n := 0
	for _, e := range in.Entries {
		r := &e.Request
		n += len(r.ID) + len(r.Message) + len(r.URL) + len(r.Meta)
		for _, q := range r.Questions {
			n += len(q.ID) + len(q.Title) + len(q.Message) + len(q.Format) + len(q.DefaultValue) + 64
			for _, o := range q.Options {
				n += len(o.ID) + len(o.Label) + len(o.Description) + 16
			}
		}
		for k, a := range r.Answers {
			n += len(k) + 32
			for _, f := range a.FreeformValues {
				n += len(f)
			}
			if v := a.Value; v != nil {
				n += len(v.Text) + len(v.Number) + len(v.Selected) + len(v.Raw)
				for _, s := range v.Many {
					n += len(s)
				}
				for _, s := range v.Freeform {
					n += len(s)
				}
			}
		}
	}
	return n
}
