package cmd

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/device"

	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// The web inbox in a real browser: Debian's chromium, headless, at a
// phone's viewport, against real sessions (elicit serve -p with a
// scripted agent's form) and the real `elicit inbox --web`.

// proc is an elicit the test started, its output as it comes.
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr testkit.Buffer
	done           chan struct{}
	code           int
}

// startElicit starts the built elicit with env added to the environment;
// the test's end interrupts it if it still runs, and waits for it.
func startElicit(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(elicitBinary(t), args...), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.cmd.Wait()
		p.code = p.cmd.ProcessState.ExitCode()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			p.cmd.Process.Signal(syscall.SIGINT)
			p.wait(t)
		}
	})
	return p
}

// wait waits for the process to exit and returns its status.
func (p *proc) wait(t *testing.T) int {
	t.Helper()
	testkit.Until(t, "elicit "+strings.Join(p.cmd.Args[1:], " ")+" to exit", func() bool {
		select {
		case <-p.done:
			return true
		default:
			return false
		}
	}, func() <-chan struct{} { return p.done }, func() string { return p.stdout.String() + p.stderr.String() })
	return p.code
}

// webEnv is a private inbox directory, state and config for the test's
// processes (and this one's inbox watcher).
func webEnv(t *testing.T) []string {
	t.Helper()
	run, err := os.MkdirTemp("", "webrt-") // short: socket paths are at most ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	os.Chmod(run, 0o700)
	t.Setenv("XDG_RUNTIME_DIR", run)
	return []string{"XDG_RUNTIME_DIR=" + run, "XDG_STATE_HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
}

// formSession starts `elicit serve -p` in dir with the web form agent.
func formSession(t *testing.T, env []string, dir string) *proc {
	args := append([]string{"serve", "-p", "pick", "--cwd", dir, "--"}, testAgentArgv(t)...)
	return startElicit(t, append(env, testAgentVar+"="+webFormAgent), args...)
}

// browser starts headless chromium at a phone's viewport (390x844, an
// iPhone 12 Pro) with a fresh profile. Where chromium is missing or cannot
// start, the test is skipped with one line, unless ELICIT_TEST_TOOLS says
// CI installed it: then it fails.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := requireTool(t, "chromium", "chromium")
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(390, 844))
	t.Cleanup(cancelA)
	bctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(cancelB)
	if err := chromedp.Do(bctx, chromedp.Emulate(device.IPhone12Pro)); err != nil {
		if strings.Contains(" "+os.Getenv("ELICIT_TEST_TOOLS")+" ", " chromium ") {
			t.Fatalf("chromium does not start, but ELICIT_TEST_TOOLS says it is installed: %v", err)
		}
		t.Skipf("chromium cannot start here (%v); .ci/run installs Debian's chromium", err)
	}
	return bctx
}

// until waits, in the page, until the JavaScript condition holds (checked
// on each change of the document).
func until(t *testing.T, ctx context.Context, what, cond string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, testkit.Hang)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.Poll[bool](cond, chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(0))); err != nil {
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
		t.Fatalf("%s: %v\nthe page shows:\n%s", what, err, body)
	}
}

func do(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, js string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, opts...))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

var pairLink = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/#pair=[A-Za-z0-9_-]{22}`)

// Pair, answer a form (its session gets the content), see a question
// answered elsewhere leave, refuse a reused link and a foreign Origin,
// show nothing without the cookie; revoke the device.
func TestWebInboxInABrowser(t *testing.T) {
	ctx := browser(t)
	env := webEnv(t)
	dirA, dirB := t.TempDir(), t.TempDir()
	a, b := formSession(t, env, dirA), formSession(t, env, dirB)
	w, err := inbox.Watch(inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ids := map[string]string{} // directory -> question id
	testkit.Until(t, "two waiting forms", func() bool {
		for _, it := range w.Items() {
			ids[it.Cwd] = it.ID
		}
		return len(ids) == 2
	}, w.Changed, func() string { return a.stderr.String() + b.stderr.String() })

	web := startElicit(t, env, "inbox", "--web")
	web.stdout.WaitUntil(t, "a pairing link", pairLink.MatchString)
	link := pairLink.FindString(web.stdout.String())
	base := link[:strings.Index(link, "#")]

	// Pair, and the list: the token leaves the address bar.
	do(t, ctx, chromedp.Navigate(link))
	until(t, ctx, "the two forms listed", `document.querySelectorAll('button.item').length === 2`)
	if href := eval[string](t, ctx, `location.href`); href != base {
		t.Errorf("the address keeps the token: %s", href)
	}
	if out := runBinary(t, env, "", "inbox", "devices"); out.code != 0 || !strings.Contains(out.stdout, "Safari on iPhone") {
		t.Errorf("elicit inbox devices: %v", out)
	}

	// Answer A's form: set the field choice, Accept, review, Send.
	do(t, ctx, chromedp.Click(chromedp.CSS(`button.item[data-id="`+ids[dirA]+`"]`)), chromedp.WaitVisible(chromedp.CSS(`select[name="choice"]`)))
	if got := eval[string](t, ctx, `document.querySelector('.fact-directory').textContent`); got != dirA {
		t.Errorf("the form's directory reads %q, want %q", got, dirA)
	}
	// The agent's HTML is text: no element made of it, no script run.
	if eval[bool](t, ctx, `!!document.getElementById('injected') || document.title !== 'elicit inbox' || !!document.querySelector('main b, main img, main script')`) {
		t.Fatal("an agent's HTML became part of the page")
	}
	if label := eval[string](t, ctx, `document.querySelector('label[for="'+document.querySelector('select[name=choice]').id+'"]').textContent`); !strings.Contains(label, "Colour <img src=x id=injected>") {
		t.Errorf("the label reads %q", label)
	}
	do(t, ctx, chromedp.SetValue(chromedp.CSS(`select[name="choice"]`), "green"), chromedp.SendKeys(chromedp.CSS(`input[name="note"]`), "from the phone"),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(`.review`)))
	if got := eval[string](t, ctx, `document.querySelector('.review dd[data-key="choice"]').textContent`); !strings.HasPrefix(got, "Green <script>") {
		t.Errorf("the review shows choice %q", got)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`.review button.primary`)))
	until(t, ctx, "the answer sent", `document.getElementById('main').dataset.state === 'done'`)
	if code := a.wait(t); code != 0 || !strings.Contains(a.stdout.String(), `"content":{"choice":"green","note":"from the phone"}`) {
		t.Fatalf("session A (exit %d) got:\n%s\n%s", code, a.stdout.String(), a.stderr.String())
	}

	// Without the cookie, nothing: the used link again in a fresh
	// browser, then the page without a token.
	fresh, cancel := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	defer cancel()
	do(t, fresh, chromedp.Navigate(link))
	until(t, fresh, "the used link refused", `document.getElementById('main').dataset.state === 'unpaired'`)
	if txt := eval[string](t, fresh, `document.getElementById('main').innerText`); !strings.Contains(txt, "used already or has expired") {
		t.Errorf("a used link: %q", txt)
	}
	do(t, fresh, chromedp.Navigate(base))
	until(t, fresh, "unpaired without a token", `document.getElementById('main').dataset.state === 'unpaired'`)
	if n := eval[int](t, fresh, `document.querySelectorAll('button.item').length`); n != 0 {
		t.Errorf("an unpaired browser lists %d questions", n)
	}

	// B's form open on the phone, answered elsewhere: the page says so.
	do(t, ctx, chromedp.Click(chromedp.CSS(`button.back`)))
	until(t, ctx, "one form left", `document.querySelectorAll('button.item').length === 1`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`button.item[data-id="`+ids[dirB]+`"]`)), chromedp.WaitVisible(chromedp.CSS(`select[name="choice"]`)))
	if out := runBinary(t, env, "", "inbox", "answer", ids[dirB], "--decline"); out.code != 0 {
		t.Fatalf("elicit inbox answer: %v", out)
	}
	until(t, ctx, "answered elsewhere", `document.getElementById('main').dataset.state === 'gone'`)
	if txt := eval[string](t, ctx, `document.querySelector('.banner.gone').innerText`); !strings.Contains(txt, "Answered elsewhere") {
		t.Errorf("the banner: %q", txt)
	}
	if !eval[bool](t, ctx, `document.querySelector('select[name="choice"]').disabled`) {
		t.Error("the form answered elsewhere can still be sent")
	}
	if code := b.wait(t); code != 0 || !strings.Contains(b.stdout.String(), `"action":"decline"`) {
		t.Fatalf("session B (exit %d) got:\n%s", code, b.stdout.String())
	}

	// A page of another origin (same site: the cookie goes along) cannot
	// open the live channel nor answer.
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("<!doctype html><title>elsewhere</title><p>another origin</p>"))
	}))
	defer foreign.Close()
	do(t, ctx, chromedp.Navigate(foreign.URL))
	ws := eval[string](t, ctx, `new Promise((done) => { const ws = new WebSocket('`+strings.Replace(base, "http", "ws", 1)+`api/live');
		ws.onopen = () => done('open'); ws.onerror = () => done('refused'); })`, chromedp.EvalAwaitPromise)
	if ws != "refused" {
		t.Errorf("another origin's live channel: %s", ws)
	}
	eval[chromedp.Void](t, ctx, `fetch('`+base+`api/answer', {method: 'POST', mode: 'no-cors', credentials: 'include',
		body: JSON.stringify({id: 'x', action: 'decline'})}).then(() => 1, () => 0)`, chromedp.EvalAwaitPromise) // its reply is refused too (CORP)
	web.stderr.WaitCount(t, `refused a request from another origin ("`+foreign.URL+`")`, 2)

	// Revoked, the device sees nothing.
	dev := regexp.MustCompile(`(?m)^([0-9a-f]{8})\s+Safari on iPhone`).FindStringSubmatch(runBinary(t, env, "", "inbox", "devices").stdout)
	if dev == nil {
		t.Fatal("the paired device is not listed")
	}
	if out := runBinary(t, env, "", "inbox", "devices", "--revoke", dev[1]); out.code != 0 {
		t.Fatalf("revoke: %v", out)
	}
	do(t, ctx, chromedp.Navigate(base))
	until(t, ctx, "the revoked device unpaired", `document.getElementById('main').dataset.state === 'unpaired'`)

	web.cmd.Process.Signal(syscall.SIGINT)
	if code := web.wait(t); code != 0 || !strings.Contains(web.stderr.String(), "the web inbox stopped") {
		t.Fatalf("elicit inbox --web ended with %d:\n%s", code, web.stderr.String())
	}
}

// Another address than loopback without TLS: exit 2, and why.
func TestWebInboxNeedsTLSOffLoopback(t *testing.T) {
	env := webEnv(t)
	r := runBinary(t, env, "", "inbox", "--web", "--listen", "0.0.0.0:0")
	if r.code != exitUsage || !strings.Contains(r.stderr, "not a loopback address") || !strings.Contains(r.stderr, "--tls-cert and --tls-key") {
		t.Fatalf("--listen 0.0.0.0:0 without TLS: %v", r)
	}
	if r := runBinary(t, env, "", "inbox", "--listen", "127.0.0.1:0"); r.code != exitUsage || !strings.Contains(r.stderr, "--listen goes with --web") {
		t.Fatalf("--listen without --web: %v", r)
	}
}
