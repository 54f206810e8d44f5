package resource

import (
	"errors"
	"strings"
	"testing"
)

func TestParseMemory(t *testing.T) {
	tests := map[string]struct {
		in   string
		want int64
	}{
		"bare number is megabytes":     {in: "512000", want: 512000},
		"lower-case g":                 {in: "16g", want: 16 * 1024},
		"trailing Gb":                  {in: "100Gb", want: 100 * 1024},
		"megabytes with m":             {in: "1875m", want: 1875},
		"terabytes":                    {in: "2T", want: 2 << 20},
		"kilobytes round up":           {in: "1025K", want: 2},
		"one kilobyte is one megabyte": {in: "1k", want: 1},
		"zero means all of the memory": {in: "0", want: 0},
		"zero kilobytes stay zero":     {in: "0K", want: 0},
		"minus zero is zero":           {in: "-0", want: 0},
		"leading blanks as strtoll":    {in: "\t 16G", want: 16 * 1024},
		"plus sign as strtoll":         {in: "+16", want: 16},
		"leading zeros":                {in: "016", want: 16},
		"largest terabytes that fit":   {in: "8796093022207T", want: 8796093022207 << 20},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseMemory(tc.in)
			if err != nil {
				t.Fatalf("ParseMemory(%q): %v", tc.in, err)
			}
			if got != tc.want {
				t.Errorf("ParseMemory(%q) = %d, want %d", tc.in, got, tc.want)
			}
		})
	}
}

func TestParseMemoryRejects(t *testing.T) {
	tests := map[string]struct {
		in        string
		wantInErr string
	}{
		"empty":                 {in: "", wantInErr: "no number"},
		"fraction":              {in: "1.5G", wantInErr: `unknown unit ".5G"`},
		"peta is not accepted":  {in: "2P", wantInErr: `unknown unit "P"`},
		"binary prefix":         {in: "16GiB", wantInErr: `unknown unit "GiB"`},
		"b without a unit":      {in: "16b", wantInErr: `unknown unit "b"`},
		"trailing blank":        {in: "16G ", wantInErr: `unknown unit "G "`},
		"negative":              {in: "-1", wantInErr: "negative"},
		"unit only":             {in: "G", wantInErr: "no number"},
		"overflow in digits":    {in: "99999999999999999999", wantInErr: "too large"},
		"overflow in the unit":  {in: "8796093022208T", wantInErr: "too large"},
		"error names the input": {in: "16X", wantInErr: `invalid memory specification "16X"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseMemory(tc.in)
			if err == nil {
				t.Fatalf("ParseMemory(%q) = %d, want an error", tc.in, got)
			}
			if !errors.Is(err, ErrInvalidMemory) || !strings.Contains(err.Error(), tc.wantInErr) {
				t.Errorf("ParseMemory(%q) error %q, want ErrInvalidMemory containing %q", tc.in, err, tc.wantInErr)
			}
		})
	}
}

func TestFormatMemory(t *testing.T) {
	tests := map[string]struct {
		mb       int64
		want     string
		wantTRES string
	}{
		"zero":                              {mb: 0, want: "0", wantTRES: "0"},
		"one megabyte":                      {mb: 1, want: "1M", wantTRES: "1M"},
		"not a multiple of 512 stays in M":  {mb: 1280, want: "1280M", wantTRES: "1280M"},
		"whole gigabytes":                   {mb: 16384, want: "16G", wantTRES: "16G"},
		"half gigabytes keep two decimals":  {mb: 1536, want: "1.50G", wantTRES: "1.50G"},
		"node memory of the peer":           {mb: 512000, want: "500G", wantTRES: "500G"},
		"one and a half terabytes":          {mb: 1572864, want: "1.50T", wantTRES: "1.50T"},
		"beyond peta Slurm prints ?":        {mb: 1 << 53, want: "8?", wantTRES: "8?"},
		"float precision loss in scontrol":  {mb: 999999999999, want: "976562496G", wantTRES: "999999999999M"},
		"float rounding up to a power of 2": {mb: 4294967294, want: "4P", wantTRES: "4294967294M"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := FormatMemory(tc.mb); got != tc.want {
				t.Errorf("FormatMemory(%d) = %q, want %q", tc.mb, got, tc.want)
			}
			if got := FormatTRESMemory(tc.mb); got != tc.wantTRES {
				t.Errorf("FormatTRESMemory(%d) = %q, want %q", tc.mb, got, tc.wantTRES)
			}
		})
	}
}

// TestFormatSize: sacct's and sstat's sizes in bytes, as sacct prints
// them on the peer ("1264K" for an RSS of 1294336 bytes), with Slurm's
// '?' beyond peta.
func TestFormatSize(t *testing.T) {
	tests := map[string]struct {
		bytes int64
		want  string
	}{
		"zero":                      {0, "0"},
		"bytes below a KiB":         {1000, "1000"},
		"an RSS in KiB":             {1294336, "1264K"},
		"exact MiB":                 {50 << 20, "50M"},
		"half a unit is exact":      {3 << 19, "1.50M"},
		"inexact stays in the unit": {16961320 << 10, "16961320K"},
		"GiB":                       {2 << 30, "2G"},
		"beyond peta":               {1 << 60, "1?"},
	}
	for name, tc := range tests {
		if got := FormatSize(tc.bytes); got != tc.want {
			t.Errorf("%s: FormatSize(%d) = %q, want %q", name, tc.bytes, got, tc.want)
		}
	}
}
