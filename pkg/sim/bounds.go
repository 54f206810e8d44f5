package sim

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// CheckBounds checks results against a bounds file, in the spirit of
// Kueue's rangespec: every metric a replay reports must stay inside the
// range written for it, so a change that degrades scheduling fails a test
// instead of going unnoticed. Each line is
//
//	POLICY METRIC MIN MAX
//
// where POLICY is fcfs, easy, loam or * (every policy), METRIC a JSON
// field of Result (wait_mean_s, gpu_util, starved, ...), and MIN and MAX
// numbers or "-" for no bound. Blank lines and # comments are skipped.
// It returns every violation, and an error for a line that names an
// unknown metric or policy.
func CheckBounds(results []*Result, bounds io.Reader) error {
	byPolicy := map[string]map[string]float64{}
	for _, r := range results {
		m, err := metrics(r)
		if err != nil {
			return err
		}
		byPolicy[r.Policy] = m
	}
	var errs []error
	sc := bufio.NewScanner(bounds)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			errs = append(errs, fmt.Errorf("bounds line %d: want POLICY METRIC MIN MAX, got %q", line, sc.Text()))
			continue
		}
		errs = append(errs, checkLine(byPolicy, line, f)...)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("read bounds: %w", err))
	}
	return errors.Join(errs...)
}

func checkLine(byPolicy map[string]map[string]float64, line int, f []string) []error {
	lo, errLo := bound(f[2])
	hi, errHi := bound(f[3])
	if err := errors.Join(errLo, errHi); err != nil {
		return []error{fmt.Errorf("bounds line %d: %w", line, err)}
	}
	var errs []error
	matched := false
	for _, p := range []string{"fcfs", "easy", "loam"} {
		m, ok := byPolicy[p]
		if !ok || (f[0] != "*" && f[0] != p) {
			continue
		}
		matched = true
		v, ok := m[f[1]]
		if !ok {
			return []error{fmt.Errorf("bounds line %d: unknown metric %q", line, f[1])}
		}
		if (lo != nil && v < *lo) || (hi != nil && v > *hi) {
			errs = append(errs, fmt.Errorf("bounds line %d: %s %s = %g, outside [%s, %s]", line, p, f[1], v, f[2], f[3]))
		}
	}
	if !matched && f[0] != "*" {
		if _, err := ParsePolicy(f[0]); err != nil {
			return []error{fmt.Errorf("bounds line %d: %w", line, err)}
		}
	}
	return errs
}

func bound(s string) (*float64, error) {
	if s == "-" {
		return nil, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("bound %q is not a number or -", s)
	}
	return &v, nil
}

// metrics flattens a Result's numeric and boolean JSON fields (true is 1).
func metrics(r *Result) (map[string]float64, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	out := make(map[string]float64, len(raw))
	for k, v := range raw {
		switch x := v.(type) {
		case float64:
			out[k] = x
		case bool:
			out[k] = 0
			if x {
				out[k] = 1
			}
		}
	}
	return out, nil
}
