package nvml

import (
	"errors"
	"fmt"

	gonvml "github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/loamhpc/loam/pkg/gpu"
)

// ErrUnavailable is returned when NVML cannot be initialised (no driver or
// no library); the wrapped text says why.
var ErrUnavailable = errors.New("nvml unavailable")

// Discoverer finds GPUs with NVML.
type Discoverer struct {
	lib gonvml.Interface
}

var _ gpu.Discoverer = (*Discoverer)(nil)

// New returns a discoverer over lib: gonvml.New() for the real library, or
// a mock such as dgxh100.New().
func New(lib gonvml.Interface) *Discoverer { return &Discoverer{lib: lib} }

// System returns a discoverer over the system's NVML library.
func System() *Discoverer { return New(gonvml.New()) }

// Source implements gpu.Discoverer.
func (*Discoverer) Source() string { return "nvml" }

// Discover implements gpu.Discoverer. It initialises NVML, reads every
// device and shuts NVML down again; a failed Init returns ErrUnavailable
// without touching NVML again.
func (d *Discoverer) Discover() (devs []gpu.Device, err error) {
	if ret := d.lib.Init(); ret != gonvml.SUCCESS {
		// Only the Return's own text: it does not call into the library.
		return nil, fmt.Errorf("%w: init: %s", ErrUnavailable, ret.Error())
	}
	defer func() {
		if ret := d.lib.Shutdown(); ret != gonvml.SUCCESS && err == nil {
			err = fmt.Errorf("nvml shutdown: %s", ret.Error())
		}
	}()
	n, ret := d.lib.DeviceGetCount()
	if ret != gonvml.SUCCESS {
		return nil, fmt.Errorf("nvml device count: %s", ret.Error())
	}
	for i := range n {
		dev, err := d.device(i)
		if err != nil {
			return nil, err
		}
		devs = append(devs, dev)
	}
	return devs, nil
}

// device reads GPU i: its index, UUID, name, memory and minor number (the
// N of /dev/nvidiaN).
func (d *Discoverer) device(i int) (gpu.Device, error) {
	h, ret := d.lib.DeviceGetHandleByIndex(i)
	if ret != gonvml.SUCCESS {
		return gpu.Device{}, fmt.Errorf("nvml device %d: handle: %s", i, ret.Error())
	}
	uuid, ret := h.GetUUID()
	if ret != gonvml.SUCCESS {
		return gpu.Device{}, fmt.Errorf("nvml device %d: uuid: %s", i, ret.Error())
	}
	name, ret := h.GetName()
	if ret != gonvml.SUCCESS {
		return gpu.Device{}, fmt.Errorf("nvml device %d: name: %s", i, ret.Error())
	}
	mem, ret := h.GetMemoryInfo()
	if ret != gonvml.SUCCESS {
		return gpu.Device{}, fmt.Errorf("nvml device %d: memory: %s", i, ret.Error())
	}
	minor, ret := h.GetMinorNumber()
	if ret != gonvml.SUCCESS {
		return gpu.Device{}, fmt.Errorf("nvml device %d: minor number: %s", i, ret.Error())
	}
	return gpu.Device{
		Index:    i,
		UUID:     uuid,
		Model:    name,
		MemoryMB: int64(mem.Total >> 20),
		Path:     fmt.Sprintf("/dev/nvidia%d", minor),
	}, nil
}
