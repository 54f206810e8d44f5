package job

import "strconv"

// FormatRanges prints ascending, distinct indices as Slurm's bit_fmt does:
// runs of consecutive numbers as "first-last", joined by commas: "0-3,6".
// Array tasks, GPU indices and kernel CPU lists are all printed this way;
// ParseArray reads the form back.
func FormatRanges(idx []int) string {
	var b []byte
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if len(b) > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(idx[i]), 10)
		if j > i {
			b = append(b, '-')
			b = strconv.AppendInt(b, int64(idx[j]), 10)
		}
		i = j + 1
	}
	return string(b)
}
