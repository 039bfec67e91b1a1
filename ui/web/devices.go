package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/internal/safefile"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// DevicesFile is the name of the paired devices' file in the state
// directory ($XDG_STATE_HOME/elicit).
const DevicesFile = "web-devices.json"

// maxDevicesFile bounds what is read of the file: a device is about 200
// bytes, and nobody pairs thousands.
const maxDevicesFile = 1 << 20

// Device is one paired browser. Only a hash of its secret is kept.
type Device struct {
	ID     string    `json:"id"`     // names it to `elicit inbox devices --revoke`
	Name   string    `json:"name"`   // what it is, from its User-Agent ("Chrome on Android")
	Hash   string    `json:"hash"`   // SHA-256 of its secret, hex
	Paired time.Time `json:"paired"` // when it was paired
}

// devicesFile is the file's shape.
type devicesFile struct {
	Version int      `json:"version"`
	Devices []Device `json:"devices"`
}

// Devices is the paired devices' store: a file of mode 0600 (written
// through a new file renamed into place, read only when it is the user's
// own and no one else's to read), changed under a lock so that a revoke
// and a pairing at once lose neither.
type Devices struct {
	// Path is the file.
	Path string
}

// NewDevices is the store in the state directory dir.
func NewDevices(dir string) *Devices { return &Devices{Path: filepath.Join(dir, DevicesFile)} }

// List is every paired device, oldest first; none when the file is absent.
func (d *Devices) List() ([]Device, error) {
	b, err := safefile.ReadTrusted(d.Path, maxDevicesFile, safefile.Token)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f devicesFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s is damaged (%v): move it away to unpair every device", d.Path, err)
	}
	return f.Devices, nil
}

// Check is the device whose cookie value is cookie ("ID.SECRET"), and
// whether it is paired: its secret's hash must match the one kept.
func (d *Devices) Check(cookie string) (Device, bool) {
	id, secret, ok := strings.Cut(cookie, ".")
	if !ok || id == "" || secret == "" {
		return Device{}, false
	}
	list, err := d.List()
	if err != nil {
		return Device{}, false
	}
	sum := hashOf(secret)
	for _, dev := range list {
		if dev.ID == id && subtle.ConstantTimeCompare([]byte(dev.Hash), []byte(sum)) == 1 {
			return dev, true
		}
	}
	return Device{}, false
}

// Add pairs a new device called name and returns it with its cookie
// value ("ID.SECRET": 256 random bits the file never holds).
func (d *Devices) Add(name string, now time.Time) (Device, string, error) {
	secret := randomText(32)
	dev := Device{ID: randomHex(4), Name: sanitize.Summary(name, 60), Hash: hashOf(secret), Paired: now.UTC()}
	err := d.update(func(list []Device) ([]Device, error) { return append(list, dev), nil })
	if err != nil {
		return Device{}, "", err
	}
	return dev, dev.ID + "." + secret, nil
}

// ErrNoDevice says no paired device has that id.
var ErrNoDevice = errors.New("no paired device has that id")

// Revoke unpairs the device id: its cookie opens nothing any more.
func (d *Devices) Revoke(id string) (Device, error) {
	var gone Device
	err := d.update(func(list []Device) ([]Device, error) {
		i := slices.IndexFunc(list, func(dev Device) bool { return dev.ID == id })
		if i < 0 {
			return nil, fmt.Errorf("%w (%s): elicit inbox devices lists them", ErrNoDevice, sanitize.Line(id))
		}
		gone = list[i]
		return slices.Delete(list, i, i+1), nil
	})
	return gone, err
}

// update changes the list under the lock and writes it back.
func (d *Devices) update(change func([]Device) ([]Device, error)) error {
	dir := filepath.Dir(d.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	lf, err := safefile.Append(d.Path+".lock", 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	unlock, err := safefile.Lock(lf, safefile.LockTimeout)
	if err != nil {
		return err
	}
	defer unlock()
	list, err := d.List()
	if err != nil {
		return err
	}
	if list, err = change(list); err != nil {
		return err
	}
	b, err := json.MarshalIndent(devicesFile{Version: 1, Devices: list}, "", "\t")
	if err != nil {
		return err
	}
	return d.write(append(b, '\n'))
}

// write replaces the file: a new file of mode 0600 under a fresh name
// (made exclusively: nothing there is followed or reused), then renamed
// over the old one, so a reader sees one whole file or the other.
func (d *Devices) write(b []byte) error {
	tmp := d.Path + "." + randomHex(6) + ".new"
	f, err := safefile.Create(tmp, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, d.Path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// hashOf is what the file keeps of a secret.
func hashOf(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// randomText is n random bytes, base64url without padding.
func randomText(n int) string { return base64.RawURLEncoding.EncodeToString(randomBytes(n)) }

// randomHex is n random bytes in hex.
func randomHex(n int) string { return hex.EncodeToString(randomBytes(n)) }

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails: crypto/rand crashes the program rather
	return b
}

// deviceName says what a browser is from its User-Agent, in a few words
// ("Chrome on Android"), for the list of devices; no more of the header
// is kept.
func deviceName(ua string) string {
	platform := ""
	for _, p := range []struct{ marker, name string }{
		{"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Android", "Android"}, {"CrOS", "ChromeOS"},
		{"Macintosh", "macOS"}, {"Windows", "Windows"}, {"Linux", "Linux"},
	} {
		if strings.Contains(ua, p.marker) {
			platform = p.name
			break
		}
	}
	browser := "A browser"
	for _, b := range []struct{ marker, name string }{
		{"Firefox/", "Firefox"}, {"FxiOS/", "Firefox"}, {"Edg", "Edge"}, {"CriOS/", "Chrome"}, {"Chrome/", "Chrome"}, {"Safari/", "Safari"},
	} {
		if strings.Contains(ua, b.marker) {
			browser = b.name
			break
		}
	}
	if platform == "" {
		return browser
	}
	return browser + " on " + platform
}
