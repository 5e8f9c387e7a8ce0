package bench

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

// MemorySample is the operator's memory at one moment, after a collection.
type MemorySample struct {
	// HeapInuseBytes is runtime.MemStats.HeapInuse after runtime.GC.
	HeapInuseBytes uint64 `json:"heap_inuse_bytes"`
	// HeapAllocBytes is the live heap after runtime.GC.
	HeapAllocBytes uint64 `json:"heap_alloc_bytes"`
	// RSSBytes is VmRSS after the free pages went back to the OS.
	RSSBytes uint64 `json:"rss_bytes"`
}

// sampleMemory collects garbage, returns free pages to the OS and reads the
// process's heap and RSS, so two samples differ by what is live, not by when
// the collector last ran.
func sampleMemory() (MemorySample, error) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss, err := vmRSS("/proc/self/status")
	if err != nil {
		return MemorySample{}, err
	}
	return MemorySample{HeapInuseBytes: ms.HeapInuse, HeapAllocBytes: ms.HeapAlloc, RSSBytes: rss}, nil
}

// vmRSS reads the VmRSS line (in kB) of a /proc/<pid>/status file.
func vmRSS(path string) (uint64, error) {
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

// procStat is what the harness reads of /proc/<pid>/stat.
type procStat struct {
	comm       string
	ppid       int
	cpuSeconds float64 // utime + stime
}

// clockTicks is USER_HZ, 100 on every Linux architecture Go supports.
const clockTicks = 100

func readProcStat(pid int) (procStat, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, err
	}
	return parseProcStat(string(b))
}

// parseProcStat parses "pid (comm) state ppid ... utime stime ...": comm may
// hold spaces and parentheses, so the fields count from the last ')'.
func parseProcStat(s string) (procStat, error) {
	open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || closing < open {
		return procStat{}, fmt.Errorf("malformed stat line %q", s)
	}
	f := strings.Fields(s[closing+1:])
	// After comm: state(0) ppid(1) ... utime(11) stime(12).
	if len(f) < 13 {
		return procStat{}, fmt.Errorf("short stat line %q", s)
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return procStat{}, fmt.Errorf("ppid: %w", err)
	}
	ut, err := strconv.ParseUint(f[11], 10, 64)
	if err != nil {
		return procStat{}, fmt.Errorf("utime: %w", err)
	}
	st, err := strconv.ParseUint(f[12], 10, 64)
	if err != nil {
		return procStat{}, fmt.Errorf("stime: %w", err)
	}
	return procStat{comm: s[open+1 : closing], ppid: ppid, cpuSeconds: float64(ut+st) / clockTicks}, nil
}

// processCPU is the CPU time of one process, in seconds.
func processCPU(pid int) (float64, error) {
	st, err := readProcStat(pid)
	if err != nil {
		return 0, err
	}
	return st.cpuSeconds, nil
}
