//go:build unix

package hostile

import (
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// escape starts a daemon (ScenarioDaemon) in a session of its own, as
// setsid(1) does, waits until it noted its pid (or died), and returns:
// when the caller then exits, the daemon has left its group and lost its
// parent.
func escape() {
	self, err := os.Executable()
	if err != nil {
		return
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), Scenario+"="+ScenarioDaemon)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() != nil {
		return
	}
	pid := strconv.Itoa(cmd.Process.Pid)
	died := make(chan struct{})
	go func() { _ = cmd.Wait(); close(died) }()
	for {
		b, _ := os.ReadFile(os.Getenv(ProcPids))
		if strings.Contains(" "+strings.Join(strings.Fields(string(b)), " ")+" ", " "+pid+" ") {
			return
		}
		select {
		case <-died:
			return // the test sees a pid missing
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// daemon ignores what would end it politely, notes its pid, and sleeps.
func daemon() {
	signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
	if f, err := os.OpenFile(os.Getenv(ProcPids), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600); err == nil {
		_, _ = f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
		f.Close()
	}
	for {
		time.Sleep(time.Hour)
	}
}
