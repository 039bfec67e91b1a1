package acpconn

import (
	"testing"
	"testing/synctest"
)

// waits reports whether take blocks, then lets it go on with the channel
// it answers on. It runs in a synctest bubble: synctest.Wait returns once
// take either returned or waits on the budget's condition.
func waits(b *budget, key string, w int64) (bool, chan bool) {
	done := make(chan bool, 1)
	go func() { done <- b.take(key, w) }()
	synctest.Wait()
	select {
	case ok := <-done:
		done <- ok
		return false, done
	default:
		return true, done
	}
}

func TestBudget(t *testing.T) { synctest.Test(t, testBudget) }

func testBudget(t *testing.T) {
	var b budget
	if !b.take("1", 1000) || !b.take("2", 2000) {
		t.Fatal("light writes wait")
	}
	if blocked, read := waits(&b, "3", readWeight); !blocked {
		t.Fatal("a read did not wait for the writes' answers")
	} else {
		b.answered("9") // not a request that took anything
		b.answered("1")
		b.answered("2")
		if !<-read {
			t.Fatal("the read was refused")
		}
	}
	blocked, write := waits(&b, "4", 1)
	if !blocked {
		t.Fatal("a write went with a read in flight")
	}
	b.answered("3")
	if !<-write {
		t.Fatal("the write was refused")
	}
	if blocked, heavy := waits(&b, "5", 10*maxFSWeight); !blocked {
		t.Fatal("a request heavier than the budget did not wait for an empty one")
	} else {
		b.answered("4")
		if !<-heavy {
			t.Fatal("a request heavier than the budget never went")
		}
	}
	blocked, closed := waits(&b, "6", 1)
	b.close()
	if !blocked || <-closed {
		t.Error("a wait went on after close")
	}
}
