package urlconsent

import (
	tea "charm.land/bubbletea/v2"
)

// Copying through the terminal (OSC 52) cannot be confirmed as such: a
// terminal that refuses clipboard writes (many do by default, or only
// allow them after asking) says nothing. The only evidence there is comes
// from reading the clipboard back (OSC 52 query, tea.ReadClipboard), which
// terminals allow even more rarely; when the content read back is the URL,
// the copy certainly worked. Otherwise the honest message is copyUnconfirmed.

// copyUnconfirmed is what to tell the user after copyCmd until a
// ClipboardMsg confirms it.
const copyUnconfirmed = "sent the URL to the terminal's clipboard (OSC 52); it may have been blocked: the terminal did not confirm it"

// copyConfirmed is what to tell the user once copyConfirms is true.
const copyConfirmed = "URL copied to the clipboard (the terminal confirms it)"

// copyCmd writes url to the system clipboard through the terminal (OSC
// 52), then asks the terminal to read the clipboard back: a terminal that
// allows it answers with a tea.ClipboardMsg (see copyConfirms); one that
// does not answers nothing.
func copyCmd(url string) tea.Cmd {
	return tea.Sequence(tea.SetClipboard(url), tea.ReadClipboard)
}

// copyConfirms reports whether msg, the terminal's answer to copyCmd's
// read-back, shows the clipboard holds url.
func copyConfirms(msg tea.ClipboardMsg, url string) bool {
	return msg.Content == url
}
