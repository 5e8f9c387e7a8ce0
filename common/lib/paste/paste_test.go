package paste

import (
	"slices"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/ini"
)

func mw(name, pos string, conf map[string]string) serviceapi.MiddlewareSpec {
	return serviceapi.MiddlewareSpec{Name: name, FilterFactory: "pkg.mod:factory", Position: pos, Config: conf}
}

// Sections and sides follow the spec's order; '%' is doubled.
func TestMiddlewareSections(t *testing.T) {
	f := ini.File{}
	before, after, err := Middleware(f, []serviceapi.MiddlewareSpec{
		mw("a", serviceapi.MiddlewareBefore, map[string]string{"rate": "10%"}),
		mw("b", serviceapi.MiddlewareAfter, nil),
		mw("c", serviceapi.MiddlewareBefore, nil),
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
		mws  []serviceapi.MiddlewareSpec
		want string
	}{
		{[]serviceapi.MiddlewareSpec{mw("a", "middle", nil)}, "want before or after"},
		{[]serviceapi.MiddlewareSpec{mw("a b", serviceapi.MiddlewareBefore, nil)}, "needs a name"},
		{[]serviceapi.MiddlewareSpec{{Name: "a", Position: serviceapi.MiddlewareBefore}}, "needs a filterFactory"},
		{[]serviceapi.MiddlewareSpec{mw("own", serviceapi.MiddlewareAfter, nil)}, "reuses a name"},
		{[]serviceapi.MiddlewareSpec{mw("a", serviceapi.MiddlewareAfter, nil), mw("a", serviceapi.MiddlewareBefore, nil)}, "listed twice"},
		{[]serviceapi.MiddlewareSpec{mw("a", serviceapi.MiddlewareAfter, map[string]string{"use": "egg:x"})}, "would replace the filter factory"},
		{[]serviceapi.MiddlewareSpec{mw("a", serviceapi.MiddlewareAfter, map[string]string{"paste.filter_factory": "x"})}, "would replace the filter factory"},
	} {
		_, _, err := Middleware(ini.File{}, tc.mws, func(n string) bool { return n == "own" })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.mws, err, tc.want)
		}
	}
}
