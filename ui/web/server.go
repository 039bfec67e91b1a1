package web

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
)

// Options configure the web inbox.
type Options struct {
	// Inbox is where the questions come from (the user's sessions and
	// the --attach hosts).
	Inbox inbox.Options
	// Listen is the address (default 127.0.0.1:0). An address that is not
	// a loopback one needs TLSCert and TLSKey (ErrNeedsTLS).
	Listen          string
	TLSCert, TLSKey string
	// AllowHosts are names the page may be reached by besides loopback
	// addresses and localhost (--allow-host): a proxy's, such as the
	// name tailscale serve answers to. The certificate's names are
	// allowed too, and URL's host.
	AllowHosts []string
	// URL is the address the phone opens when it is not the listening
	// one (a proxy in front: https://box.tailnet.ts.net/).
	URL string
	// Permissions lets the page answer permissions (--web-permissions);
	// otherwise it shows them and says to answer at a terminal.
	Permissions bool
	// StateDir holds the paired devices (DevicesFile).
	StateDir string
	// Log says what happened (a device paired, a link refused); nil
	// says nothing.
	Log func(string)
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// OptionError is an option Start will not serve with (a command line
// elicit cannot use: exit status 2).
type OptionError struct{ Err error }

// Error says which option and why.
func (e *OptionError) Error() string { return e.Err.Error() }

// Unwrap is the reason.
func (e *OptionError) Unwrap() error { return e.Err }

func optionErrorf(format string, args ...any) error { return &OptionError{fmt.Errorf(format, args...)} }

// ErrNeedsTLS refuses a non-loopback address without TLS (an
// *OptionError wraps it).
var ErrNeedsTLS = errors.New("is not a loopback address: the web inbox serves other addresses only over TLS (--tls-cert and --tls-key); " +
	"or keep it on loopback and reach it with ssh -L or tailscale serve")

// Server is the web inbox: the page, its API and its live channel on one
// port, and a control socket for `elicit inbox pair`.
type Server struct {
	o       Options
	base    string // the page's URL, ending in /
	ln      net.Listener
	srv     *http.Server
	tls     bool
	names   map[string]bool // host names the page may be reached by
	ips     map[string]bool // and addresses, besides loopback ones
	cert    string          // the certificate's first name (or address): the link's host over TLS
	devices *Devices
	tokens  *tokens
	watch   *inbox.Watcher
	hub     *hub
	ctl     *control
	closing sync.Once
}

// Start checks the address (loopback, or TLS), listens, follows the
// inbox and serves until Close. An option it will not serve with is an
// *OptionError.
func Start(o Options) (*Server, error) {
	if o.Listen == "" {
		o.Listen = "127.0.0.1:0"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	host, _, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, optionErrorf("--listen %q: %w", o.Listen, err)
	}
	if (o.TLSCert == "") != (o.TLSKey == "") {
		return nil, optionErrorf("--tls-cert and --tls-key go together")
	}
	s := &Server{o: o, names: map[string]bool{"localhost": true}, ips: map[string]bool{}, devices: NewDevices(o.StateDir),
		tokens: &tokens{pending: map[string]time.Time{}, now: o.Now}}
	var tc *tls.Config
	if o.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(o.TLSCert, o.TLSKey)
		if err != nil {
			return nil, optionErrorf("--tls-cert/--tls-key: %w", err)
		}
		tc = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		s.tls = true
		s.allowCert(cert)
	}
	if !ahp.Loopback(host) && tc == nil {
		return nil, optionErrorf("--listen %s %w", o.Listen, ErrNeedsTLS)
	}
	for _, h := range o.AllowHosts {
		s.allow(h)
	}
	if o.URL != "" {
		u, err := url.Parse(o.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, optionErrorf("--url %q: give the page's address, such as https://box.tailnet.ts.net/", o.URL)
		}
		s.allow(u.Hostname())
	}
	if !ahp.Loopback(host) || net.ParseIP(host) == nil {
		s.allow(host) // a name given to --listen, or the address served over TLS
	}
	ln, err := net.Listen("tcp", o.Listen)
	if err != nil {
		return nil, err
	}
	s.base = s.baseURL(ln.Addr().(*net.TCPAddr))
	if tc != nil {
		ln = tls.NewListener(ln, tc)
	}
	s.ln = ln
	if o.Inbox.ClientID == "" {
		o.Inbox.ClientID = "web-" + strconv.Itoa(os.Getpid())
		s.o.Inbox = o.Inbox
	}
	if s.watch, err = inbox.Watch(o.Inbox); err != nil {
		ln.Close()
		return nil, err
	}
	s.hub = newHub(s.watch, s.o.Permissions)
	if s.ctl, err = startControl(s); err != nil {
		s.log("elicit inbox pair cannot reach this page: " + err.Error())
	}
	// No idle or write timeouts: an idle page wakes nobody up, and the
	// live channel lasts. Only a request's headers are bounded.
	s.srv = &http.Server{Handler: s.routes(), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// allow adds a host name or address the page may be reached by.
func (s *Server) allow(h string) {
	h = strings.ToLower(strings.TrimSuffix(strings.Trim(h, "[]"), "."))
	if ip := net.ParseIP(h); ip != nil {
		if !ip.IsUnspecified() {
			s.ips[ip.String()] = true
		}
		return
	}
	if h != "" {
		s.names[h] = true
	}
}

// allowCert allows the names and addresses the certificate is for.
func (s *Server) allowCert(cert tls.Certificate) {
	if len(cert.Certificate) == 0 {
		return
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		return
	}
	for _, n := range leaf.DNSNames {
		s.allow(n)
		if s.cert == "" && !strings.HasPrefix(n, "*") {
			s.cert = n
		}
	}
	for _, ip := range leaf.IPAddresses {
		s.allow(ip.String())
		if s.cert == "" {
			s.cert = ip.String()
		}
	}
}

// baseURL is the page's address: URL when given; over TLS, the first
// name the certificate is for (the browser checks it), else the address
// listened on.
func (s *Server) baseURL(a *net.TCPAddr) string {
	if s.o.URL != "" {
		u, _ := url.Parse(s.o.URL)
		u.Path, u.RawQuery, u.Fragment = "/", "", ""
		return u.String()
	}
	scheme, host := "http", a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	if s.tls {
		scheme = "https"
		if s.cert != "" {
			host = s.cert
		}
	}
	return scheme + "://" + net.JoinHostPort(host, strconv.Itoa(a.Port)) + "/"
}

// URL is the page's address (no pairing token).
func (s *Server) URL() string { return s.base }

// Addr is the address listened on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Close stops serving: the page, its live channels, the control socket
// and the inbox's connections.
func (s *Server) Close() {
	s.closing.Do(func() {
		if s.ctl != nil {
			s.ctl.close()
		}
		s.hub.close()
		s.srv.Close()
		s.watch.Close()
	})
}

func (s *Server) log(msg string) {
	if s.o.Log != nil {
		s.o.Log(msg)
	}
}

// hostAllowed reports whether the Host header names this page: a loopback
// address, localhost, or a name or address it was told of. A page on
// another name that DNS points here (DNS rebinding) sends that name, and
// is refused.
func (s *Server) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback() || s.ips[ip.String()]
	}
	return s.names[host]
}

// originAllowed reports whether the request comes from the page itself:
// its Origin (required when required is set) names the host the request
// was sent to, and its Sec-Fetch-Site, when the browser sends one, says
// same-origin.
func originAllowed(r *http.Request, required bool) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return !required
	}
	u, err := url.Parse(o)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Path == "" && strings.EqualFold(u.Host, r.Host)
}
