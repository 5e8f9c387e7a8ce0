package paste

import (
	"slices"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/lib/ini"
)

func mw(name, pos string, conf map[string]string) shared.MiddlewareSpec {
	return shared.MiddlewareSpec{Name: name, FilterFactory: "pkg.mod:factory", Position: pos, Config: conf}
}

// Sections and sides follow the spec's order; '%' is doubled.
func TestMiddlewareSections(t *testing.T) {
	f := ini.File{}
	before, after, err := Middleware(f, []shared.MiddlewareSpec{
		mw("a", shared.MiddlewareBefore, map[string]string{"rate": "10%"}),
		mw("b", shared.MiddlewareAfter, nil),
		mw("c", shared.MiddlewareBefore, nil),
	}, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(before, []string{"a", "c"}) || !slices.Equal(after, []string{"b"}) {
		t.Errorf("before %v after %v", before, after)
	}
	if got := f["filter:a"]; got["paste.filter_factory"] != "pkg.mod:factory" || got["rate"] != "10%%" {
		t.Errorf("filter:a = %v", got)
	}
}

// Each refusal names the entry and why.
func TestMiddlewareRefusals(t *testing.T) {
	for _, tc := range []struct {
		mws  []shared.MiddlewareSpec
		want string
	}{
		{[]shared.MiddlewareSpec{mw("a", "middle", nil)}, "want before or after"},
		{[]shared.MiddlewareSpec{mw("a b", shared.MiddlewareBefore, nil)}, "needs a name"},
		{[]shared.MiddlewareSpec{{Name: "a", Position: shared.MiddlewareBefore}}, "needs a filterFactory"},
		{[]shared.MiddlewareSpec{mw("own", shared.MiddlewareAfter, nil)}, "reuses a name"},
		{[]shared.MiddlewareSpec{mw("a", shared.MiddlewareAfter, nil), mw("a", shared.MiddlewareBefore, nil)}, "listed twice"},
		{[]shared.MiddlewareSpec{mw("a", shared.MiddlewareAfter, map[string]string{"use": "egg:x"})}, "would replace the filter factory"},
		{[]shared.MiddlewareSpec{mw("a", shared.MiddlewareAfter, map[string]string{"paste.filter_factory": "x"})}, "would replace the filter factory"},
	} {
		_, _, err := Middleware(ini.File{}, tc.mws, func(n string) bool { return n == "own" })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.mws, err, tc.want)
		}
	}
}
