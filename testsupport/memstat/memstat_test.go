package memstat

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestRSS(t *testing.T) {
	path := filepath.Join(t.TempDir(), "status")
	if err := os.WriteFile(path, []byte("Name:\tbench\nVmPeak:\t 1000 kB\nVmRSS:\t    2048 kB\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := RSS(path); err != nil || got != 2048*1024 {
		t.Errorf("RSS = %d, %v; want 2 MiB", got, err)
	}
	if err := os.WriteFile(path, []byte("Name:\tbench\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := RSS(path); err == nil {
		t.Error("missing VmRSS parsed without error")
	}
}

func TestTakeSeesAnAllocation(t *testing.T) {
	before, err := Take()
	if err != nil {
		t.Fatal(err)
	}
	keep := make([]byte, 64<<20)
	for i := range keep {
		keep[i] = 1
	}
	after, err := Take()
	if err != nil {
		t.Fatal(err)
	}
	if after.HeapInuseBytes < before.HeapInuseBytes+32<<20 || after.RSSBytes < before.RSSBytes+32<<20 {
		t.Errorf("64 MiB kept: heap %d → %d, RSS %d → %d", before.HeapInuseBytes, after.HeapInuseBytes, before.RSSBytes, after.RSSBytes)
	}
	runtime.KeepAlive(keep)
}
