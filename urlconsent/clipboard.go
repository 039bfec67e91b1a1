package urlconsent

import (
	tea "charm.land/bubbletea/v2"
)

// Copying through the terminal (OSC 52) cannot be confirmed as such: a
// terminal that refuses clipboard writes (many do by default, or only
// allow them after asking) says nothing. The only evidence there is comes
// from reading the clipboard back (OSC 52 query, tea.ReadClipboard), which
// terminals allow even more rarely; when the content read back is the URL,
// the copy certainly worked. Otherwise the honest message is CopyUnconfirmed.

// CopyUnconfirmed is what to tell the user after CopyCmd until a
// ClipboardMsg confirms it.
const CopyUnconfirmed = "sent the URL to the terminal's clipboard (OSC 52); it may have been blocked: the terminal did not confirm it"

// CopyConfirmed is what to tell the user once CopyConfirms is true.
const CopyConfirmed = "URL copied to the clipboard (the terminal confirms it)"

// CopyCmd writes url to the system clipboard through the terminal (OSC
// 52), then asks the terminal to read the clipboard back: a terminal that
// allows it answers with a tea.ClipboardMsg (see CopyConfirms); one that
// does not answers nothing.
func CopyCmd(url string) tea.Cmd {
	return tea.Sequence(tea.SetClipboard(url), tea.ReadClipboard)
}

// CopyConfirms reports whether msg, the terminal's answer to CopyCmd's
// read-back, shows the clipboard holds url.
func CopyConfirms(msg tea.ClipboardMsg, url string) bool {
	return msg.Content == url
}
