//go:build !race

package acpconn

// raceFactor is how much more memory the race detector makes a test use.
const raceFactor = 1
