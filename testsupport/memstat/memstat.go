// Package memstat reads the process's own memory the way the benchmarks
// compare it: after a collection with the free pages returned to the OS.
package memstat

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// Sample is the process's memory at one moment, after a collection.
type Sample struct {
	// HeapInuseBytes is runtime.MemStats.HeapInuse after runtime.GC.
	HeapInuseBytes uint64 `json:"heap_inuse_bytes"`
	// HeapAllocBytes is the live heap after runtime.GC.
	HeapAllocBytes uint64 `json:"heap_alloc_bytes"`
	// RSSBytes is VmRSS after the free pages went back to the OS.
	RSSBytes uint64 `json:"rss_bytes"`
}

// Take collects garbage, returns free pages to the OS and reads the
// process's heap and RSS, so two samples differ by what is live, not by when
// the collector last ran.
func Take() (Sample, error) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss, err := RSS("/proc/self/status")
	if err != nil {
		return Sample{}, err
	}
	return Sample{HeapInuseBytes: ms.HeapInuse, HeapAllocBytes: ms.HeapAlloc, RSSBytes: rss}, nil
}

// RSS reads the VmRSS line (in kB) of a /proc/<pid>/status file.
func RSS(path string) (uint64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("parsing VmRSS %q: %w", f[1], err)
			}
			return kb * 1024, nil
		}
	}
	return 0, fmt.Errorf("no VmRSS in %s", path)
}
