// Package serve is the host side of `elicit serve`: it publishes a
// session's forms and URL questions over the Agent Host Protocol (a
// WebSocket host with a bearer token, loopback unless told otherwise), so
// `elicit attach` clients see them, draft together and answer. The
// terminal that runs the session is a full client of the same state: the
// full screen takes Served.Share, -p takes Served.Remote.
//
//	sv, err := serve.Start(serve.Options{Title: "claude"})
//	defer sv.Close()
//	fmt.Fprintln(os.Stderr, "elicit attach", sv.Server.URL(), "--token-file", sv.TokenFile)
package serve

import (
	"context"
	"crypto/tls"
	"fmt"
	"os"
	"os/user"
	"path/filepath"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui/headless"
	"github.com/elicit-dev/elicit/ui/internal/share"
)

// Options configure the host.
type Options struct {
	Listen string // host:port (default 127.0.0.1:0)
	// TokenFile is where the token is read, or a new one written (mode
	// 0600); "" makes a new file in a private directory, removed by Close.
	TokenFile string
	// Insecure serves without a token (--insecure-no-token).
	Insecure bool
	// AllowHosts are names clients may reach a plain ws:// host by,
	// besides loopback addresses and localhost (--allow-host).
	AllowHosts []string
	// TLSCert and TLSKey serve wss://; AllowRemote lets a non-loopback
	// address serve plain ws:// (--allow-remote).
	TLSCert, TLSKey string
	AllowRemote     bool
	Title           string // the session's name for clients (the agent's)
	Version         string // elicit's version
	// Name is the client id of the serving terminal, as other clients see
	// it (default: "serve:" + user@host).
	Name string
	// Inbox, when set, publishes the session to the user's inbox too (a
	// Unix socket only the user reaches, where permissions are shared as
	// well), saying this of it; nil keeps it out (--no-inbox).
	Inbox *ahp.SessionMeta
}

// Served is a running host.
type Served struct {
	Host   *ahp.Host
	Share  *share.Share // for fullscreen.Options.Share
	Server *ahp.Server  // nil for Local
	// Inbox is the session's socket in the user's inbox; nil when it was
	// not asked for, or could not be made (InboxErr says why: the session
	// goes on without it).
	Inbox    *inbox.Published
	InboxErr error
	Token    string
	// TokenFile holds Token ("" with Insecure): what the attach command
	// names, never the token itself (a command line is in every local
	// user's ps).
	TokenFile string
	cleanup   func() // removes a token file made for this run
	cancel    context.CancelFunc
}

// Start listens (refusing a non-loopback address without TLS or
// AllowRemote, and serving without a token only when Insecure) and
// serves until Close.
func Start(o Options) (*Served, error) {
	sv := &Served{cleanup: func() {}}
	if !o.Insecure {
		if err := sv.token(o.TokenFile); err != nil {
			return nil, err
		}
	}
	var tc *tls.Config
	if o.TLSCert != "" || o.TLSKey != "" {
		cert, err := tls.LoadX509KeyPair(o.TLSCert, o.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("--tls-cert/--tls-key: %w", err)
		}
		tc = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	if o.Name == "" {
		o.Name = "serve:" + who()
	}
	sv.host(o)
	srv, err := ahp.Listen(ahp.ServerOptions{Addr: o.Listen, Token: sv.Token, Insecure: o.Insecure, TLS: tc, AllowRemote: o.AllowRemote,
		AllowHosts: o.AllowHosts}, sv.Host)
	if err != nil {
		sv.cleanup()
		return nil, err
	}
	if err := sv.share(o); err != nil {
		srv.Close()
		sv.cleanup()
		return nil, err
	}
	sv.Server = srv
	go srv.Serve()
	return sv, nil
}

// Local publishes a session to the user's inbox alone (every interactive
// session that is not `elicit serve`): no network, no token. Its error
// says why the inbox cannot have the session; the session goes on
// without it.
func Local(o Options) (*Served, error) {
	if o.Name == "" {
		o.Name = "terminal:" + who()
	}
	sv := &Served{cleanup: func() {}}
	sv.host(o)
	if err := sv.share(o); err != nil {
		sv.Host.Close()
		return nil, err
	}
	if sv.Inbox == nil {
		sv.Close()
		return nil, sv.InboxErr
	}
	return sv, nil
}

// host makes the session's host.
func (sv *Served) host(o Options) {
	sv.Host = ahp.NewHost(ahp.HostOptions{Title: o.Title, Version: o.Version, Meta: o.Inbox,
		Check: func(r ahp.Request) error { return sv.Share.Check(r) }})
}

// share publishes the host to the inbox when asked (errors there are
// InboxErr's), and mirrors the session's questions to it: permissions too
// once the inbox has it.
func (sv *Served) share(o Options) error {
	if o.Inbox != nil {
		sv.Inbox, sv.InboxErr = inbox.Publish(sv.Host, ahp.HandlerOptions{})
	}
	sh, err := share.New(sv.Host, o.Name, share.Options{Permissions: sv.Inbox != nil})
	if err != nil {
		if sv.Inbox != nil {
			sv.Inbox.Close()
		}
		return err
	}
	sv.Share = sh
	return nil
}

func who() string {
	name := "someone"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	host, _ := os.Hostname()
	return name + "@" + host
}

// token reads the token in path, or makes one in a new file of a private
// directory when path is "".
func (sv *Served) token(path string) error {
	if path == "" {
		dir, err := os.MkdirTemp("", "elicit-serve-") // mode 0700
		if err != nil {
			return err
		}
		sv.cleanup = func() { os.RemoveAll(dir) }
		path = filepath.Join(dir, "token")
	}
	t, err := ahp.TokenFile(path)
	if err != nil {
		sv.cleanup()
		return fmt.Errorf("--token-file: %w", err)
	}
	sv.Token, sv.TokenFile = t, path
	return nil
}

// Remote is the host as a -p run takes it: questions wait for the
// clients, and their answers come back.
func (sv *Served) Remote() *headless.Remote {
	ctx, cancel := context.WithCancel(context.Background())
	sv.cancel = cancel
	answers := make(chan session.Pending)
	go func() {
		for {
			v, ok := sv.Share.Next(ctx)
			if !ok {
				return
			}
			if a, ok := v.(share.Answer); ok {
				select {
				case answers <- session.Pending{Q: a.Q, Out: a.Out}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return &headless.Remote{Observer: sv.Share, Event: sv.Share.Event, Answers: answers}
}

// ShareOrNil is sv's Share, nil when sv is nil (a session not in the
// inbox): what fullscreen.Options.Share and line.Options.Share take.
func (sv *Served) ShareOrNil() *share.Share {
	if sv == nil {
		return nil
	}
	return sv.Share
}

// Close stops serving: every client is disconnected. A nil sv is a
// session that shared nothing.
func (sv *Served) Close() {
	if sv == nil {
		return
	}
	if sv.cancel != nil {
		sv.cancel()
	}
	if sv.Share != nil {
		sv.Share.Close()
	}
	if sv.Server != nil {
		sv.Server.Close()
	}
	if sv.Inbox != nil {
		sv.Inbox.Close()
	}
	sv.Host.Close()
	sv.cleanup()
}
