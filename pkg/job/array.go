package job

import (
	"errors"
	"fmt"
	"iter"
	"math/bits"
	"slices"
	"strings"
)

// MaxArraySizeLimit is the largest MaxArraySize Slurm accepts in slurm.conf;
// no array index can reach it.
const MaxArraySizeLimit = 4000001

// ErrInvalidArray is Slurm's error for an array spec the controller refuses;
// its text is what sbatch prints after "Batch job submission failed: ".
var ErrInvalidArray = errors.New("Invalid job array specification")

// Array is a parsed job array spec (--array): the set of task indices, the
// throttle (%N, at most N tasks running at once) and the step Slurm exports
// as SLURM_ARRAY_TASK_STEP.
type Array struct {
	words    []uint64 // bit i set: index i is a task
	count    int
	throttle int
	step     int
}

// ParseArray parses an --array spec as slurmctld does: comma-separated
// tokens "N", "N-M" or "N-M:S", an optional "%T" throttle, every index
// below maxArraySize (the MaxArraySize of slurm.conf). Examples: "0-31",
// "1,3,5", "1-7:2", "0-15%4", "500-17000:1000%26".
//
// Slurm's quirks are kept: "[1-3]" brackets are ignored, "%5" alone means
// task 0 with throttle 5, a throttle of 0 means none, and "," yields an
// array with no tasks (Slurm then runs an ordinary job).
func ParseArray(spec string, maxArraySize int) (*Array, error) {
	if spec == "" {
		return nil, fmt.Errorf("%w: empty spec", ErrInvalidArray)
	}
	if maxArraySize <= 0 || maxArraySize > MaxArraySizeLimit {
		return nil, fmt.Errorf("%w %q: arrays are disabled (MaxArraySize=%d)", ErrInvalidArray, spec, maxArraySize)
	}
	a := &Array{step: 1}
	for _, tok := range strings.Split(spec, ",") {
		if tok == "" {
			continue // strtok(3) skips empty tokens
		}
		if err := a.addToken(tok, int64(maxArraySize)); err != nil {
			return nil, fmt.Errorf("%w %q: %v", ErrInvalidArray, spec, err)
		}
	}
	if _, t, ok := strings.Cut(spec, "%"); ok {
		a.throttle = max(atoi(t), 0)
	}
	if _, s, ok := strings.Cut(spec, ":"); ok {
		a.step = atoi(s)
	}
	return a, nil
}

// addToken adds one "first[-last[:step]]" token, as slurmctld's
// _parse_array_tok reads it.
func (a *Array) addToken(tok string, max int64) error {
	tok = strings.TrimPrefix(tok, "[")
	first, n := Strtol(tok)
	rest := strings.TrimPrefix(tok[n:], "]")
	if first < 0 {
		return fmt.Errorf("negative index in %q", tok)
	}
	last, step := first, int64(1)
	if strings.HasPrefix(rest, "-") {
		last, n = Strtol(rest[1:])
		rest = strings.TrimPrefix(rest[1+n:], "]")
		if strings.HasPrefix(rest, ":") {
			step, n = Strtol(rest[1:])
			rest = strings.TrimPrefix(rest[1+n:], "]")
			if step <= 0 || step >= max {
				return fmt.Errorf("step %d out of range in %q", step, tok)
			}
		}
		if last < first {
			return fmt.Errorf("range %q runs backwards", tok)
		}
	}
	if rest != "" && rest[0] != '%' {
		return fmt.Errorf("unexpected %q in %q", rest, tok)
	}
	if last >= max {
		return fmt.Errorf("index %d is not below MaxArraySize %d", last, max)
	}
	for i := first; i <= last; i += step {
		a.set(int(i))
	}
	return nil
}

func (a *Array) set(i int) {
	w := i / 64
	for len(a.words) <= w {
		a.words = append(a.words, 0)
	}
	if a.words[w]&(1<<(i%64)) == 0 {
		a.words[w] |= 1 << (i % 64)
		a.count++
	}
}

// Clear removes index i, as when a task leaves the pending array record.
func (a *Array) Clear(i int) {
	if a.Contains(i) {
		a.words[i/64] &^= 1 << (i % 64)
		a.count--
	}
}

// Contains reports whether i is one of the array's task indices.
func (a *Array) Contains(i int) bool {
	return i >= 0 && i/64 < len(a.words) && a.words[i/64]&(1<<(i%64)) != 0
}

// Count returns the number of task indices.
func (a *Array) Count() int { return a.count }

// Throttle returns the %N limit on running tasks, 0 for none.
func (a *Array) Throttle() int { return a.throttle }

// SetThrottle changes the limit, as scontrol update ArrayTaskThrottle does.
func (a *Array) SetThrottle(n int) { a.throttle = max(n, 0) }

// Step returns what Slurm exports as SLURM_ARRAY_TASK_STEP: the number after
// the spec's first ':', 1 when it has none.
func (a *Array) Step() int { return a.step }

// All yields the task indices in increasing order.
func (a *Array) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for w, word := range a.words {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				if !yield(w*64 + b) {
					return
				}
				word &^= 1 << b
			}
		}
	}
}

// Min returns the smallest index, -1 when there is none.
func (a *Array) Min() int {
	for i := range a.All() {
		return i
	}
	return -1
}

// Max returns the largest index, -1 when there is none.
func (a *Array) Max() int {
	for w := len(a.words) - 1; w >= 0; w-- {
		if a.words[w] != 0 {
			return w*64 + 63 - bits.LeadingZeros64(a.words[w])
		}
	}
	return -1
}

// Clone returns an independent copy.
func (a *Array) Clone() *Array {
	c := *a
	c.words = append([]uint64(nil), a.words...)
	return &c
}

// String prints every index, compressed into ranges, with the throttle:
// "0-3,10,12%3". ParseArray reads it back. For what squeue and scontrol
// print, see Display.
func (a *Array) String() string {
	s := a.ranges()
	if a.throttle > 0 {
		s += fmt.Sprintf("%%%d", a.throttle)
	}
	return s
}

// ranges is Slurm's bit_fmt: "0-3,10,12".
func (a *Array) ranges() string { return FormatRanges(slices.Collect(a.All())) }

// displayLen is Slurm's default SLURM_BITSTR_LEN: the size of the buffer
// squeue and scontrol print task lists into.
const displayLen = 64

// Display prints the indices as squeue and scontrol show them: a regular
// stride of more than five tasks over more than ten indices as
// "first-last:step", anything else as String does but cut to 63 bytes
// ending in "...", then "%N" for a throttle.
func (a *Array) Display() string {
	s, ok := a.stepForm()
	if !ok {
		s = a.ranges()
		if len(s) > displayLen-1 {
			s = s[:displayLen-1]
		}
		if len(s) > displayLen-3 {
			s = s[:displayLen-4] + "..."
		}
	}
	if a.throttle > 0 {
		s += fmt.Sprintf("%%%d", a.throttle)
	}
	return s
}

// stepForm returns "first-last:step" when Slurm's clients would print it.
func (a *Array) stepForm() (string, bool) {
	first, last := a.Min(), a.Max()
	if last-first <= 10 || a.count <= 5 || a.Contains(first+1) {
		return "", false
	}
	step, prev := 0, first
	for i := range a.All() {
		if i == first {
			continue
		}
		if step == 0 {
			step = i - prev
		} else if i-prev != step {
			return "", false
		}
		prev = i
	}
	return fmt.Sprintf("%d-%d:%d", first, last, step), true
}

// PendingID prints the job id of the array's pending record as squeue shows
// it: "59_[2-5%2]".
func (a *Array) PendingID(arrayJobID uint32) string {
	return fmt.Sprintf("%d_[%s]", arrayJobID, a.Display())
}

// MarshalText encodes the array as String prints it.
func (a *Array) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText decodes what MarshalText wrote, within MaxArraySizeLimit.
func (a *Array) UnmarshalText(b []byte) error {
	p, err := ParseArray(string(b), MaxArraySizeLimit)
	if err != nil {
		return err
	}
	*a = *p
	return nil
}
