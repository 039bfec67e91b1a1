package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/ui/web"
	"github.com/elicit-dev/elicit/urlconsent"
)

const inboxWebLong = "Serves the inbox as a web page for a phone, with a live channel that keeps it current, on one port: " +
	"every form, link and permission your sessions wait on, answered there by touch or keyboard. The first answer wins " +
	"everywhere: a question answered at its terminal leaves the page at once, and the page says one was answered elsewhere.\n\n" +
	"Loopback by default: reach it from a phone with ssh -L, or put tailscale serve in front of it (give its name with " +
	"--url or --allow-host). Another --listen address needs TLS (--tls-cert and --tls-key). It prints a pairing link and " +
	"its QR code: the link works once, for five minutes, and makes the browser that opens it a paired device (a cookie; " +
	"elicit keeps only its hash). elicit inbox pair prints a new link; elicit inbox devices lists and revokes devices. " +
	"Permissions are shown with their full command or diff, and answered from the page only with --web-permissions. " +
	"It runs until interrupted (exit 0); exit 2 for a command line or an address elicit will not serve on."

// inboxWeb are the web inbox's flags.
type inboxWeb struct {
	on              bool // --web, on `elicit inbox`
	listen          string
	tlsCert, tlsKey string
	allowHosts      []string
	url             string
	permissions     bool
}

// addInboxWebFlags adds the web inbox's flags to fs.
func addInboxWebFlags(fs *pflag.FlagSet, w *inboxWeb) {
	fs.StringVar(&w.listen, "listen", "127.0.0.1:0", "the `ADDR` to serve the page on (host:port; not loopback: TLS only)")
	fs.StringVar(&w.tlsCert, "tls-cert", "", "serve https:// with this certificate `FILE`")
	fs.StringVar(&w.tlsKey, "tls-key", "", "the certificate's key `FILE`")
	fs.StringSliceVar(&w.allowHosts, "allow-host", nil, "take requests that reach the page by `NAME` (a proxy's, besides loopback and localhost)")
	fs.StringVar(&w.url, "url", "", "the page's address for the phone when a proxy serves it (`URL`, such as https://box.tailnet.ts.net/)")
	fs.BoolVar(&w.permissions, "web-permissions", false, "answer permissions from the page too (otherwise it says to answer them at a terminal)")
}

// webFlagWithoutWeb names a web flag given to `elicit inbox` without
// --web, "" when there is none.
func webFlagWithoutWeb(cmd *cobra.Command, w *inboxWeb) string {
	if w.on {
		return ""
	}
	for _, name := range []string{"listen", "tls-cert", "tls-key", "allow-host", "url", "web-permissions"} {
		if cmd.Flags().Changed(name) {
			return name
		}
	}
	return ""
}

// newInboxWebCommand is `elicit inbox web`, which `elicit inbox --web`
// also runs.
func newInboxWebCommand(a *app, o *inboxOptions) *cobra.Command {
	var w inboxWeb
	cmd := &cobra.Command{
		Use:   "web",
		Short: "Answer from your phone: the inbox as a paired web page",
		Long:  inboxWebLong,
		Example: `
# On the computer; then scan the code, or open the link, on the phone:
elicit inbox web

# On a laptop or a phone's SSH app: the machine that runs the agents
# serves it, the tunnel brings it here, the link it prints works here
ssh -t -L 8600:127.0.0.1:8600 box elicit inbox web --listen 127.0.0.1:8600

# Behind tailscale serve, answering permissions too:
elicit inbox web --listen 127.0.0.1:8600 --url https://box.tailnet.ts.net/ --web-permissions`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return a.runInboxWeb(o, w) },
	}
	addInboxWebFlags(cmd.Flags(), &w)
	return cmd
}

// runInboxWeb serves the page until interrupted.
func (a *app) runInboxWeb(o *inboxOptions, w inboxWeb) error {
	io, err := o.options()
	if err != nil {
		return err
	}
	errOut := textOut(a.stderr)
	srv, err := web.Start(web.Options{Inbox: io, Listen: w.listen, TLSCert: w.tlsCert, TLSKey: w.tlsKey, AllowHosts: w.allowHosts,
		URL: w.url, Permissions: w.permissions, StateDir: history.DefaultDir(),
		Log: func(msg string) { fmt.Fprintln(errOut, "elicit inbox:", sanitize.Line(msg)) }})
	var bad *web.OptionError
	switch {
	case errors.As(err, &bad):
		return usagef("%v", err)
	case err != nil:
		fmt.Fprintln(errOut, "elicit inbox:", sanitize.Line(err.Error()))
		return a.exit(exitFailed)
	}
	defer srv.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(errOut, "elicit inbox: the web inbox is at %s (Ctrl-C stops it)\n", srv.URL())
	if !w.permissions {
		fmt.Fprintln(errOut, "elicit inbox: permissions are shown there, and answered at a terminal (--web-permissions answers them there too)")
	}
	link, exp := srv.PairURL()
	a.printPairing(link, exp)
	<-ctx.Done()
	fmt.Fprintln(errOut, "elicit inbox: the web inbox stopped")
	return a.exit(exitOK)
}

// printPairing prints a pairing link, and its QR code on a terminal.
func (a *app) printPairing(link string, exp time.Time) {
	out := textOut(a.stdout)
	fmt.Fprintf(out, "Pair a phone or browser: open this link there, or scan the code (it works once, until %s):\n%s\n",
		exp.Local().Format("15:04"), link)
	if !isTerminal(a.stdout) {
		return
	}
	lines, err := urlconsent.QRCode(link, noColor())
	if err != nil {
		return
	}
	qr := styledOut(a.stdout)
	for _, l := range lines {
		fmt.Fprintln(qr, l)
	}
}

// newInboxPairCommand is `elicit inbox pair`.
func newInboxPairCommand(a *app) *cobra.Command {
	var pid int
	cmd := &cobra.Command{
		Use:   "pair",
		Short: "Print a new pairing link for the running web inbox",
		Long: "Asks the running web inbox (elicit inbox web, over a socket only you can reach) for a new pairing link and " +
			"prints it with its QR code. The link works once, for five minutes: the browser that opens it first becomes a " +
			"paired device. Exit status 1 when no web inbox runs.",
		Example: `
elicit inbox pair
elicit inbox pair --pid 4242   # when several web inboxes run`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := inbox.Dir()
			if err == nil {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				var link string
				var exp time.Time
				if link, exp, err = web.Pair(ctx, dir, pid); err == nil {
					a.printPairing(link, exp)
					return a.exit(exitOK)
				}
			}
			fmt.Fprintln(textOut(a.stderr), "elicit inbox pair:", sanitize.Line(err.Error()))
			return a.exit(exitFailed)
		},
	}
	cmd.Flags().IntVar(&pid, "pid", 0, "the web inbox of process `PID`, when several run")
	return cmd
}

// newInboxDevicesCommand is `elicit inbox devices`.
func newInboxDevicesCommand(a *app) *cobra.Command {
	var revoke string
	cmd := &cobra.Command{
		Use:   "devices",
		Short: "List the browsers paired with the web inbox, or revoke one",
		Long: "Lists the browsers paired with the web inbox (id, what they are, when paired), from $XDG_STATE_HOME/elicit/" +
			web.DevicesFile + ", which holds only a hash of each device's secret. --revoke ID unpairs one: its cookie opens " +
			"nothing from then on, and a running web inbox ends its live channel at once.",
		Example: `
elicit inbox devices
elicit inbox devices --revoke 3f9a01c2`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			d := web.NewDevices(history.DefaultDir())
			errOut := textOut(a.stderr)
			if revoke != "" {
				dev, err := d.Revoke(revoke)
				if err != nil {
					fmt.Fprintln(errOut, "elicit inbox devices:", sanitize.Line(err.Error()))
					return a.exit(exitFailed)
				}
				if dir, err := inbox.Dir(); err == nil {
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					web.Revoked(ctx, dir)
					cancel()
				}
				fmt.Fprintf(textOut(a.stdout), "revoked %s (%s): it opens nothing now\n", dev.ID, sanitize.Line(dev.Name))
				return a.exit(exitOK)
			}
			list, err := d.List()
			if err != nil {
				fmt.Fprintln(errOut, "elicit inbox devices:", sanitize.Line(err.Error()))
				return a.exit(exitFailed)
			}
			writeDevices(textOut(a.stdout), list)
			return a.exit(exitOK)
		},
	}
	cmd.Flags().StringVar(&revoke, "revoke", "", "unpair the device `ID`")
	return cmd
}

func writeDevices(w io.Writer, list []web.Device) {
	if len(list) == 0 {
		fmt.Fprintln(w, "No browser is paired. elicit inbox web prints a pairing link.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tDEVICE\tPAIRED")
	for _, d := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", sanitize.Line(d.ID), sanitize.Line(d.Name), d.Paired.Local().Format("2006-01-02 15:04"))
	}
	tw.Flush()
}
