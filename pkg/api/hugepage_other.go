//go:build !linux

package api

// adviseHuge does nothing where transparent huge pages do not exist.
func adviseHuge[T any](s []T) {}
