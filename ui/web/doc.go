// Package web is the inbox as a web page for a phone: the questions every
// running elicit of the user waits on (package ahp/inbox), a page to
// answer them, and a live channel (a WebSocket) that keeps the page
// current, on one port, loopback unless served over TLS. A browser pairs
// once, with a one-time link (five minutes; its token in the URL's
// fragment) traded for a per-device cookie of which only a hash is kept;
// every request checks the cookie, the Host and the Origin. The page's
// files are embedded and hand-written (assets/); agents' text reaches it
// as JSON and becomes text, never HTML, under a strict Content-Security-
// Policy.
//
//	s, err := web.Start(web.Options{StateDir: dir})
//	defer s.Close()
//	link, expires := s.PairURL() // print it, and its QR code
package web
