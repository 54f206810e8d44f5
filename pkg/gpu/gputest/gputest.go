package gputest

import (
	"fmt"

	"github.com/loamhpc/loam/pkg/gpu"
)

// Static is a Discoverer that returns fixed devices, or Err.
type Static struct {
	Name    string
	Devices []gpu.Device
	Err     error
}

var _ gpu.Discoverer = (*Static)(nil)

// Discover implements gpu.Discoverer.
func (s *Static) Discover() ([]gpu.Device, error) {
	if s.Err != nil {
		return nil, s.Err
	}
	return append([]gpu.Device(nil), s.Devices...), nil
}

// Source implements gpu.Discoverer.
func (s *Static) Source() string {
	if s.Name == "" {
		return "static"
	}
	return s.Name
}

// H100 returns n devices shaped like a DGX H100's GPUs, with device files
// under dir ("/dev" for real paths).
func H100(n int, dir string) []gpu.Device {
	out := make([]gpu.Device, n)
	for i := range out {
		out[i] = gpu.Device{
			Index:    i,
			UUID:     fmt.Sprintf("GPU-00000000-0000-0000-0000-%012d", i),
			Model:    "NVIDIA H100 80GB HBM3",
			MemoryMB: 81559,
			Path:     fmt.Sprintf("%s/nvidia%d", dir, i),
		}
	}
	return out
}
