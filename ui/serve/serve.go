// Package serve is the host side of `elicit serve`: it publishes a
// session's forms and URL questions over the Agent Host Protocol (a
// WebSocket host with a bearer token, loopback unless told otherwise), so
// `elicit attach` clients see them, draft together and answer. The
// terminal that runs the session is a full client of the same state: the
// full screen takes Served.Share, -p takes Served.Remote.
//
//	sv, err := serve.Start(serve.Options{Title: "claude"})
//	defer sv.Close()
//	fmt.Fprintln(os.Stderr, sv.AttachLine()) // elicit attach ws://127.0.0.1:PORT/ --token …
package serve

import (
	"context"
	"crypto/tls"
	"fmt"
	"os"
	"os/user"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui/headless"
	"github.com/elicit-dev/elicit/ui/internal/share"
)

// Options configure the host.
type Options struct {
	Listen    string // host:port (default 127.0.0.1:0)
	TokenFile string // read the token there, or write a new one (mode 0600)
	// Insecure serves without a token (--insecure-no-token).
	Insecure bool
	// TLSCert and TLSKey serve wss://; AllowRemote lets a non-loopback
	// address serve plain ws:// (--allow-remote).
	TLSCert, TLSKey string
	AllowRemote     bool
	Title           string // the session's name for clients (the agent's)
	Version         string // elicit's version
	// Name is the client id of the serving terminal, as other clients see
	// it (default: "serve:" + user@host).
	Name string
}

// Served is a running host.
type Served struct {
	Host   *ahp.Host
	Share  *share.Share // for fullscreen.Options.Share
	Server *ahp.Server
	Token  string
	cancel context.CancelFunc
}

// Start listens (refusing a non-loopback address without TLS or
// AllowRemote, and serving without a token only when Insecure) and
// serves until Close.
func Start(o Options) (*Served, error) {
	sv := &Served{}
	switch {
	case o.Insecure:
	case o.TokenFile != "":
		t, err := ahp.TokenFile(o.TokenFile)
		if err != nil {
			return nil, fmt.Errorf("--token-file: %w", err)
		}
		sv.Token = t
	default:
		sv.Token = ahp.NewToken()
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
	var sh *share.Share
	sv.Host = ahp.NewHost(ahp.HostOptions{Title: o.Title, Version: o.Version, Check: func(r ahp.Request) error { return sh.Check(r) }})
	srv, err := ahp.Listen(ahp.ServerOptions{Addr: o.Listen, Token: sv.Token, Insecure: o.Insecure, TLS: tc, AllowRemote: o.AllowRemote}, sv.Host)
	if err != nil {
		return nil, err
	}
	sh = share.New(sv.Host, o.Name)
	sv.Share, sv.Server = sh, srv
	go srv.Serve()
	return sv, nil
}

func who() string {
	name := "someone"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	host, _ := os.Hostname()
	return name + "@" + host
}

// AttachLine is the exact command that attaches to this host.
func (sv *Served) AttachLine() string {
	if sv.Token == "" {
		return "elicit attach " + sv.Server.URL()
	}
	return "elicit attach " + sv.Server.URL() + " --token " + sv.Token
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

// Close stops serving: every client is disconnected.
func (sv *Served) Close() {
	if sv.cancel != nil {
		sv.cancel()
	}
	sv.Share.Close()
	sv.Server.Close()
	sv.Host.Close()
}
