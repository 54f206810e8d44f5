package resource

import (
	"slices"
	"testing"
)

// FuzzParseMemory checks that no input panics and that printing a size and
// reading it back stays within Slurm's half-unit precision.
func FuzzParseMemory(f *testing.F) {
	for _, s := range []string{"16g", "100Gb", "1875m", "0", "1025K", "1.5G", "-0", " +16", "8796093022208T", "16GiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		mb, err := ParseMemory(s)
		if err != nil {
			return
		}
		if mb < 0 {
			t.Fatalf("ParseMemory(%q) = %d, negative", s, mb)
		}
		_ = FormatMemory(mb)
		back, err := ParseTRES("mem=" + FormatTRESMemory(mb))
		if err != nil {
			t.Fatalf("ParseTRES(mem=%s): %v", FormatTRESMemory(mb), err)
		}
		if diff := back.Get(TRESMem) - mb; diff > mb/256 || -diff > mb/256 {
			t.Fatalf("%d MB printed as %s reads back as %d", mb, FormatTRESMemory(mb), back.Get(TRESMem))
		}
	})
}

// FuzzParseGRES checks that no input panics and that FormatGRES and
// FormatTRESPer print lists that parse back to the same GRES.
func FuzzParseGRES(f *testing.F) {
	for _, s := range []string{"gpu", "gpu:8", "gpu:h100:8", "gpu:2,nic:1", "gres:gpu:2", "none", "gpu::2", "gpu:1k", ":", ","} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) ([]GRES, error){ParseGRES, ParseGPUs} {
			list, err := parse(s)
			if err != nil || len(list) == 0 {
				continue
			}
			_ = CheckTypes(list)
			for _, printed := range []string{FormatGRES(list), FormatTRESPer(list)} {
				back, err := ParseGRES(printed)
				if err != nil || !slices.Equal(back, list) {
					t.Fatalf("%q parsed as %v, printed %q, read back %v, %v", s, list, printed, back, err)
				}
			}
		}
	})
}

// FuzzParseTRES checks that no input panics and that String prints what
// ParseTRES reads back (memory to Slurm's half-unit precision).
func FuzzParseTRES(f *testing.F) {
	for _, s := range []string{"cpu=2,mem=2G,node=1,billing=2", "gres/gpu=8,cpu=4", "mem=1.50G", "cpu=1,cpu=2", "mem=1e9", "="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := ParseTRES(s)
		if err != nil {
			return
		}
		back, err := ParseTRES(tr.String())
		if err != nil || len(back) != len(tr) {
			t.Fatalf("ParseTRES(%q).String() = %q reads back as %v, %v", s, tr.String(), back, err)
		}
		for i := range tr {
			a, b := tr[i], back[i]
			if a.Name != b.Name || !isMemoryTRES(a.Name) && a.Count != b.Count {
				t.Fatalf("ParseTRES(%q) = %v, read back as %v", s, tr, back)
			}
		}
	})
}
