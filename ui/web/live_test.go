package web

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/ahp/inbox"
)

// The live channel follows the inbox: a question asked later arrives, a
// withdrawn one leaves. `elicit inbox pair` gets a new link over the
// control socket; revoking a device (`elicit inbox devices --revoke`)
// ends its live channel at once.
func TestLiveChannelPairAndRevoke(t *testing.T) {
	runtimeDir(t)
	h := session(t, "demo", "/work/a")
	s := start(t, Options{})
	dir, err := inbox.Dir()
	if err != nil {
		t.Fatal(err)
	}
	link, exp, err := Pair(ctxT(t), dir, 0)
	if err != nil || !strings.HasPrefix(link, s.URL()+"#pair=") || time.Until(exp) <= 0 {
		t.Fatalf("elicit inbox pair: %q %v %v", link, exp, err)
	}
	b := newBrowser(t, s)
	if code, _ := b.pair(link); code != http.StatusOK {
		t.Fatal("the link from the control socket does not pair")
	}
	live := b.live(t)
	if snap := live.next(t); len(snap.Items) != 0 {
		t.Fatalf("the first list: %+v", snap)
	}
	if err := h.Request(textForm("q1")); err != nil {
		t.Fatal(err)
	}
	if snap := live.until(t, func(s snapshot) bool { return len(s.Items) > 0 }); len(snap.Items) != 1 || snap.Items[0].Agent != "demo" {
		t.Fatalf("a question asked: %+v", snap)
	}
	h.Withdraw("q1")
	snap := live.until(t, func(s snapshot) bool { return len(s.Items) == 0 })
	if len(snap.Gone) != 1 {
		t.Fatalf("a question withdrawn: %+v", snap)
	}
	for _, resp := range snap.Gone {
		if resp != "" {
			t.Fatalf("a withdrawn question reads as answered: %+v", snap)
		}
	}

	list, _ := s.devices.List()
	if _, err := s.devices.Revoke(list[0].ID); err != nil {
		t.Fatal(err)
	}
	Revoked(ctxT(t), dir)
	if _, _, err := live.c.Read(ctxT(t)); err == nil {
		t.Fatal("the revoked device's live channel still reads")
	}

	s.Close()
	if _, _, err := Pair(ctxT(t), dir, 0); err != ErrNotRunning {
		t.Fatalf("pairing with none running: %v", err)
	}
}

// Over TLS the page may listen on any address: it is reached by the
// certificate's names (and loopback), its cookie is Secure, and its link
// names the certificate's host.
func TestTLSOnAnyAddress(t *testing.T) {
	runtimeDir(t)
	cert, key := selfSigned(t, "phone.test")
	s := start(t, Options{Listen: "0.0.0.0:0", TLSCert: cert, TLSKey: key})
	port := s.Addr().(*net.TCPAddr).Port
	if want := "https://phone.test:" + strconv.Itoa(port) + "/"; s.URL() != want {
		t.Fatalf("the page's URL %s, want %s", s.URL(), want)
	}
	link, _ := s.PairURL()
	tok := link[strings.Index(link, "=")+1:]
	tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}} // the test's own certificate
	c := &http.Client{Transport: tr}
	post := func(host, origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, "https://127.0.0.1:"+strconv.Itoa(port)+"/api/pair", strings.NewReader(`{"token":"`+tok+`"}`))
		req.Host, req.Header["Origin"] = host, []string{origin}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := post("elsewhere.test:"+strconv.Itoa(port), "https://elsewhere.test:"+strconv.Itoa(port)); r.StatusCode != http.StatusForbidden {
		t.Fatalf("a name the certificate is not for: %s", r.Status)
	}
	r := post("phone.test:"+strconv.Itoa(port), "https://phone.test:"+strconv.Itoa(port))
	if r.StatusCode != http.StatusOK || len(r.Cookies()) != 1 || !r.Cookies()[0].Secure {
		t.Fatalf("pairing over TLS: %s %+v", r.Status, r.Cookies())
	}
}

// selfSigned writes a certificate for name (and 127.0.0.1) and its key.
func selfSigned(t *testing.T, name string) (certFile, keyFile string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name}, DNSNames: []string{name},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	return certFile, keyFile
}
