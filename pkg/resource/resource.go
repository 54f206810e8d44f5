// Package resource holds Slurm's resource vocabulary: memory sizes, GRES
// requests and TRES counts, with parsers and printers that match Slurm.
package resource

import "errors"

// ParseMemory parses a Slurm memory size ("16g", "100Gb", "1875m", "512000")
// into megabytes; a bare number is megabytes.
func ParseMemory(s string) (int64, error) {
	return 0, errors.New("resource: not implemented")
}

// FormatMemory prints megabytes as Slurm does ("16G", "1875M").
func FormatMemory(mb int64) string { return "" }

// GRES is one generic resource request or declaration: gpu, gpu:h100:8.
type GRES struct {
	Name  string // "gpu"
	Type  string // "h100"; empty when any type will do
	Count int64
}

// ParseGRES parses a comma-separated GRES list ("gpu:8", "gpu:h100:8,nic:1").
func ParseGRES(s string) ([]GRES, error) {
	return nil, errors.New("resource: not implemented")
}

// FormatGRES prints a GRES list the way Slurm prints TresPerNode / Gres.
func FormatGRES(list []GRES) string { return "" }
