// Command modelmock serves the loopback model API mock of package
// modelmock, for running real ACP agents without an API key.
//
//	modelmock -addr 127.0.0.1:0 [-log FILE] [-dump DIR]
//
// The first line on stdout is the base URL (http://127.0.0.1:PORT). It
// serves until stdin closes, or SIGINT or SIGTERM. Point agents at it with,
// for example, ANTHROPIC_BASE_URL=URL or OPENAI_BASE_URL=URL/v1.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/elicit-dev/elicit/internal/modelmock"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout))
}

// run parses the flags, prints the URL on stdout, serves until stdin
// closes or a signal, and returns the exit status.
func run(args []string, stdin io.Reader, stdout io.Writer) int {
	fs := flag.NewFlagSet("modelmock", flag.ContinueOnError)
	defer signal.Reset(syscall.SIGTERM, syscall.SIGINT)
	addr := fs.String("addr", "127.0.0.1:0", "loopback `address` to listen on")
	logPath := fs.String("log", "", "append one line per request to `FILE` (\"-\" for stderr)")
	dump := fs.String("dump", "", "write every request body into `DIR`")
	noStdin := fs.Bool("no-stdin", false, "do not stop when stdin closes (stop on a signal only)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	opts := modelmock.Options{DumpDir: *dump}
	switch *logPath {
	case "":
	case "-":
		opts.Log = os.Stderr
	default:
		f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "modelmock:", err)
			return 1
		}
		defer f.Close()
		opts.Log = f
	}
	if *dump != "" {
		if err := os.MkdirAll(*dump, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "modelmock:", err)
			return 1
		}
	}
	srv := modelmock.New(opts)
	if err := srv.Listen(*addr); err != nil {
		fmt.Fprintln(os.Stderr, "modelmock:", err)
		return 1
	}
	defer srv.Close()
	fmt.Fprintln(stdout, srv.URL())

	done := make(chan struct{}, 2)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-sig
		done <- struct{}{}
	}()
	if !*noStdin {
		go func() {
			_, _ = io.Copy(io.Discard, stdin)
			done <- struct{}{}
		}()
	}
	<-done
	return 0
}
