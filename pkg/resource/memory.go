package resource

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// ErrInvalidMemory is wrapped by every ParseMemory error; sbatch maps it to
// "Invalid --mem specification".
var ErrInvalidMemory = errors.New("invalid memory specification")

// memoryUnits maps a unit letter to its size in KiB.
var memoryUnits = map[byte]int64{'k': 1, 'm': 1 << 10, 'g': 1 << 20, 't': 1 << 30}

// ParseMemory parses a Slurm memory size ("16g", "100Gb", "1875m", "512000")
// into megabytes, as sbatch --mem does: a bare number is megabytes; K, M, G
// and T (either case) are powers of 1024, optionally followed by b or B;
// kilobytes round up to whole megabytes. Leading blanks and a sign are
// allowed as strtoll allows them; fractions ("1.5G"), other units and
// negative sizes are errors. Zero is valid: for --mem it asks for all the
// memory of each node.
func ParseMemory(s string) (int64, error) {
	v, err := parseMemory(s)
	if err != nil {
		return 0, fmt.Errorf("%w %q: %s", ErrInvalidMemory, s, err)
	}
	return v, nil
}

func parseMemory(s string) (int64, error) {
	rest := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if rest != "" && (rest[0] == '+' || rest[0] == '-') {
		neg = rest[0] == '-'
		rest = rest[1:]
	}
	n, rest, err := leadingNumber(rest)
	if err != nil {
		return 0, err
	}
	kib, err := unitKiB(rest)
	if err != nil {
		return 0, err
	}
	if neg && n != 0 {
		return 0, errors.New("negative size")
	}
	if kib == 1 { // kilobytes round up to whole megabytes
		return (n + 1023) / 1024, nil
	}
	mult := kib / 1024
	if n > math.MaxInt64/mult {
		return 0, errors.New("size too large")
	}
	return n * mult, nil
}

// leadingNumber splits the leading decimal digits off s.
func leadingNumber(s string) (int64, string, error) {
	i := 0
	var n int64
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		d := int64(s[i] - '0')
		if n > (math.MaxInt64-d)/10 {
			return 0, "", errors.New("size too large")
		}
		n = n*10 + d
	}
	if i == 0 {
		return 0, "", errors.New("no number")
	}
	return n, s[i:], nil
}

// unitKiB returns the size in KiB of a unit suffix: "" (megabytes), or K,
// M, G, T in either case optionally followed by b or B.
func unitKiB(suffix string) (int64, error) {
	if suffix == "" {
		return 1 << 10, nil
	}
	kib, ok := memoryUnits[lower(suffix[0])]
	if ok && (len(suffix) == 1 || len(suffix) == 2 && lower(suffix[1]) == 'b') {
		return kib, nil
	}
	return 0, fmt.Errorf("unknown unit %q (want K, M, G or T)", suffix)
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// FormatMemory prints megabytes as scontrol prints MinMemoryNode and
// MinMemoryCPU: in the largest unit that keeps the value exact to half a
// unit ("16G", "1875M", "1.50G", "500G"), and "0" for zero. Slurm converts
// the value to a C float first, so sizes above 16 TiB lose precision
// exactly as they do in Slurm (999999999999 prints "976562496G").
func FormatMemory(mb int64) string {
	return convertNumUnit(float64(float32(mb)), unitMega)
}

// FormatCount prints a plain count as sinfo prints CPUs and job sizes:
// the same conversion from no unit ("1K", "1.50K", "1023"), through a C
// float as in Slurm.
func FormatCount(n int64) string {
	return convertNumUnit(float64(float32(n)), unitNone)
}

// FormatSize prints a byte count as sacct and sstat print MaxRSS and the
// other usage sizes: the same conversion from no unit ("1264K", "50M",
// "1.50M"), through a C double as sacct passes it.
func FormatSize(bytes int64) string {
	return convertNumUnit(float64(bytes), unitNone)
}
