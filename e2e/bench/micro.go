package bench

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// MicroResult is one Go micro-benchmark.
type MicroResult struct {
	// Name is <package path>.<Benchmark name without the -GOMAXPROCS suffix>.
	Name        string  `json:"name"`
	NsPerOp     float64 `json:"ns_per_op"`
	BytesPerOp  float64 `json:"bytes_per_op"`
	AllocsPerOp float64 `json:"allocs_per_op"`
}

// ParseMicro reads `go test -bench . -benchmem` output of one or more
// packages; a benchmark run several times (-count) keeps its fastest run.
func ParseMicro(r io.Reader) ([]MicroResult, error) {
	var (
		out  []MicroResult
		pkg  string
		seen = map[string]int{}
	)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimSpace(p)
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		res := MicroResult{Name: shortPackage(pkg) + "." + name}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				res.NsPerOp = v
			case "B/op":
				res.BytesPerOp = v
			case "allocs/op":
				res.AllocsPerOp = v
			}
		}
		if j, ok := seen[res.Name]; ok {
			if res.NsPerOp < out[j].NsPerOp {
				out[j] = res
			}
			continue
		}
		seen[res.Name] = len(out)
		out = append(out, res)
	}
	return out, sc.Err()
}

// shortPackage drops the module prefix the suite's packages share.
func shortPackage(pkg string) string {
	return strings.TrimPrefix(pkg, "github.com/c5c3/openstack-operators/")
}
