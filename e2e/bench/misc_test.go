package bench

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestVersionsChanges(t *testing.T) {
	before := Versions{"Secret a/x": "1", "Secret a/y": "2", "Deployment a/d": "3"}
	after := Versions{"Secret a/x": "1", "Secret a/y": "5", "ConfigMap a/c": "6"}
	want := []string{"created ConfigMap a/c", "deleted Deployment a/d", "written Secret a/y"}
	if got := before.Changes(after); !slices.Equal(got, want) {
		t.Errorf("Changes = %v, want %v", got, want)
	}
	if got := before.Changes(before); len(got) != 0 {
		t.Errorf("no change: %v", got)
	}
}

func TestParseProcStat(t *testing.T) {
	// comm with a space and a parenthesis; utime 250, stime 50 ticks.
	line := "4242 (kube-apiserver (x)) S 17 4242 17 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 12 0 100 1000 200"
	st, err := parseProcStat(line)
	if err != nil {
		t.Fatal(err)
	}
	if st.comm != "kube-apiserver (x)" || st.ppid != 17 || st.cpuSeconds != 3 {
		t.Errorf("parsed %+v, want comm with parentheses, ppid 17, 3 CPU seconds", st)
	}
	for _, bad := range []string{"", "1 (x S 2", "1 (x) S 2 3"} {
		if _, err := parseProcStat(bad); err == nil {
			t.Errorf("%q parsed without error", bad)
		}
	}
	if cpu, err := processCPU(os.Getpid()); err != nil || cpu < 0 {
		t.Errorf("own CPU time %v, %v", cpu, err)
	}
}

func TestParseMicro(t *testing.T) {
	out := `goos: linux
pkg: github.com/c5c3/openstack-operators/common/lib/ini
cpu: AMD EPYC
BenchmarkRender-2   	   96470	     12308 ns/op	    5248 B/op	      27 allocs/op
BenchmarkRender-2   	   96470	     11000 ns/op	    5248 B/op	      27 allocs/op
PASS
pkg: github.com/c5c3/openstack-operators/placement-operator/internal/render
BenchmarkDeployment   	  263294	      4444 ns/op	    8016 B/op	      61 allocs/op
ok  	github.com/c5c3/openstack-operators/common/lib/ini	1.194s
`
	got, err := ParseMicro(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []MicroResult{
		{Name: "common/lib/ini.BenchmarkRender", NsPerOp: 11000, BytesPerOp: 5248, AllocsPerOp: 27},
		{Name: "placement-operator/internal/render.BenchmarkDeployment", NsPerOp: 4444, BytesPerOp: 8016, AllocsPerOp: 61},
	}
	if !slices.Equal(got, want) {
		t.Errorf("ParseMicro = %+v, want %+v", got, want)
	}
}

func TestMachine(t *testing.T) {
	m := ThisMachine()
	if m.CPUs < 1 || m.GoVersion == "" || m.MemoryMiB <= 0 {
		t.Errorf("machine %+v lacks CPUs, Go version or memory", m)
	}
}
