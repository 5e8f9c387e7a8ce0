package workload

import (
	"slices"
	"testing"
)

func TestURLPorts(t *testing.T) {
	tests := []struct {
		name string
		urls []string
		want []int32
	}{
		{"none", nil, []int32{}},
		{"scheme defaults", []string{"https://bao.example.org", "http://bao.example.org/v1"}, []int32{80, 443}},
		{"explicit ports distinct and sorted", []string{"https://b:8200", "https://a:8200", "https://c:443", "HTTPS://d"}, []int32{443, 8200}},
		{"explicit port wins over the scheme", []string{"http://h:8443"}, []int32{8443}},
		{"explicit port of another scheme", []string{"tcp://h:9000"}, []int32{9000}},
		{"ipv6 host", []string{"https://[fd00::1]:8200"}, []int32{8200}},
		{"unusable entries open nothing", []string{"", "bao:8200", "https://", "https://h:0", "https://h:65536", "https://h:x", "ftp://h", "://h"}, []int32{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := URLPorts(tt.urls)
			if !slices.Equal(got, tt.want) {
				t.Errorf("URLPorts(%q) = %v, want %v", tt.urls, got, tt.want)
			}
		})
	}
}
