package resource

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseGRES(t *testing.T) {
	tests := map[string]struct {
		in   string
		want []GRES
	}{
		"name alone is one":            {in: "gpu", want: []GRES{{Name: "gpu", Count: 1}}},
		"name and count":               {in: "gpu:8", want: []GRES{{Name: "gpu", Count: 8}}},
		"name, type and count":         {in: "gpu:h100:8", want: []GRES{{Name: "gpu", Type: "h100", Count: 8}}},
		"type keeps its case":          {in: "gpu:H100:1", want: []GRES{{Name: "gpu", Type: "H100", Count: 1}}},
		"a word after the name a type": {in: "gpu:h100", want: []GRES{{Name: "gpu", Type: "h100", Count: 1}}},
		"list":                         {in: "gpu:2,nic:1", want: []GRES{{Name: "gpu", Count: 2}, {Name: "nic", Count: 1}}},
		"gres: prefix as Slurm prints": {in: "gres:gpu:2,gres:nic:1", want: []GRES{{Name: "gpu", Count: 2}, {Name: "nic", Count: 1}}},
		"a GRES named gres":            {in: "gres", want: []GRES{{Name: "gres", Count: 1}}},
		"zero count":                   {in: "gpu:0", want: []GRES{{Name: "gpu", Count: 0}}},
		"count with a K suffix":        {in: "bandwidth:10k", want: []GRES{{Name: "bandwidth", Count: 10240}}},
		"numeric type with a count":    {in: "gpu:1:1", want: []GRES{{Name: "gpu", Type: "1", Count: 1}}},
		"none is empty":                {in: "None", want: nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseGRES(tc.in)
			if err != nil {
				t.Fatalf("ParseGRES(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseGRES(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestParseGRESRejects(t *testing.T) {
	tests := map[string]struct {
		in        string
		wantInErr string
	}{
		"empty":                {in: "", wantInErr: "empty"},
		"empty item":           {in: "gpu:1,", wantInErr: "empty name"},
		"empty name":           {in: ":2", wantInErr: "empty name"},
		"empty count":          {in: "gpu:", wantInErr: `"gpu:" has an empty count`},
		"empty type":           {in: "gpu::2", wantInErr: "empty type"},
		"count before type":    {in: "gpu:2:h100", wantInErr: `count "h100" is not a number`},
		"four fields":          {in: "gpu:a:b:1", wantInErr: "more than name:type:count"},
		"slash":                {in: "gpu/2", wantInErr: `name "gpu/2" has '/'`},
		"count with letters":   {in: "gpu:2x", wantInErr: `count "2x" has an unknown suffix`},
		"negative count":       {in: "gpu:h100:-1", wantInErr: `count "-1" is not a number`},
		"blank":                {in: "gpu:2 ", wantInErr: "unknown suffix"},
		"count overflow":       {in: "gpu:99999999999P", wantInErr: "too large"},
		"error names the list": {in: "gpu:2x,nic", wantInErr: `invalid generic resource (gres) specification "gpu:2x,nic"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseGRES(tc.in)
			if err == nil {
				t.Fatalf("ParseGRES(%q) = %v, want an error", tc.in, got)
			}
			if !errors.Is(err, ErrInvalidGRES) || !strings.Contains(err.Error(), tc.wantInErr) {
				t.Errorf("ParseGRES(%q) error %q, want ErrInvalidGRES containing %q", tc.in, err, tc.wantInErr)
			}
		})
	}
}

func TestParseGPUs(t *testing.T) {
	tests := map[string]struct {
		in        string
		want      []GRES
		wantInErr string
	}{
		"count":             {in: "8", want: []GRES{{Name: "gpu", Count: 8}}},
		"type and count":    {in: "h100:4", want: []GRES{{Name: "gpu", Type: "h100", Count: 4}}},
		"type alone is one": {in: "h100", want: []GRES{{Name: "gpu", Type: "h100", Count: 1}}},
		"list of types": {in: "h100:2,a100:1", want: []GRES{
			{Name: "gpu", Type: "h100", Count: 2}, {Name: "gpu", Type: "a100", Count: 1}}},
		"empty":           {in: "", wantInErr: "empty"},
		"name:type:count": {in: "gpu:h100:2", wantInErr: "more than type:count"},
		"bad count":       {in: "2x", wantInErr: "unknown suffix"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseGPUs(tc.in)
			if tc.wantInErr != "" {
				if err == nil || !errors.Is(err, ErrInvalidGRES) || !strings.Contains(err.Error(), tc.wantInErr) {
					t.Fatalf("ParseGPUs(%q) = %v, %v; want ErrInvalidGRES containing %q", tc.in, got, err, tc.wantInErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseGPUs(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseGPUs(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestCheckTypes(t *testing.T) {
	mixed := []GRES{{Name: "gpu", Count: 1}, {Name: "gpu", Type: "h100", Count: 1}}
	if err := CheckTypes(mixed); err == nil || !strings.Contains(err.Error(), "with and without type") {
		t.Errorf("CheckTypes(%v) = %v, want the with-and-without-type error", mixed, err)
	}
	fine := []GRES{{Name: "gpu", Type: "a100", Count: 1}, {Name: "gpu", Type: "h100", Count: 1}, {Name: "nic", Count: 1}}
	if err := CheckTypes(fine); err != nil {
		t.Errorf("CheckTypes(%v) = %v", fine, err)
	}
}

func TestFormatGRES(t *testing.T) {
	list := []GRES{{Name: "gpu", Type: "H100", Count: 8}, {Name: "nic", Count: 1}}
	if got, want := FormatGRES(list), "gpu:H100:8,nic:1"; got != want {
		t.Errorf("FormatGRES = %q, want %q", got, want)
	}
	if got, want := FormatTRESPer(list), "gres:gpu:H100:8,gres:nic:1"; got != want {
		t.Errorf("FormatTRESPer = %q, want %q", got, want)
	}
	if got := FormatGRES(nil); got != "" {
		t.Errorf("FormatGRES(nil) = %q, want empty", got)
	}
}
