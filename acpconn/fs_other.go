//go:build !unix

package acpconn

import "io/fs"

const openNonblock = 0

func linkCount(fs.FileInfo) uint64 { return 1 }
