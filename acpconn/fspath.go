package acpconn

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// openedRel is the path of the opened file f relative to dir (the session
// directory, symlinks resolved): where a write through rel really lands.
// Linux names an open file in /proc/self/fd, which no swap of a symlink
// after the open can change; elsewhere the path is resolved again, which a
// swap in between can fool.
func openedRel(f *os.File, dir, rel string) string {
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil || !filepath.IsAbs(real) {
		real, err = filepath.EvalSymlinks(filepath.Join(dir, rel))
		if err != nil {
			return rel
		}
	}
	if r, err := filepath.Rel(dir, real); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return rel
}
