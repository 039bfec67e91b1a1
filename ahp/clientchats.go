package ahp

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/coder/websocket"
)

// maxChats bounds how many chats of one session a client follows.
const maxChats = 16

// chatsOf is the chats a client follows, read from the session's snapshot
// (current generation): the chat of each chatInput entry of inputNeeded,
// then the default chat (every listed chat when the session names no
// default). A host that names no chat at all gets the chat named after
// the session (derived is then true): elicit's own host did that before
// it sent chats.
func chatsOf(st sessionState, session string) (chats []string, derived bool) {
	add := func(ch string) {
		if ch != "" && len(chats) < maxChats && !slices.Contains(chats, ch) {
			chats = append(chats, ch)
		}
	}
	for _, n := range st.InputNeeded {
		if n.Kind == "" || n.Kind == "chatInput" {
			add(n.Chat)
		}
	}
	add(st.DefaultChat)
	if st.DefaultChat == "" {
		for _, ch := range st.Chats {
			add(ch.Resource)
		}
	}
	if len(chats) == 0 {
		return []string{ChatURI(session)}, true
	}
	return chats, false
}

// neededSet is the part of a session/inputNeededSet action a client reads
// to follow the chat it names.
type neededSet struct {
	Type    string `json:"type"`
	Request struct {
		Chat string `json:"chat"`
		Kind string `json:"kind"`
	} `json:"request"`
}

// sessionAction looks at an action on the session's channel (current
// generation): a request needing input in a chat the client does not
// follow yet makes it follow that chat.
func (c *Client) sessionAction(conn *websocket.Conn, raw json.RawMessage) {
	var a neededSet
	lenient(raw, &a)
	if a.Type != "session/inputNeededSet" || (a.Request.Kind != "" && a.Request.Kind != "chatInput") || a.Request.Chat == "" {
		return
	}
	c.followLater(conn, a.Request.Chat)
}

// followLater subscribes to chat ch off the read loop, unless it is
// followed already; once its snapshot is in, the view is reset with it.
// A chat that cannot be subscribed to is reported (its requests cannot be
// shown), and tried again when the host names it again.
func (c *Client) followLater(conn *websocket.Conn, ch string) {
	c.mu.Lock()
	if c.following[ch] || len(c.following) >= maxChats+1 || conn == nil {
		c.mu.Unlock()
		return
	}
	c.following[ch] = true
	gen := c.gen
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		ctx, cancel := context.WithTimeout(c.ctx, 10*time.Second)
		defer cancel()
		if err := c.subscribeInputs(ctx, conn, gen, ch); err != nil {
			if c.ctx.Err() == nil {
				c.events.put(Problem{Err: &ChatError{Chat: ch, Err: err}})
			}
			return
		}
		c.mu.Lock()
		v := c.view()
		c.mu.Unlock()
		c.events.put(Reset{Inputs: v})
	}()
}
