package resource

import (
	"math"
	"strconv"
)

// unitLetters are Slurm's unit suffixes from none to peta; '?' stands for
// anything larger, as in Slurm.
const unitLetters = "\x00KMGTP?"

const (
	unitNone = iota
	unitKilo
	unitMega
)

// convertNumUnit prints num, counted in the unit orig, in the largest unit
// that keeps it exact to half a unit, as Slurm's convert_num_unit with
// CONVERT_NUM_UNIT_EXACT does: 1024M is "1G", 1536M is "1.50G", 1280M
// stays "1280M".
func convertNumUnit(num float64, orig int) string {
	if num > -1 && num < 1 || math.IsNaN(num) {
		return "0"
	}
	for num >= 1024 && math.Mod(math.Trunc(num), 512) == 0 {
		num /= 1024
		orig++
	}
	suffix := ""
	if orig > unitNone {
		suffix = string(unitLetters[min(orig, len(unitLetters)-1)])
	}
	if num == math.Trunc(num) {
		return strconv.FormatFloat(num, 'f', 0, 64) + suffix
	}
	return strconv.FormatFloat(num, 'f', 2, 64) + suffix
}
