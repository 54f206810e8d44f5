package syserr

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"
)

func TestStrerror(t *testing.T) {
	tests := map[string]struct {
		err  error
		want string
	}{
		"a bare errno":                 {syscall.EACCES, "Permission denied"},
		"an errno inside a path error": {&fs.PathError{Op: "open", Path: "/x", Err: syscall.ENOENT}, "No such file or directory"},
		"a wrapped errno":              {fmt.Errorf("ioctl: %w", syscall.ENOTTY), "Inappropriate ioctl for device"},
		"no errno prints as it is":     {errors.New("lower case kept"), "lower case kept"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Strerror(tc.err); got != tc.want {
				t.Errorf("Strerror(%v) = %q, want %q", tc.err, got, tc.want)
			}
		})
	}
}
