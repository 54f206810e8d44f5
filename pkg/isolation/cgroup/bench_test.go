package cgroup

import (
	"fmt"
	"os"
	"testing"

	"github.com/loamhpc/loam/pkg/isolation"
)

// BenchmarkCreateDelete is the per-job cgroup cost: create with limits,
// kill (empty) and delete.
func BenchmarkCreateDelete(b *testing.B) {
	if os.Geteuid() != 0 {
		b.Skip("needs root")
	}
	v, err := NewV1("")
	if err != nil {
		b.Skip(err)
	}
	base := fmt.Sprintf("loam-test/%d", os.Getpid())
	for i := 0; b.Loop(); i++ {
		g, err := v.Create(isolation.Spec{Name: fmt.Sprintf("%s/job_%d", base, i), CPUs: "0-1", MemoryBytes: 1 << 30, PidsMax: 1000})
		if err != nil {
			b.Fatal(err)
		}
		if err := g.Kill(); err != nil {
			b.Fatal(err)
		}
		if err := g.Delete(); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range v.fs.Controllers() {
		_ = os.Remove(fmt.Sprintf("%s/%s/%s", v.fs.Root(), c, base))
		_ = os.Remove(fmt.Sprintf("%s/%s/loam-test", v.fs.Root(), c))
	}
}
