// Package isolationtest provides an in-memory isolation.Isolator for tests
// of code that confines processes: it records the specs it was asked for,
// the pids added and the signals sent, and lets a test set the OOM count.
// It confines nothing.
package isolationtest
