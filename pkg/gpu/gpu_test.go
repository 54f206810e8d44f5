package gpu_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/gpu"
	"github.com/loamhpc/loam/pkg/gpu/gputest"
)

func TestFirst(t *testing.T) {
	h100 := gputest.H100(2, "/dev")
	tests := map[string]struct {
		ds          []gpu.Discoverer
		wantSource  string
		wantN       int
		wantSkipped []string
	}{
		"first answer wins": {
			ds:         []gpu.Discoverer{&gputest.Static{Name: "a", Devices: h100}, &gputest.Static{Name: "b", Devices: gputest.H100(8, "/dev")}},
			wantSource: "a", wantN: 2,
		},
		"errors and empty answers fall through": {
			ds: []gpu.Discoverer{
				&gputest.Static{Name: "nvml", Err: errors.New("no driver")},
				&gputest.Static{Name: "gres.conf"},
				&gputest.Static{Name: "fake", Devices: h100},
			},
			wantSource: "fake", wantN: 2,
			wantSkipped: []string{"nvml: no driver", "gres.conf: no GPUs"},
		},
		"duplicate indices are refused": {
			ds:          []gpu.Discoverer{&gputest.Static{Name: "bad", Devices: []gpu.Device{{Index: 1}, {Index: 1}}}},
			wantSkipped: []string{"bad: duplicate GPU index 1"},
		},
		"nothing anywhere": {
			ds:          []gpu.Discoverer{&gputest.Static{Name: "x"}},
			wantSkipped: []string{"x: no GPUs"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := gpu.First(tc.ds...)
			if r.Source != tc.wantSource || len(r.Devices) != tc.wantN {
				t.Errorf("First = %s with %d GPUs, want %s with %d", r.Source, len(r.Devices), tc.wantSource, tc.wantN)
			}
			if diff := cmp.Diff(tc.wantSkipped, r.Skipped); diff != "" {
				t.Errorf("Skipped (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFirstSortsByIndex(t *testing.T) {
	r := gpu.First(&gputest.Static{Devices: []gpu.Device{{Index: 2}, {Index: 0}, {Index: 1}}})
	var got []int
	for _, d := range r.Devices {
		got = append(got, d.Index)
	}
	if diff := cmp.Diff([]int{0, 1, 2}, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestByIndex(t *testing.T) {
	devs := gputest.H100(4, "/dev")
	got, err := gpu.ByIndex(devs, []int{3, 1})
	if err != nil || len(got) != 2 || got[0].Path != "/dev/nvidia3" || got[1].Path != "/dev/nvidia1" {
		t.Fatalf("ByIndex = %+v, %v", got, err)
	}
	if _, err := gpu.ByIndex(devs, []int{7}); err == nil || !strings.Contains(err.Error(), "GPU index 7") {
		t.Errorf("ByIndex(7) error = %v, want it named", err)
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "nvidia0")
	if err := os.WriteFile(regular, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		files   gpu.Files
		wantErr string
		wantN   int
	}{
		"real character devices": {files: gpu.Files{{Index: 0, Path: "/dev/null", Model: "x"}, {Index: 1, Path: "/dev/zero"}}, wantN: 2},
		"missing file":           {files: gpu.Files{{Index: 0, Path: filepath.Join(dir, "nope")}}, wantErr: "no such file"},
		"regular file":           {files: gpu.Files{{Index: 0, Path: regular}}, wantErr: "not a character device"},
		"none configured":        {},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			devs, err := tc.files.Discover()
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Discover error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(devs) != tc.wantN {
				t.Fatalf("Discover = %v, %v; want %d devices", devs, err, tc.wantN)
			}
		})
	}
}

func TestFakeCreatesDeviceNodes(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mknod of character devices needs root")
	}
	dir := filepath.Join(t.TempDir(), "dev")
	f := gpu.Fake{Node: "gpu01", Count: 3, Model: "h100", Dir: dir}
	devs, err := f.Discover()
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range devs {
		maj, mnr, err := gpu.CharDevice(d.Path)
		if err != nil || maj != gpu.NvidiaMajor || int(mnr) != i {
			t.Errorf("GPU %d: %s is %d:%d (%v), want %d:%d", i, d.Path, maj, mnr, err, gpu.NvidiaMajor, i)
		}
		if d.UUID != gpu.FakeUUID("gpu01", i) || d.MemoryMB != gpu.DefaultFakeMemoryMB || d.Model != "h100" {
			t.Errorf("GPU %d = %+v", i, d)
		}
	}
	// A second discovery finds the nodes in place.
	if _, err := f.Discover(); err != nil {
		t.Fatalf("second Discover: %v", err)
	}
	// A file of the wrong kind in the way is an error, not overwritten.
	if err := os.Remove(devs[1].Path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(devs[1].Path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Discover(); err == nil || !strings.Contains(err.Error(), "not a character device") {
		t.Errorf("Discover over a regular file: %v", err)
	}
}

func TestFakeUUIDs(t *testing.T) {
	a, b := gpu.FakeUUID("gpu01", 0), gpu.FakeUUID("gpu02", 0)
	if a == b || a != gpu.FakeUUID("gpu01", 0) || len(a) != len("GPU-8f6c2ae3-1d2b-4c3e-9a1f-0123456789ab") {
		t.Errorf("FakeUUID: %q %q", a, b)
	}
	if _, err := (gpu.Fake{Count: -1}).Discover(); err == nil {
		t.Error("negative count accepted")
	}
}
