package procgroup

import (
	"bytes"
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// proc is one process as /proc/PID/stat shows it.
type proc struct {
	pid, ppid, pgid, sid int
	state                byte
	start                uint64 // start time in clock ticks after boot: with pid, the process's identity
}

// running reports whether the process runs anything: a zombie (Z) or a
// dead one (X) does not.
func (p proc) running() bool { return p.state != 'Z' && p.state != 'X' }

// table is a snapshot of every process this user can see, by pid.
type table struct {
	procs    map[int]proc
	children map[int][]int
}

// readTable reads /proc once. A process that ends meanwhile is left out.
// The kernel has no call that lists processes (hand-written for that).
func readTable() (*table, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	t := &table{procs: make(map[int]proc, len(names)), children: map[int][]int{}}
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		p, ok := readStat(n)
		if !ok {
			continue
		}
		t.procs[p.pid] = p
		t.children[p.ppid] = append(t.children[p.ppid], p.pid)
	}
	return t, nil
}

// readStat parses /proc/PID/stat: "pid (comm) state ppid pgrp session ...
// starttime(22nd)". comm may hold spaces and parentheses: the fields
// start after the last ')'.
func readStat(pid string) (proc, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return proc{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return proc{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 || len(f[0]) != 1 {
		return proc{}, false
	}
	p := proc{state: f[0][0]}
	var errs [5]error
	p.pid, errs[0] = strconv.Atoi(pid)
	p.ppid, errs[1] = strconv.Atoi(string(f[1]))
	p.pgid, errs[2] = strconv.Atoi(string(f[2]))
	p.sid, errs[3] = strconv.Atoi(string(f[3]))
	p.start, errs[4] = strconv.ParseUint(string(f[19]), 10, 64)
	return p, errors.Join(errs[:]...) == nil
}

// descendants adds to set every descendant of the processes already in it.
func (t *table) descendants(set map[int]bool) {
	queue := make([]int, 0, len(set))
	for pid := range set {
		queue = append(queue, pid)
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range t.children[pid] {
			if !set[c] {
				set[c] = true
				queue = append(queue, c)
			}
		}
	}
}

// signalProc sends sig to p, and only to p: through a pidfd, opened and then
// checked against p's start time, so a pid reused since the snapshot is
// never signalled. Where pidfds are missing (Linux before 5.3) it falls
// back to kill(2).
func signalProc(p proc, sig unix.Signal) {
	fd, err := unix.PidfdOpen(p.pid, 0)
	if errors.Is(err, unix.ENOSYS) {
		_ = unix.Kill(p.pid, sig)
		return
	}
	if err != nil {
		return // gone
	}
	defer unix.Close(fd)
	now, ok := readStat(strconv.Itoa(p.pid))
	if !ok || now.start != p.start {
		return // ended, and its pid taken by another process
	}
	_ = unix.PidfdSendSignal(fd, sig, nil, 0)
}

// maxSweepRounds bounds how often sweep looks again for processes started
// while it stopped the others (a fork bomb would keep it looking).
const maxSweepRounds = 20

// sweep signals a set of processes that may be starting more: it stops
// (SIGSTOP) every process find lists, and looks again until no new one
// appears (a stopped process starts none), so none escapes by forking
// between a look and the signal, nor by losing its parent to the signal;
// then it sends sig to all of them and to those in seen that still run,
// and SIGCONT, so a stopped process acts on a SIGTERM. seen gains every
// process sweep signalled.
func sweep(find func(*table) []proc, sig unix.Signal, seen map[int]proc) {
	for round := 0; round < maxSweepRounds; round++ {
		t, err := readTable()
		if err != nil {
			return
		}
		found := false
		for _, p := range find(t) {
			if old, ok := seen[p.pid]; ok && old.start == p.start {
				continue
			}
			seen[p.pid], found = p, true
			signalProc(p, unix.SIGSTOP)
		}
		if !found {
			break
		}
	}
	for _, p := range seen {
		signalProc(p, sig)
		if sig != unix.SIGKILL {
			signalProc(p, unix.SIGCONT)
		}
	}
}

// anyRunning reports whether a process of seen still runs.
func (t *table) anyRunning(seen map[int]proc) bool {
	for _, p := range seen {
		if now, ok := t.procs[p.pid]; ok && now.start == p.start && now.running() {
			return true
		}
	}
	return false
}
