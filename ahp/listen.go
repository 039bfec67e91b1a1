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
)

// NewToken returns a random bearer token (256 bits, URL-safe).
func NewToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// TokenFile reads the token in path, or writes a new random one there
// (mode 0600) when the file does not exist, so a host keeps its token
// across restarts.
func TokenFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		t := strings.TrimSpace(string(b))
		if len(t) < 16 {
			return "", fmt.Errorf("%s: a token needs at least 16 characters", path)
		}
		return t, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	t := NewToken()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
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
