package bench

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/c5c3/openstack-operators/testsupport/memstat"
)

// MemorySample is the operator's memory at one moment, after a collection.
type MemorySample = memstat.Sample

// sampleMemory is the operator process's memory sample.
func sampleMemory() (MemorySample, error) { return memstat.Take() }

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
