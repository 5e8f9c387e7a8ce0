package localsvc

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// clockTicks is the unit of the start times in /proc/<pid>/stat (USER_HZ,
// 100 on every Linux architecture the suites run on).
const clockTicks = 100

// bootTicks is the time since boot in clock ticks, the clock of a
// process's start time in /proc/<pid>/stat.
func bootTicks() uint64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts); err != nil {
		return 0
	}
	return uint64(ts.Sec)*clockTicks + uint64(ts.Nsec)/(1e9/clockTicks)
}

// groupMembers lists the processes of process group pgid that run (are not
// zombies) and, when before is not 0, started before it (clock ticks since
// boot; a process started in the tick of before is not counted, as a new
// group may take a freed ID within one tick).
func groupMembers(pgid int, before uint64) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []int
	for _, path := range stats {
		st, ok := readStat(path)
		if !ok || st.pgrp != pgid || st.state == 'Z' || st.state == 'X' || (before != 0 && st.start >= before) {
			continue
		}
		out = append(out, st.pid)
	}
	return out
}

// stat is what groupMembers reads of /proc/<pid>/stat.
type stat struct {
	pid, pgrp int
	state     byte
	start     uint64
}

// readStat parses /proc/<pid>/stat: the command (field 2) is in
// parentheses and may hold spaces, so the fields are counted from its
// closing one (state is field 3, pgrp 5, starttime 22); the pid is the
// directory's name.
func readStat(path string) (stat, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return stat{}, false
	}
	end := bytes.LastIndexByte(b, ')')
	if end < 0 {
		return stat{}, false
	}
	pid, err := strconv.Atoi(filepath.Base(filepath.Dir(path)))
	if err != nil {
		return stat{}, false
	}
	f := bytes.Fields(b[end+1:])
	if len(f) < 20 || len(f[0]) != 1 {
		return stat{}, false
	}
	pgrp, err1 := strconv.Atoi(string(f[2]))
	start, err2 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil {
		return stat{}, false
	}
	return stat{pid: pid, pgrp: pgrp, state: f[0][0], start: start}, true
}
