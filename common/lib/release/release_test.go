package release

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    Release
		wantErr bool
	}{
		{in: "2025.2", want: Release{Year: 2025, Minor: 2}},
		{in: "2026.1", want: Release{Year: 2026, Minor: 1}},
		{in: "2025.2-p1", want: Release{Year: 2025, Minor: 2, Suffix: "p1"}},
		{in: "2025.2-p1-rc.3", want: Release{Year: 2025, Minor: 2, Suffix: "p1-rc.3"}},
		{in: "2010.1", want: Release{Year: 2010, Minor: 1}},
		{in: "", wantErr: true},
		{in: "latest", wantErr: true},
		{in: "2025", wantErr: true},
		{in: "2025.", wantErr: true},
		{in: ".2", wantErr: true},
		{in: "2025.2.3", wantErr: true},
		{in: "2025.3", wantErr: true},
		{in: "2025.0", wantErr: true},
		{in: "2025.02", wantErr: true},
		{in: "2009.2", wantErr: true},
		{in: "0999.1", wantErr: true},
		{in: "20250.1", wantErr: true},
		{in: "+202.1", wantErr: true},
		{in: "２０２５.1", wantErr: true},
		{in: "2025.2-", wantErr: true},
		{in: "-2025.2", wantErr: true},
		{in: " 2025.2", wantErr: true},
		{in: "v2025.2", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("Parse(%q) = %+v, want error", tt.in, got)
				}
				if !errors.Is(err, ErrInvalid) {
					t.Errorf("Parse(%q) error %v does not wrap ErrInvalid", tt.in, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			if got.String() != tt.in {
				t.Errorf("String() = %q, want %q", got.String(), tt.in)
			}
		})
	}
}

func TestBaseNextCompare(t *testing.T) {
	tests := []struct {
		in      Release
		base    string
		next    Release
		cmpNext int
	}{
		{in: Release{Year: 2025, Minor: 1}, base: "2025.1", next: Release{Year: 2025, Minor: 2}, cmpNext: -1},
		{in: Release{Year: 2025, Minor: 2, Suffix: "x"}, base: "2025.2", next: Release{Year: 2026, Minor: 1}, cmpNext: -1},
	}
	for _, tt := range tests {
		t.Run(tt.base, func(t *testing.T) {
			if got := tt.in.Base(); got != tt.base {
				t.Errorf("Base() = %q, want %q", got, tt.base)
			}
			if got := tt.in.Next(); got != tt.next {
				t.Errorf("Next() = %+v, want %+v", got, tt.next)
			}
			if got := tt.in.Compare(tt.in.Next()); got != tt.cmpNext {
				t.Errorf("Compare(next) = %d, want %d", got, tt.cmpNext)
			}
			if got := tt.in.Next().Compare(tt.in); got != -tt.cmpNext {
				t.Errorf("next.Compare(r) = %d, want %d", got, -tt.cmpNext)
			}
			withSuffix := tt.in
			withSuffix.Suffix = "other"
			// Suffixes name builds of one release, so they never order releases.
			if got := tt.in.Compare(withSuffix); got != 0 {
				t.Errorf("Compare(same base, other suffix) = %d, want 0", got)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2025.2", "2026.1", "2025.2-p1", "latest", "2025", "2025.2.3", "2025.3", "", "9999.2-", "2010.1--"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err != nil {
			return
		}
		if r.Minor != 1 && r.Minor != 2 {
			t.Fatalf("Parse(%q) minor = %d", s, r.Minor)
		}
		if r.Year < minYear || r.Year > 9999 {
			t.Fatalf("Parse(%q) year = %d", s, r.Year)
		}
		if r.String() != s {
			t.Fatalf("Parse(%q).String() = %q", s, r.String())
		}
		if r.Suffix == "" && r.Base() != s {
			t.Fatalf("Parse(%q).Base() = %q", s, r.Base())
		}
		again, err := Parse(r.Base())
		if err != nil || again.Compare(r) != 0 || again.Suffix != "" {
			t.Fatalf("Parse(Base()) of %q = %+v, %v", s, again, err)
		}
	})
}
