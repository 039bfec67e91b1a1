//go:build linux

// Command exitstat runs a command and prints what it cost, for
// bench/run.sh: its peak resident memory (VmHWM, read every 5 ms while
// it runs) and its own CPU time (utime+stime of all its threads, read from
// /proc once it has exited and before it is reaped, so its children, the
// agent, are not counted and nothing is missed at the end).
//
//	exitstat OUT CMD [ARG...]
//
// writes "HWM_KiB CPU_ms" to OUT and exits with CMD's status. The shell
// poller it replaces forked twice per sample and read the CPU last seen
// before the exit: up to a second stale on a busy machine.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: exitstat OUT CMD [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "exitstat:", err)
		os.Exit(127)
	}
	pid := cmd.Process.Pid
	hwm := make(chan int64, 1)
	stop := make(chan struct{})
	go func() { // the peak, sampled: VmHWM goes with the memory at exit
		var peak int64
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			if v := vmHWM(pid); v > peak {
				peak = v
			}
			select {
			case <-stop:
				hwm <- peak
				return
			case <-t.C:
			}
		}
	}()
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			break
		}
	}
	cpu := cpuMs(pid) // a zombie still: its threads' times are all there
	close(stop)
	peak := <-hwm
	_ = cmd.Wait()
	if err := os.WriteFile(os.Args[1], fmt.Appendf(nil, "%d %d\n", peak, cpu), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "exitstat:", err)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}

// vmHWM is pid's VmHWM in KiB, 0 when it has none (gone, or a zombie).
func vmHWM(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return n
		}
	}
	return 0
}

// cpuMs is pid's utime+stime in ms (fields 14 and 15 of /proc/PID/stat;
// its waited-for children's are 16 and 17, not counted).
func cpuMs(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := bytes.Fields(b[bytes.LastIndexByte(b, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(string(f[11]), 10, 64)
	s, _ := strconv.ParseInt(string(f[12]), 10, 64)
	return (u + s) * 1000 / 100 // USER_HZ is 100 on Linux
}
