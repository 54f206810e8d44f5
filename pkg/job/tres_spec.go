package job

import (
	"math"
	"strings"
)

// ValidTresBind reports whether spec is a TRES binding Slurm 22.05 takes
// (tres_bind_verify_cmdline): ";"-separated "gpu:BINDING" pieces, as
// sbatch, salloc and srun check "gpu:" + --gpu-bind and the controller
// checks scontrol update's TresBind=. An empty spec clears the binding.
// The peer takes what this takes: "gpu:cxyz" (one letter picks closest),
// "gpu:map_gpu:" and "gpu:single:x" (strtol's 0) included.
func ValidTresBind(spec string) bool {
	return validTresPieces(spec, validGPUBind)
}

// ValidTresFreq reports whether spec is a TRES frequency Slurm 22.05
// takes (tres_freq_verify_cmdline): ";"-separated "gpu:FREQ" pieces, as
// for "gpu:" + --gpu-freq and scontrol update's TresFreq=.
func ValidTresFreq(spec string) bool {
	return validTresPieces(spec, validGPUFreq)
}

// validTresPieces splits spec as strtok_r does (empty pieces dropped) and
// checks each "gpu:VALUE" with valid: GPUs are the only TRES either
// option binds or clocks.
func validTresPieces(spec string, valid func(string) bool) bool {
	for _, piece := range cTokens(spec, ';') {
		name, val, ok := strings.Cut(piece, ":")
		if !ok || name != "gpu" || !valid(val) {
			return false
		}
	}
	return true
}

// validGPUBind is one GPU binding: an optional "verbose," then a kind
// told by its first letter (closest, none) or its whole prefix (map_gpu:,
// mask_gpu:, per_task:, single:), in any case.
func validGPUBind(s string) bool {
	if hasFoldPrefix(s, "verbose,") {
		s = s[len("verbose,"):]
	}
	switch {
	case hasFoldPrefix(s, "c"):
		return true
	case hasFoldPrefix(s, "map_gpu:"):
		return validNumList(s[len("map_gpu:"):], false)
	case hasFoldPrefix(s, "mask_gpu:"):
		return validNumList(s[len("mask_gpu:"):], true)
	case hasFoldPrefix(s, "n"):
		return true
	case hasFoldPrefix(s, "per_task:"):
		return validCount(s[len("per_task:"):])
	case hasFoldPrefix(s, "single:"):
		return validCount(s[len("single:"):])
	}
	return false
}

// validCount is strtol(s, NULL, 0) within 0 and LONG_MAX (excluded);
// what follows the number does not matter.
func validCount(s string) bool {
	v, _ := strtolBase(s, 0)
	return v >= 0 && v != math.MaxInt64
}

// validNumList is a map_gpu or mask_gpu list: ","-separated numbers
// (hexadecimal, maybe after "0x", for masks), each maybe "*COUNT".
func validNumList(s string, hex bool) bool {
	base, isDigit := 10, func(c byte) bool { return '0' <= c && c <= '9' }
	if hex {
		base, isDigit = 16, isHexDigit
	}
	for _, tok := range cTokens(s, ',') {
		if hex && strings.HasPrefix(tok, "0x") {
			tok = tok[2:]
		}
		for i := 0; i < len(tok); i++ {
			if !isDigit(tok[i]) && tok[i] != '*' {
				return false
			}
		}
		v, n := strtolBase(tok, base)
		rest := tok[n:]
		if v < 0 || v == math.MaxInt64 || (rest != "" && rest[0] != '*') {
			return false
		}
		if rest != "" {
			v, n = strtolBase(rest[1:], 0)
			if v < 0 || v == math.MaxInt64 || n != len(rest)-1 {
				return false
			}
		}
	}
	return true
}

// validGPUFreq is one GPU frequency: ","-separated low, medium, high,
// highm1 or a number, each maybe as memory=VALUE, and verbose.
func validGPUFreq(s string) bool {
	if s == "" {
		return false
	}
	for _, tok := range cTokens(s, ',') {
		name, val, eq := strings.Cut(tok, "=")
		switch {
		case eq && name != "memory":
			return false
		case eq && !validFreqValue(val):
			return false
		case !eq && !validFreqValue(tok) && tok != "verbose":
			return false
		}
	}
	return true
}

// validFreqValue is a frequency level's name, or digits alone below
// LONG_MAX.
func validFreqValue(s string) bool {
	switch {
	case s == "":
		return false
	case '0' <= s[0] && s[0] <= '9':
		v, n := Strtol(s)
		return v != math.MaxInt64 && n == len(s)
	}
	return s == "low" || s == "medium" || s == "high" || s == "highm1"
}

// cTokens splits s at sep as strtok_r does: empty pieces are dropped.
func cTokens(s string, sep rune) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == sep })
}

// hasFoldPrefix is xstrncasecmp(s, prefix, len(prefix)) == 0.
func hasFoldPrefix(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
