package poll

import (
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"
)

func TestUntilReturnsOnceTheConditionHolds(t *testing.T) {
	calls := 0
	Until(t, time.Minute, func() error {
		calls++
		if calls < 3 {
			return errors.New("not yet")
		}
		return nil
	})
	if calls != 3 {
		t.Errorf("calls = %d, want 3", calls)
	}
}

func TestUntilFailsWithTheLastError(t *testing.T) {
	ft := &fakeT{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Until(ft, 10*time.Millisecond, func() error { return errors.New("still failing") })
	}()
	<-done
	if ft.msg == "" || !ft.failed {
		t.Fatalf("Until did not fail: %+v", ft)
	}
}

// fakeT records Fatalf; runtime.Goexit ends Until's goroutine as testing does.
type fakeT struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeT) Helper() {}

func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed, f.msg = true, format
	runtime.Goexit()
}

// A changing error is progress: the wait outlives its timeout while the
// state moves, and fails once it stops moving.
func TestUntilWaitsWhileTheStateMoves(t *testing.T) {
	calls := 0
	Until(t, 200*time.Millisecond, func() error {
		calls++
		if calls < 5 {
			return fmt.Errorf("step %d", calls)
		}
		return nil
	})
	ft := &fakeT{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		n := 0
		Until(ft, 300*time.Millisecond, func() error {
			n++
			if n < 3 {
				return fmt.Errorf("moving %d", n)
			}
			return errors.New("stuck")
		})
	}()
	<-done
	if !ft.failed {
		t.Fatal("a stuck wait did not fail")
	}
}
