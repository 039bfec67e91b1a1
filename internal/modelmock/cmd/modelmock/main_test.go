package main

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
)

func TestRunPrintsTheURLAndStopsWhenStdinCloses(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	go func() { code <- run([]string{"-addr", "127.0.0.1:0"}, inR, outW) }()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSpace(line)
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("first line %q", line)
	}
	resp, err := http.Get(url + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v1/models: %d", resp.StatusCode)
	}
	inW.Close()
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit status %d", c)
		}
	case <-time.After(testkit.Hang):
		t.Fatal("still serving after stdin closed")
	}
}

func TestRunRefusesNonLoopbackAddresses(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "8.8.8.8:80"} {
		if c := run([]string{"-addr", addr}, strings.NewReader(""), io.Discard); c != 1 {
			t.Errorf("%s: exit status %d, want 1", addr, c)
		}
	}
}
