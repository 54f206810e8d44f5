package gpu

import (
	"errors"
	"fmt"
	"slices"
)

// Device is one GPU of a node.
type Device struct {
	// Index is the GPU's index on the node, as CUDA_VISIBLE_DEVICES and
	// gres.conf count them (the NVML minor number for real GPUs).
	Index int
	// UUID is NVML's GPU UUID ("GPU-8f6c..."), or a stable made-up one.
	UUID string
	// Model is the product name ("NVIDIA H100 80GB HBM3") or gres.conf type.
	Model string
	// MemoryMB is the GPU's memory; 0 when unknown.
	MemoryMB int64
	// Path is the device file ("/dev/nvidia3") that cgroup rules name.
	Path string
}

// Discoverer finds GPUs. Source names it in logs and reasons ("nvml").
type Discoverer interface {
	Discover() ([]Device, error)
	Source() string
}

// Result is what First found and why the discoverers before it did not
// answer.
type Result struct {
	Devices []Device
	// Source is the discoverer that found Devices; empty when none did.
	Source string
	// Skipped explains, in order, each discoverer that found nothing or
	// failed ("nvml: library not found").
	Skipped []string
}

// First asks each discoverer in order and returns the first non-empty
// answer. Failures are not fatal: they are recorded in Skipped and the next
// discoverer is asked. Devices are checked (unique indices) and sorted.
func First(ds ...Discoverer) Result {
	var r Result
	for _, d := range ds {
		devs, err := d.Discover()
		if err == nil && len(devs) > 0 {
			err = Check(devs)
		}
		switch {
		case err != nil:
			r.Skipped = append(r.Skipped, fmt.Sprintf("%s: %v", d.Source(), err))
		case len(devs) == 0:
			r.Skipped = append(r.Skipped, d.Source()+": no GPUs")
		default:
			r.Devices = sorted(devs)
			r.Source = d.Source()
			return r
		}
	}
	return r
}

// ErrDuplicateIndex is returned by Check for two devices with one index.
var ErrDuplicateIndex = errors.New("duplicate GPU index")

// Check verifies that device indices are unique and not negative.
func Check(devs []Device) error {
	seen := map[int]bool{}
	for _, d := range devs {
		if d.Index < 0 {
			return fmt.Errorf("GPU index %d is negative", d.Index)
		}
		if seen[d.Index] {
			return fmt.Errorf("%w %d", ErrDuplicateIndex, d.Index)
		}
		seen[d.Index] = true
	}
	return nil
}

func sorted(devs []Device) []Device {
	out := slices.Clone(devs)
	slices.SortFunc(out, func(a, b Device) int { return a.Index - b.Index })
	return out
}

// ByIndex returns the devices with the given indices, in the order asked,
// or an error naming the first index the node does not have.
func ByIndex(devs []Device, indices []int) ([]Device, error) {
	out := make([]Device, 0, len(indices))
	for _, i := range indices {
		j := slices.IndexFunc(devs, func(d Device) bool { return d.Index == i })
		if j < 0 {
			return nil, fmt.Errorf("GPU index %d is not on this node (it has %d GPUs)", i, len(devs))
		}
		out = append(out, devs[j])
	}
	return out, nil
}
