// Package nvml discovers GPUs through NVIDIA's management library, over
// go-nvml's nvml.Interface so tests run against go-nvml's mocks (the DGX
// H100 server in nvml/mock/dgxh100).
//
// The one rule this package exists to keep: when Init fails (no driver, no
// libnvidia-ml.so), nothing else of NVML is called. With go-nvml v0.13.4-1
// a device call after a failed Init aborts the whole process with a symbol
// lookup error that recover cannot catch; Discover returns
// ErrUnavailable instead, and the caller falls back to gres.conf or fake
// GPUs. This is the only package of Loam that links cgo for NVML, and only
// the node daemon imports it.
package nvml
