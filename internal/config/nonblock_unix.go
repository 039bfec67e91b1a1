//go:build unix

package config

import "syscall"

// nonBlock opens a FIFO put in the config file's place without waiting.
const nonBlock = syscall.O_NONBLOCK
