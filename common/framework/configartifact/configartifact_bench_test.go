package configartifact

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkHash hashes a config artefact the size of a rendered
// placement.conf plus a policy file: every pass of every CR hashes one.
func BenchmarkHash(b *testing.B) {
	data := map[string]string{
		"placement.conf": strings.Repeat("option_name = some-configured-value\n", 80),
		"policy.yaml":    strings.Repeat("\"placement:resource_providers:list\": \"role:reader\"\n", 30),
		"logging.conf":   strings.Repeat("[handler_stdout]\nclass = StreamHandler\n", 10),
	}
	for i := range 5 {
		data[fmt.Sprintf("extra-%d.conf", i)] = strings.Repeat("k = v\n", 20)
	}
	b.ReportAllocs()
	var h string
	for b.Loop() {
		h = Hash(data)
	}
	if len(h) != 64 {
		b.Fatalf("hash %q", h)
	}
}
