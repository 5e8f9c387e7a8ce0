package bench

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Machine describes where the figures were measured.
type Machine struct {
	CPUs      int    `json:"cpus"`
	CPUModel  string `json:"cpu_model"`
	MemoryMiB int    `json:"memory_mib"`
	GoVersion string `json:"go_version"`
	// LoadAverage is the 1-minute load when the run started: the machine may
	// be shared.
	LoadAverage float64 `json:"load_average"`
}

// ThisMachine reads nproc, the CPU model, MemTotal, the Go version and the load.
func ThisMachine() Machine {
	m := Machine{CPUs: runtime.NumCPU(), GoVersion: runtime.Version()}
	m.CPUModel = procField("/proc/cpuinfo", "model name", ":")
	if f := strings.Fields(procField("/proc/meminfo", "MemTotal", ":")); len(f) > 0 {
		kb, _ := strconv.Atoi(f[0])
		m.MemoryMiB = kb / 1024
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 0 {
			m.LoadAverage, _ = strconv.ParseFloat(f[0], 64)
		}
	}
	return m
}

// procField returns the value of the first "name<sep> value" line.
func procField(path, name, sep string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), sep)
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
