package web

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/question"
)

func num(s string) *json.Number { n := json.Number(s); return &n }

// everyKind is a form of every restricted kind, with a draft typed
// elsewhere for age.
func everyKind(id string) ahp.Request {
	return ahp.Request{ID: id, Message: "Profile\x1b[31m \u202eevil", Meta: ahp.RequestMeta{Kind: ahp.MetaForm}.Raw(),
		Questions: []ahp.Question{
			{ID: "email", Kind: ahp.KindText, Title: "Email", Message: "Where to write", Format: "email", Required: true},
			{ID: "age", Kind: ahp.KindInteger, Message: "Age", Min: num("0"), Max: num("150")},
			{ID: "score", Kind: ahp.KindNumber, Message: "Score"},
			{ID: "ok", Kind: ahp.KindBoolean, Message: "Verified?"},
			{ID: "choice", Kind: ahp.KindSingleSelect, Message: "Colour", Required: true,
				Options: []ahp.Option{{ID: "red", Label: "Red"}, {ID: "green", Label: "Green <b>", Description: "the <i>good</i> one"}}},
			{ID: "tags", Kind: ahp.KindMultiSelect, Message: "Tags", Max: num("2"), Options: []ahp.Option{{ID: "a", Label: "A"}, {ID: "b", Label: "B"}, {ID: "c", Label: "C"}}},
			{ID: "api_token", Kind: ahp.KindText, Title: "API token", Message: "For the service"},
		},
		Answers: map[string]ahp.Answer{"age": {State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueNumber, Number: "41"}}},
	}
}

// A form is shown with one control a field (named by its key), what the
// form holds, the secret warning; its values are checked as the terminal
// checks them, every bad field at once; the review lists them; the
// session gets typed answers, marked as the user's own.
func TestFormCheckedReviewedAndAnswered(t *testing.T) {
	runtimeDir(t)
	h := session(t, "demo", "/work/a")
	if err := h.Request(everyKind("q1")); err != nil {
		t.Fatal(err)
	}
	s := start(t, Options{})
	id := waitItems(t, s, 1)[0]
	b := newBrowser(t, s)
	link, _ := s.PairURL()
	b.pair(link)

	code, v := b.get("/api/question?id=" + id)
	if code != http.StatusOK || v["cwd"] != "/work/a" || v["permission"] != nil || v["url"] != nil {
		t.Fatalf("the question: %d %v", code, v)
	}
	if msg := v["message"].(string); strings.ContainsAny(msg, "\x1b\u202e") {
		t.Fatalf("the message is not sanitized: %q", msg)
	}
	fields := v["form"].(map[string]any)["fields"].([]any)
	var keys []string
	byKey := map[string]map[string]any{}
	for _, f := range fields {
		m := f.(map[string]any)
		keys = append(keys, m["key"].(string))
		byKey[m["key"].(string)] = m
	}
	if want := []string{"email", "age", "score", "ok", "choice", "tags", "api_token"}; !slices.Equal(keys, want) {
		t.Fatalf("fields %v, want %v", keys, want)
	}
	if byKey["age"]["value"] != "41" || byKey["age"]["kind"] != "integer" || byKey["email"]["format"] != "email" {
		t.Errorf("age and email: %v %v", byKey["age"], byKey["email"])
	}
	if byKey["api_token"]["secret"] == nil || byKey["email"]["secret"] != nil {
		t.Errorf("the secret warning: %v", byKey["api_token"])
	}

	answer := func(review bool, content map[string]any) (int, map[string]any) {
		return b.post("/api/answer", map[string]any{"id": id, "action": "accept", "review": review, "content": content})
	}
	_, bad := answer(true, map[string]any{"email": "not-an-address", "age": "1.5", "choice": "blue", "tags": []string{"a", "b", "c"}, "ok": "maybe"})
	errs, _ := bad["errors"].(map[string]any)
	for _, k := range []string{"email", "age", "choice", "tags", "ok"} {
		if errs[k] == nil {
			t.Errorf("no error for %s: %v", k, bad)
		}
	}
	if bad["ok"] == true || len(errs) != 5 {
		t.Fatalf("bad values: %v", bad)
	}
	_, missing := answer(true, map[string]any{"email": " ", "choice": ""})
	if e := missing["errors"].(map[string]any); e["email"] != "required" || e["choice"] != "required" {
		t.Fatalf("required fields left empty: %v", missing)
	}

	good := map[string]any{"email": "ada@example.com", "age": "42", "score": "", "ok": true, "choice": "green", "tags": []string{"a", "b"}, "api_token": ""}
	_, rv := answer(true, good)
	lines, _ := rv["review"].([]any)
	var shown []string
	for _, l := range lines {
		m := l.(map[string]any)
		shown = append(shown, m["label"].(string)+"="+m["value"].(string))
	}
	if want := []string{"Email=ada@example.com", "Age=42", "Verified?=Yes", "Colour=Green <b>", "Tags=A, B"}; !slices.Equal(shown, want) {
		t.Fatalf("the review %v, want %v (%v)", shown, want, rv)
	}
	if in := h.Inputs(); in.Open("q1") == nil || in.Open("q1").Request.Answers["email"].Value != nil {
		t.Fatal("a review answered")
	}

	if code, r := answer(false, good); code != http.StatusOK || r["ok"] != true {
		t.Fatalf("accept: %d %v", code, r)
	}
	done, ok := h.NextCompletion(ctxT(t))
	a := done.Request.Answers
	if !ok || done.Response != question.Accept || !done.SameUser || a["email"].Value.Text != "ada@example.com" || a["age"].Value.Number != "42" ||
		!a["ok"].Value.Bool || a["choice"].Value.Selected != "green" || !slices.Equal(a["tags"].Value.Many, []string{"a", "b"}) {
		t.Fatalf("the session got %+v", done)
	}
	if _, has := a["score"]; has {
		t.Errorf("an optional field left empty was sent: %+v", a["score"])
	}
	if code, r := answer(false, good); code != http.StatusGone || r["gone"] != true {
		t.Fatalf("answered twice: %d %v", code, r)
	}
}

// The first answer wins: one given elsewhere first leaves the live list
// with how it was answered, and a later answer from the page is refused
// as answered elsewhere.
func TestAnsweredElsewhereFirst(t *testing.T) {
	runtimeDir(t)
	h := session(t, "demo", "/work/a")
	if err := h.Request(textForm("q1")); err != nil {
		t.Fatal(err)
	}
	s := start(t, Options{})
	id := waitItems(t, s, 1)[0]
	b := newBrowser(t, s)
	link, _ := s.PairURL()
	b.pair(link)
	live := b.live(t)
	if snap := live.next(t); len(snap.Items) != 1 || snap.Items[0].ID != id || snap.Items[0].Cwd != "/work/a" {
		t.Fatalf("the first list: %+v", snap)
	}
	term, err := h.Join("terminal")
	if err != nil {
		t.Fatal(err)
	}
	if err := term.Dispatch(ahp.InputCompleted{RequestID: "q1", Response: question.Decline}); err != nil {
		t.Fatal(err)
	}
	if snap := live.until(t, func(s snapshot) bool { return len(s.Items) == 0 }); snap.Gone[id] != question.Decline {
		t.Fatalf("how it left: %+v", snap)
	}
	code, r := b.post("/api/answer", map[string]any{"id": id, "action": "accept", "content": map[string]any{"name": "Ada"}})
	if code != http.StatusGone || !strings.Contains(r["message"].(string), "Answered elsewhere (decline)") {
		t.Fatalf("answering after: %d %v", code, r)
	}
	if code, r := b.get("/api/question?id=" + id); code != http.StatusGone || r["gone"] != true {
		t.Fatalf("opening after: %d %v", code, r)
	}
}

// A permission is shown with its full text and its options, never as a
// form; it is answered from the page only with Permissions set.
func TestPermissionOnlyWithWebPermissions(t *testing.T) {
	runtimeDir(t)
	h := session(t, "claude", "/work/b")
	perm := ahp.Request{ID: "p1", Message: "Permission: the agent wants to run rm -rf build.\nrm -rf build",
		Meta: ahp.RequestMeta{Kind: ahp.MetaPermission, Tool: "Run rm -rf build"}.Raw(),
		Questions: []ahp.Question{{ID: "option", Kind: ahp.KindSingleSelect, Title: "Allow?", Message: "Pick one", Required: true,
			Options: []ahp.Option{{ID: "allow", Label: "Allow", Description: "allow once"}, {ID: "reject", Label: "Reject"}}}}}
	if err := h.RequestPrivate(perm); err != nil {
		t.Fatal(err)
	}
	for _, allowed := range []bool{false, true} {
		s := start(t, Options{Permissions: allowed})
		id := waitItems(t, s, 1)[0]
		b := newBrowser(t, s)
		link, _ := s.PairURL()
		b.pair(link)
		_, v := b.get("/api/question?id=" + id)
		p, _ := v["permission"].(map[string]any)
		if v["form"] != nil || p == nil || p["answerable"] != allowed || !strings.Contains(v["message"].(string), "rm -rf build") || len(p["options"].([]any)) != 2 {
			t.Fatalf("the permission (allowed %v): %v", allowed, v)
		}
		if allowed {
			if code, r := b.post("/api/answer", map[string]any{"id": id, "action": "accept", "option": "sometimes"}); code != http.StatusBadRequest {
				t.Fatalf("an option the agent did not offer: %d %v", code, r)
			}
		}
		code, r := b.post("/api/answer", map[string]any{"id": id, "action": "accept", "option": "allow"})
		if !allowed {
			if code != http.StatusForbidden || !strings.Contains(r["message"].(string), "--web-permissions") {
				t.Fatalf("without --web-permissions: %d %v", code, r)
			}
			if in := h.Inputs(); in.Open("p1") == nil {
				t.Fatal("answered without --web-permissions")
			}
			s.Close()
			continue
		}
		if code != http.StatusOK {
			t.Fatalf("with --web-permissions: %d %v", code, r)
		}
		done, _ := h.NextCompletion(ctxT(t))
		if done.Request.Answers["option"].Value.Selected != "allow" {
			t.Fatalf("the session got %+v", done)
		}
	}
}

// A URL is shown whole with its registrable domain and warnings;
// consenting answers accept and gives the link to open; a link that
// cannot open cannot be consented to.
func TestURLConsent(t *testing.T) {
	runtimeDir(t)
	h := session(t, "demo", "/work/c")
	at := time.Now().UTC().Format(time.RFC3339Nano)
	for id, u := range map[string]string{"u1": "https://xn--80ak6aa92e.com/login", "u2": "javascript:alert(1)"} {
		if err := h.Request(ahp.Request{ID: id, Message: "Sign in", URL: u, Meta: ahp.RequestMeta{Kind: ahp.MetaURL, AskedAt: at}.Raw()}); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, Options{})
	ids := waitItems(t, s, 2)
	b := newBrowser(t, s)
	link, _ := s.PairURL()
	b.pair(link)
	slices.Sort(ids)
	_, v := b.get("/api/question?id=" + ids[0])
	u := v["url"].(map[string]any)
	var codes []string
	for _, w := range u["warnings"].([]any) {
		codes = append(codes, w.(map[string]any)["code"].(string))
	}
	if v["form"] != nil || u["domain"] != "xn--80ak6aa92e.com" || u["hostUnicode"] != "аррӏе.com" || !slices.Contains(codes, "punycode") || u["openable"] != true {
		t.Fatalf("the URL: %v", v)
	}
	code, r := b.post("/api/answer", map[string]any{"id": ids[0], "action": "accept"})
	if code != http.StatusOK || r["url"] != "https://xn--80ak6aa92e.com/login" {
		t.Fatalf("consent: %d %v", code, r)
	}
	if done, _ := h.NextCompletion(ctxT(t)); done.Response != question.Accept || done.Request.ID != "u1" {
		t.Fatalf("the session got %+v", done)
	}
	if code, r := b.post("/api/answer", map[string]any{"id": ids[1], "action": "accept"}); code != http.StatusBadRequest {
		t.Fatalf("a javascript: link consented to: %d %v", code, r)
	}
	if code, _ := b.post("/api/answer", map[string]any{"id": ids[1], "action": "decline"}); code != http.StatusOK {
		t.Fatalf("declining it: %d", code)
	}
}
