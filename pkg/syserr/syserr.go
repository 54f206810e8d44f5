// Package syserr words system errors as the C library does, for the
// messages Loam copies from Slurm's daemons and commands ("Permission
// denied", "No such file or directory").
package syserr

import (
	"errors"
	"syscall"
)

// Strerror is the C library's strerror text for err's errno, with the
// capital letter C gives it; an error without an errno prints as it is.
func Strerror(err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	s := errno.Error()
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
