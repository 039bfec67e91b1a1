// Package line is elicit's accessible front end: a session one line at a
// time, for screen readers, braille displays and plain terminals, where
// every question is asked as numbered or line-based prompts.
//
//	code := line.Run(line.Options{Agent: acpconn.Config{Argv: argv}, In: os.Stdin, Out: os.Stdout})
package line
