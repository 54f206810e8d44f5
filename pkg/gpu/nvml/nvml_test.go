package nvml

import (
	"errors"
	"fmt"
	"os"
	"testing"

	gonvml "github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/dgxh100"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/server"
	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/gpu"
)

func TestDiscoverDGXH100(t *testing.T) {
	srv := dgxh100.New()
	shutdowns := 0
	shutdown := srv.ShutdownFunc
	srv.ShutdownFunc = func() gonvml.Return { shutdowns++; return shutdown() }

	got, err := New(srv).Discover()
	if err != nil {
		t.Fatal(err)
	}
	var want []gpu.Device
	for i, d := range srv.Devices {
		want = append(want, gpu.Device{
			Index:    i,
			UUID:     d.(*server.Device).UUID,
			Model:    "NVIDIA H100 80GB HBM3",
			MemoryMB: 81920,
			Path:     fmt.Sprintf("/dev/nvidia%d", i),
		})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("GPUs (-want +got):\n%s", diff)
	}
	if len(got) != 8 {
		t.Errorf("found %d GPUs, want 8", len(got))
	}
	if shutdowns != 1 {
		t.Errorf("Shutdown called %d times, want 1", shutdowns)
	}
}

// TestFailedInitTouchesNothingElse uses a mock whose every other function
// is unset: the mock panics if any is called, which is the property that
// keeps the real library from aborting the process.
func TestFailedInitTouchesNothingElse(t *testing.T) {
	tests := map[string]gonvml.Return{
		"no library":       gonvml.ERROR_LIBRARY_NOT_FOUND,
		"driver not found": gonvml.ERROR_DRIVER_NOT_LOADED,
		"no permission":    gonvml.ERROR_NO_PERMISSION,
	}
	for name, ret := range tests {
		t.Run(name, func(t *testing.T) {
			lib := &mock.Interface{InitFunc: func() gonvml.Return { return ret }}
			devs, err := New(lib).Discover()
			if !errors.Is(err, ErrUnavailable) {
				t.Fatalf("Discover error = %v, want ErrUnavailable", err)
			}
			if devs != nil {
				t.Errorf("Discover devices = %v, want none", devs)
			}
			if n := len(lib.InitCalls()); n != 1 {
				t.Errorf("Init called %d times, want 1", n)
			}
		})
	}
}

func TestDeviceErrorsAreReported(t *testing.T) {
	srv := dgxh100.New()
	dev := srv.Devices[3].(*server.Device)
	dev.GetUUIDFunc = func() (string, gonvml.Return) { return "", gonvml.ERROR_GPU_IS_LOST }
	_, err := New(srv).Discover()
	if err == nil || err.Error() != "nvml device 3: uuid: "+gonvml.ERROR_GPU_IS_LOST.Error() {
		t.Fatalf("Discover error = %v, want the lost GPU named", err)
	}
}

// TestFallbackToFake is the chain the node daemon builds: NVML fails, there
// is no gres.conf, the fake set answers.
func TestFallbackToFake(t *testing.T) {
	lib := &mock.Interface{InitFunc: func() gonvml.Return { return gonvml.ERROR_LIBRARY_NOT_FOUND }}
	r := gpu.First(New(lib), gpu.Files(nil), gpu.Fake{Node: "gpu01", Count: 2, Model: "h100"})
	if r.Source != "fake" || len(r.Devices) != 2 {
		t.Fatalf("First = %+v, want 2 fake GPUs", r)
	}
	want := []string{"nvml: nvml unavailable: init: ERROR_LIBRARY_NOT_FOUND", "gres.conf: no GPUs"}
	if diff := cmp.Diff(want, r.Skipped); diff != "" {
		t.Errorf("Skipped (-want +got):\n%s", diff)
	}
}

// TestSystemLibrary runs the real go-nvml against this machine. Without a
// driver Init fails and Discover must return ErrUnavailable (the process
// surviving is half the test); on a GPU machine it must find GPUs.
func TestSystemLibrary(t *testing.T) {
	devs, err := System().Discover()
	switch {
	case errors.Is(err, ErrUnavailable) && os.Getenv("LOAM_REQUIRE_GPU") != "":
		t.Fatalf("LOAM_REQUIRE_GPU is set but NVML is unavailable: %v", err)
	case errors.Is(err, ErrUnavailable):
		t.Logf("no NVML here: %v", err)
	case err != nil:
		t.Fatalf("Discover: %v", err)
	case len(devs) == 0:
		t.Fatal("NVML initialised but found no GPUs")
	default:
		t.Logf("found %d GPUs: %+v", len(devs), devs)
	}
}
