// Package gputest provides static GPU discoverers for tests of code that
// consumes a gpu.Discoverer, in the style of go-nvml's DGX mocks.
package gputest
