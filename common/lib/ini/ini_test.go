package ini

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestRenderGolden(t *testing.T) {
	tests := []struct {
		name string
		in   File
		want string
	}{
		{name: "nil", in: nil, want: ""},
		{
			name: "sorted sections and keys",
			in: File{
				"placement_database": {"max_retries": "-1", "connection_recycle_time": "300"},
				"api":                {"auth_strategy": "keystone"},
				"DEFAULT":            {"use_stderr": "true", "debug": "false"},
				"oslo_policy":        {},
				"cors":               {"allowed_origin": ""},
			},
			want: `[DEFAULT]
debug = false
use_stderr = true

[api]
auth_strategy = keystone

[cors]
allowed_origin =

[oslo_policy]

[placement_database]
connection_recycle_time = 300
max_retries = -1
`,
		},
		{
			name: "values kept verbatim",
			in: File{"DEFAULT": {
				"a": `x = y: z`,
				"b": `"half quoted`,
				"c": `'mixed"`,
				"d": "inner  spaces \u00e9",
				"e": "#not a comment",
			}},
			want: "[DEFAULT]\na = x = y: z\nb = \"half quoted\nc = 'mixed\"\nd = inner  spaces \u00e9\ne = #not a comment\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render(tt.in)
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Render mismatch (-want +got):\n%s", diff)
			}
			back, err := Parse(got)
			if err != nil {
				t.Fatalf("Parse(Render): %v", err)
			}
			if diff := cmp.Diff(tt.in, back, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("round trip mismatch (-in +parsed):\n%s", diff)
			}
		})
	}
}

func TestRenderRefuses(t *testing.T) {
	const secret = "s3cr3t"
	tests := []struct {
		name    string
		section string
		key     string
		value   string
	}{
		{name: "empty section", section: "", key: "k", value: "v"},
		{name: "section with ]", section: "a]b", key: "k", value: "v"},
		{name: "section leading space", section: " a", key: "k", value: "v"},
		{name: "section trailing nbsp", section: "a\u00a0", key: "k", value: "v"},
		{name: "section newline", section: "a\nb", key: "k", value: "v"},
		{name: "empty key", section: "s", key: "", value: "v"},
		{name: "key with =", section: "s", key: "a=b", value: "v"},
		{name: "key with :", section: "s", key: "a:b", value: "v"},
		{name: "key starts with #", section: "s", key: "#k", value: "v"},
		{name: "key starts with ;", section: "s", key: ";k", value: "v"},
		{name: "key starts with [", section: "s", key: "[k", value: "v"},
		{name: "key leading space", section: "s", key: " k", value: "v"},
		{name: "key trailing space", section: "s", key: "k ", value: "v"},
		{name: "key tab", section: "s", key: "k\tx", value: "v"},
		{name: "key invalid utf8", section: "s", key: "k\xff", value: "v"},
		{name: "value LF", section: "s", key: "k", value: secret + "\ninjected = 1"},
		{name: "value CR", section: "s", key: "k", value: secret + "\r"},
		{name: "value TAB", section: "s", key: "k", value: secret + "\tx"},
		{name: "value NUL", section: "s", key: "k", value: secret + "\x00"},
		{name: "value DEL", section: "s", key: "k", value: secret + "\x7f"},
		{name: "value leading space", section: "s", key: "k", value: " " + secret},
		{name: "value trailing ideographic space", section: "s", key: "k", value: secret + "\u3000"},
		{name: "value double quoted", section: "s", key: "k", value: `"` + secret + `"`},
		{name: "value single quoted", section: "s", key: "k", value: `'` + secret + `'`},
		{name: "value empty quotes", section: "s", key: "k", value: `""`},
		{name: "value lone quote", section: "s", key: "k", value: `"`},
		{name: "value lone apostrophe", section: "s", key: "k", value: `'`},
		{name: "value invalid utf8", section: "s", key: "k", value: secret + "\xc3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := File{"DEFAULT": {"ok": "fine"}, tt.section: {tt.key: tt.value}}
			out, err := Render(f)
			if err == nil {
				t.Fatalf("Render succeeded:\n%s", out)
			}
			if !errors.Is(err, ErrUnsafe) {
				t.Errorf("error %v does not wrap ErrUnsafe", err)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error leaks the value: %v", err)
			}
		})
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    File
		wantErr string
	}{
		{
			name: "oslo syntax",
			in: "# leading comment\n[DEFAULT]\n; other comment\na = 1\nb: 2\nc=x:y\nd:x=y\n" +
				"e = \"quoted\"\nf = 'single'\ng = \"\n" +
				// An indented assignment is a continuation of the previous value.
				"h =\n  spaced = out  \n\n[s]\nk = v\r\n" +
				"multi = first\n  second\n\tthird\n[s]\nk = last wins\n[empty]\n",
			want: File{
				"DEFAULT": {"a": "1", "b": "2", "c": "x:y", "d": "x=y", "e": "quoted", "f": "single", "g": "", "h": "\nspaced = out"},
				"s":       {"k": "last wins", "multi": "first\nsecond\nthird"},
				"empty":   {},
			},
		},
		{name: "CR line endings", in: "[s]\ra = 1\r", want: File{"s": {"a": "1"}}},
		{name: "empty input", in: "", want: File{}},
		{name: "key outside section", in: "a = 1\n", wantErr: "outside a section"},
		{name: "no separator", in: "[s]\njust words\n", wantErr: "line 2"},
		{name: "empty key", in: "[s]\n= v\n", wantErr: "empty key"},
		{name: "unclosed section", in: "[s\n", wantErr: "closing"},
		{name: "empty section", in: "[]\n", wantErr: "empty section"},
		{name: "orphan continuation", in: "[s]\n  more\n", wantErr: "continuation"},
		{name: "continuation after blank", in: "[s]\na = 1\n\n  more\n", wantErr: "continuation"},
		{name: "continuation after comment", in: "[s]\na = 1\n# c\n  more\n", wantErr: "continuation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse error = %v, want containing %q (got %v)", err, tt.wantErr, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// pythonSpace is the set of code points for which CPython's str.isspace is
// true; oslo's strip calls use that set.
var pythonSpace = []rune{
	0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
	0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
	0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
}

func TestIsSpaceMatchesPython(t *testing.T) {
	want := map[rune]bool{}
	for _, r := range pythonSpace {
		want[r] = true
	}
	for r := rune(0); r <= 0x10ffff; r++ {
		if isSpace(r) != want[r] {
			t.Errorf("isSpace(%U) = %v, want %v", r, isSpace(r), want[r])
		}
	}
}

func FuzzRenderRoundTrip(f *testing.F) {
	f.Add("DEFAULT", "debug", "true", "api", "auth_strategy", "keystone")
	f.Add("DEFAULT", "a", "", "DEFAULT", "b", "x = y")
	f.Add("s", "k", "\"quoted\"", "t", "k", "v\nw")
	f.Add("s]", "k", "v", "t", " k", "v ")
	f.Add("s", "k", "'", "t", "#k", "v")
	f.Add("s", "k\r", "v", "t", "k", "\u00a0v")
	f.Add("s", "k", "\x02", "s", "k", "v")
	f.Add("glance.store.rbd.store", "rbd_store_pool", "images", "s", "k", "a'b\"c")
	f.Fuzz(func(t *testing.T, s1, k1, v1, s2, k2, v2 string) {
		in := File{}
		for _, e := range [][3]string{{s1, k1, v1}, {s2, k2, v2}} {
			if in[e[0]] == nil {
				in[e[0]] = map[string]string{}
			}
			in[e[0]][e[1]] = e[2]
		}
		out, err := Render(in)
		// Check only what survived into the File: a repeated section/key
		// pair overwrites the first value.
		var all strings.Builder
		for s, kv := range in {
			all.WriteString(s)
			for k, v := range kv {
				all.WriteString(k + v)
			}
		}
		if strings.ContainsFunc(all.String(), isControl) {
			if err == nil {
				t.Fatalf("Render accepted a control character:\n%q", out)
			}
			return
		}
		if err != nil {
			return
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(Render()) failed: %v\n%q", err, out)
		}
		if diff := cmp.Diff(in, back); diff != "" {
			t.Fatalf("round trip mismatch (-in +parsed):\n%s\nrendered:\n%q", diff, out)
		}
	})
}
