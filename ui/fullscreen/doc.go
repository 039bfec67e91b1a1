// Package fullscreen is elicit's full-screen front end, its one root
// bubbletea model: the transcript, the prompt, the modal queue
// (permissions, forms, URL consent) and the pending URL flows, over the
// session core and an acpconn connection.
//
//	m := fullscreen.New(fullscreen.Options{Agent: acpconn.Config{Argv: argv}})
//	_, err := tea.NewProgram(m).Run()
package fullscreen
