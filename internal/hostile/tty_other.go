//go:build !linux

package hostile

// TTYReport is what AttackTTY managed (see tty_linux.go).
type TTYReport struct {
	Open, Write, TIOCSTI, Foreground string
	Through                          bool
}

// AttackTTY is implemented on Linux only.
func AttackTTY(string) TTYReport {
	return TTYReport{Open: "not tried", Write: "not tried", TIOCSTI: "not tried", Foreground: "not tried"}
}
