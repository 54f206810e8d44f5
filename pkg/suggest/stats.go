package suggest

import "time"

// slope is the least-squares slope of the values over their days (per day).
func slope(s []Sample) float64 {
	if len(s) < 2 {
		return 0
	}
	t0 := s[0].Day
	var sx, sy, sxx, sxy float64
	for _, p := range s {
		x := p.Day.Sub(t0).Hours() / 24
		sx += x
		sy += p.Value
		sxx += x * x
		sxy += x * p.Value
	}
	n := float64(len(s))
	den := n*sxx - sx*sx
	if den == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / den
}

// headMean and tailMean average the first and the last two days.
func headMean(s []Sample) float64 { return meanOf(s[:min(2, len(s))]) }
func tailMean(s []Sample) float64 { return meanOf(s[max(len(s)-2, 0):]) }

func meanOf(s []Sample) float64 {
	if len(s) == 0 {
		return 0
	}
	var sum float64
	for _, p := range s {
		sum += p.Value
	}
	return sum / float64(len(s))
}

func maxOf(s []Sample) float64 {
	var m float64
	for i, p := range s {
		if i == 0 || p.Value > m {
			m = p.Value
		}
	}
	return m
}

// spanDays is how many days the samples cover, first and last included.
func spanDays(s []Sample) int {
	if len(s) == 0 {
		return 0
	}
	return int(s[len(s)-1].Day.Sub(s[0].Day)/(24*time.Hour)) + 1
}
