//go:build !unix

package history

import "errors"

// lock is not implemented off Unix: history refuses to write rather than
// risk losing another process's write.
func lock(path string) (func(), error) {
	return nil, errors.ErrUnsupported
}
