// Package inbox is where every running elicit publishes its waiting
// questions to its user, and how `elicit inbox` finds them: each session
// serves its AHP host on a Unix socket in a directory only the user can
// enter ($XDG_RUNTIME_DIR/elicit, else a private directory elicit makes
// and checks), and the inbox lists those sockets, connects to each as an
// AHP client (no token: the socket checks its peer's uid) and reads their
// open requests. Hosts elsewhere (--attach URL) join the same list.
//
//	pub, err := inbox.Publish(host, ahp.HandlerOptions{})   // a session: its questions, to the user alone
//	defer pub.Close()
//
//	items, problems := inbox.List(ctx, inbox.Options{})     // elicit inbox list
//	n, _ := inbox.Count(ctx, inbox.Options{})               // elicit inbox list --count
package inbox
