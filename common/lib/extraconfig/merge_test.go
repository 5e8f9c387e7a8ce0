package extraconfig

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/c5c3/openstack-operators/common/lib/ini"
)

func TestMerge(t *testing.T) {
	tests := []struct {
		name     string
		defaults ini.File
		extra    map[string]map[string]string
		want     ini.File
	}{
		{name: "both nil", want: ini.File{}},
		{
			name:     "no extra copies defaults",
			defaults: ini.File{"DEFAULT": {"debug": "false"}},
			want:     ini.File{"DEFAULT": {"debug": "false"}},
		},
		{
			name:     "user wins, keeps other defaults, adds sections and keys",
			defaults: ini.File{"DEFAULT": {"debug": "false", "use_stderr": "true"}, "api": {"auth_strategy": "keystone"}},
			extra:    map[string]map[string]string{"DEFAULT": {"debug": "true", "log_dir": "/x"}, "cors": {"allowed_origin": "*"}},
			want: ini.File{
				"DEFAULT": {"debug": "true", "use_stderr": "true", "log_dir": "/x"},
				"api":     {"auth_strategy": "keystone"},
				"cors":    {"allowed_origin": "*"},
			},
		},
		{
			name:     "names compared verbatim",
			defaults: ini.File{"DEFAULT": {"debug": "false"}},
			extra:    map[string]map[string]string{"default": {"Debug": "true"}},
			want:     ini.File{"DEFAULT": {"debug": "false"}, "default": {"Debug": "true"}},
		},
		{
			name:  "empty extra section is kept",
			extra: map[string]map[string]string{"placement": {}},
			want:  ini.File{"placement": {}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defaultsBefore := deepCopy(tt.defaults)
			extraBefore := deepCopy(tt.extra)
			got := Merge(tt.defaults, tt.extra)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Merge mismatch (-want +got):\n%s", diff)
			}
			// Writing to the result must not reach either input.
			for _, kv := range got {
				kv["mutated"] = "yes"
			}
			if diff := cmp.Diff(defaultsBefore, tt.defaults); diff != "" {
				t.Errorf("defaults mutated:\n%s", diff)
			}
			if diff := cmp.Diff(extraBefore, tt.extra); diff != "" {
				t.Errorf("extra mutated:\n%s", diff)
			}
		})
	}
}

func deepCopy[M ~map[string]map[string]string](m M) M {
	if m == nil {
		return nil
	}
	out := make(M, len(m))
	for s, kv := range m {
		out[s] = make(map[string]string, len(kv))
		for k, v := range kv {
			out[s][k] = v
		}
	}
	return out
}
