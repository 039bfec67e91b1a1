package ahp

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/elicit-dev/elicit/internal/safefile"
)

// NewToken returns a random bearer token (256 bits, URL-safe).
func NewToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// TokenFile reads the token in path, or writes a new random one there
// (mode 0600, never through a symbolic link) when the file does not
// exist, so a host keeps its token across restarts. An existing file must
// be one only the user controls (safefile.Trusted: the user's or root's,
// neither writable nor readable by others): a file planted in a shared
// directory would hand its author the token, and the answers.
func TokenFile(path string) (string, error) {
	b, err := safefile.ReadTrusted(path, 4096, safefile.Token)
	if err == nil {
		t := strings.TrimSpace(string(b))
		if len(t) < 16 {
			return "", fmt.Errorf("%s: a token needs at least 16 characters", path)
		}
		return t, nil
	}
	if !errors.Is(err, os.ErrNotExist) || safefile.IsSymlink(path) {
		return "", err
	}
	t := NewToken()
	f, err := safefile.Create(path, 0o600)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := f.WriteString(t + "\n"); err != nil {
		return "", err
	}
	return t, nil
}

// authorized checks the request's bearer token in constant time.
func authorized(r *http.Request, token string) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

// Loopback reports whether every address host names is a loopback one
// ("" and unspecified addresses listen everywhere: not loopback).
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil {
		return ip.IsLoopback()
	}
	if host == "" {
		return false
	}
	addrs, err := net.LookupHost(host)
	if err != nil || len(addrs) == 0 {
		return false
	}
	for _, a := range addrs {
		if ip := net.ParseIP(a); ip == nil || !ip.IsLoopback() {
			return false
		}
	}
	return true
}

// hostAllowed reports whether a plain ws:// host takes a request whose
// Host header is hostport: a loopback address or localhost; any address
// when it listens on a non-loopback one (remote); and the names in allow.
// A page on another name that its DNS points at this address (DNS
// rebinding) sends that name in Host, and in Origin, which then matches
// it: the Origin check alone lets it through, this refuses it. Over TLS
// the browser refuses the certificate first.
func hostAllowed(hostport string, remote bool, allow []string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback() || remote
	}
	if host == "localhost" {
		return true
	}
	for _, a := range allow {
		if strings.EqualFold(strings.TrimSuffix(a, "."), host) {
			return true
		}
	}
	return false
}

// ErrRemoteWithoutTLS refuses a non-loopback address without TLS.
var ErrRemoteWithoutTLS = errors.New("a non-loopback address needs TLS (--tls-cert and --tls-key), or --allow-remote to send the token and every answer in clear text")

// ErrNoToken refuses to serve without a token unless asked to.
var ErrNoToken = errors.New("no token: refusing to serve without one (--insecure-no-token turns this off)")

// CheckListen applies the listening policy: loopback by default; any other
// address only with TLS or an explicit allowRemote.
func CheckListen(addr string, tls, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %q: %w", addr, err)
	}
	if !Loopback(host) && !tls && !allowRemote {
		return ErrRemoteWithoutTLS
	}
	return nil
}
