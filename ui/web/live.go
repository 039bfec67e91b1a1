package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/question"
)

// maxGone is how many departed questions the hub remembers the fate of.
const maxGone = 256

// snapshot is what the live channel sends whenever the inbox changes:
// every waiting question, and how recent ones left (request id to the
// response that answered it; "" when withdrawn, or not known).
type snapshot struct {
	Type        string                     `json:"type"` // "list"
	Items       []itemView                 `json:"items"`
	Gone        map[string]question.Action `json:"gone,omitempty"`
	Permissions bool                       `json:"permissions"`
}

// hub follows the inbox and sends its list to every open page: the
// newest list replaces one a slow page has not taken yet, so a page is
// never more than one list behind and never holds up the others.
type hub struct {
	w      *inbox.Watcher
	perms  bool
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	closed bool
	subs   map[*sub]bool
	last   []byte
	shown  map[string]bool            // the ids in the last list
	gone   map[string]question.Action // ids that left, with their fate
	order  []string                   // gone's ids, oldest first
}

// sub is one page's live channel.
type sub struct {
	device string
	ch     chan []byte // the newest list not yet sent (one at most)
	cancel context.CancelFunc
}

func newHub(w *inbox.Watcher, perms bool) *hub {
	h := &hub{w: w, perms: perms, subs: map[*sub]bool{}, shown: map[string]bool{}, gone: map[string]question.Action{}}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.refresh()
	h.wg.Add(1)
	go h.run()
	return h
}

// run makes a new list each time the inbox changes (it wakes for nothing
// else).
func (h *hub) run() {
	defer h.wg.Done()
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-h.w.Changed():
			h.refresh()
		}
	}
}

// refresh makes the list and hands it to every page.
func (h *hub) refresh() {
	items := h.w.Items()
	h.mu.Lock()
	defer h.mu.Unlock()
	now := map[string]bool{}
	views := make([]itemView, 0, len(items))
	for _, it := range items {
		now[it.ID] = true
		views = append(views, itemOf(it))
	}
	for id := range h.shown {
		if !now[id] {
			h.departed(id, h.w.Answered(id))
		}
	}
	h.shown = now
	snap := snapshot{Type: "list", Items: views, Gone: h.gone, Permissions: h.perms}
	b, _ := json.Marshal(snap)
	if bytes.Equal(b, h.last) {
		return // nothing a page shows changed: wake no phone
	}
	h.last = b
	for s := range h.subs {
		offer(s.ch, h.last)
	}
}

// departed records how question id left. h.mu is held.
func (h *hub) departed(id string, resp question.Action) {
	if _, ok := h.gone[id]; !ok {
		h.order = append(h.order, id)
	}
	h.gone[id] = resp
	for len(h.order) > maxGone {
		delete(h.gone, h.order[0])
		h.order = h.order[1:]
	}
}

// goneReason is the response that answered question id, when the hub saw
// it leave answered.
func (h *hub) goneReason(id string) question.Action {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gone[id]
}

// offer puts b in ch, replacing what waits there.
func offer(ch chan []byte, b []byte) {
	for {
		select {
		case ch <- b:
			return
		default:
		}
		select {
		case <-ch:
		default:
		}
	}
}

// subscribe adds a page; its channel holds the current list at once.
// It is nil once the hub closes.
func (h *hub) subscribe(device string, cancel context.CancelFunc) *sub {
	s := &sub{device: device, ch: make(chan []byte, 1), cancel: cancel}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	h.wg.Add(1) // under mu, before close's Wait
	h.subs[s] = true
	s.ch <- h.last
	return s
}

func (h *hub) unsubscribe(s *sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, s)
	h.wg.Done()
}

// drop ends the live channels of the devices keep refuses.
func (h *hub) drop(keep func(device string) bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		if !keep(s.device) {
			s.cancel()
		}
	}
}

// close ends every live channel and stops following the inbox.
func (h *hub) close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.cancel()
	h.drop(func(string) bool { return false })
	h.wg.Wait()
}

// live is GET /api/live: the page's live channel, a WebSocket on which
// the list comes each time it changes. The page sends nothing on it.
func (s *Server) live(w http.ResponseWriter, r *http.Request) {
	dev, _ := s.device(r)
	ctx, cancel := context.WithCancel(s.hub.ctx)
	defer cancel()
	sb := s.hub.subscribe(dev.ID, cancel)
	if sb == nil {
		return
	}
	defer s.hub.unsubscribe(sb)
	c, err := websocket.Accept(w, r, nil) // checks the Origin again
	if err != nil {
		return
	}
	defer c.CloseNow()
	ctx = c.CloseRead(ctx)
	for {
		select {
		case <-ctx.Done():
			c.Close(websocket.StatusGoingAway, "")
			return
		case b := <-sb.ch:
			wctx, done := context.WithTimeout(ctx, 30*time.Second)
			err := c.Write(wctx, websocket.MessageText, b)
			done()
			if err != nil {
				return
			}
		}
	}
}
