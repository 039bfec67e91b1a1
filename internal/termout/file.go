package termout

import "os"

// File is a Writer over a terminal's *os.File that is still a terminal to
// whoever asks: bubbletea and colorprofile look for Fd (term.File) to read
// the window size, set raw mode and detect colours, so a plain wrapper
// would make them treat the screen as a pipe.
type File struct {
	*Writer
	f *os.File
}

// NewFile returns a File that filters what is written to f by policy.
//
//	tea.NewProgram(m, tea.WithOutput(termout.NewFile(os.Stdout, termout.Screen)))
func NewFile(f *os.File, policy Policy) *File {
	return &File{Writer: New(f, policy), f: f}
}

// Fd returns the file descriptor of the underlying file.
func (f *File) Fd() uintptr { return f.f.Fd() }

// Read reads from the underlying file (term.File asks for it; nothing is
// filtered on the way in).
func (f *File) Read(p []byte) (int, error) { return f.f.Read(p) }

// Close closes the underlying file.
func (f *File) Close() error { return f.f.Close() }
