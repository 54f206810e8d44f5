package hostlist

// natCompare compares two strings in natural order, as the strnatcmp that
// Slurm uses for host name prefixes: runs of digits compare by value
// ("rack9" < "rack10"), runs with a leading zero compare digit by digit as
// fractions do, white space is skipped, and everything else compares
// byte by byte, case-sensitively.
func natCompare(a, b string) int {
	if a == b {
		return 0
	}
	i, j := 0, 0
	for {
		for i < len(a) && isSpace(a[i]) {
			i++
		}
		for j < len(b) && isSpace(b[j]) {
			j++
		}
		if i == len(a) || j == len(b) {
			return boolDiff(i < len(a), j < len(b))
		}
		if isDigit(a[i]) && isDigit(b[j]) {
			var c int
			if a[i] == '0' || b[j] == '0' {
				c = compareLeft(a[i:], b[j:])
			} else {
				c = compareRight(a[i:], b[j:])
			}
			if c != 0 {
				return c
			}
		}
		if a[i] != b[j] {
			return int(a[i]) - int(b[j])
		}
		i++
		j++
	}
}

// compareRight compares two digit runs by magnitude: the longer run is
// larger, and for equal lengths the first differing digit decides.
func compareRight(a, b string) int {
	bias := 0
	for k := 0; ; k++ {
		da, db := k < len(a) && isDigit(a[k]), k < len(b) && isDigit(b[k])
		if !da || !db {
			if da == db {
				return bias
			}
			return boolDiff(da, db)
		}
		if bias == 0 && a[k] != b[k] {
			bias = int(a[k]) - int(b[k])
		}
	}
}

// compareLeft compares two digit runs left-aligned, as fractional parts.
func compareLeft(a, b string) int {
	for k := 0; ; k++ {
		da, db := k < len(a) && isDigit(a[k]), k < len(b) && isDigit(b[k])
		if !da || !db {
			return boolDiff(da, db)
		}
		if a[k] != b[k] {
			return int(a[k]) - int(b[k])
		}
	}
}

// boolDiff orders "has more" after "has no more".
func boolDiff(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return 1
	}
	return -1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
