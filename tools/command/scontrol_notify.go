package command

import (
	"math"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// notify handles "notify JOBID MESSAGE...": the words of the message are
// joined with single spaces. Unlike most scontrol errors these print even
// with --quiet, as in scontrol.
func (s *scontrol) notify(argv []string) {
	if len(argv) < 3 {
		s.exit = 1
		s.w.raw(sprintf("too few arguments for keyword:%s\n", argv[0]))
		return
	}
	id := atoiJobID(argv[1])
	if id == 0 {
		// scontrol prints this without a newline, then perror's line
		// with errno still 0.
		s.exit = 1
		s.w.raw("Invalid job_id " + argv[1] + "job notify failure: No error\n")
		return
	}
	c, ok := s.topController()
	if !ok {
		return
	}
	err := c.Notify(s.ctx, &api.NotifyRequest{JobID: id, Message: strings.Join(argv[2:], " ")})
	if err != nil {
		s.exit = 1
		s.w.raw("job notify failure: " + errText(err) + "\n")
	}
}

// atoiJobID reads a job id as scontrol's atoi into a uint32 does: leading
// blanks, an optional sign, the digits up to the first other character
// ("12abc" is 12), nothing readable is 0, and a negative number wraps
// around (to an id no job has).
func atoiJobID(s string) uint32 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var n int64
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if n > (math.MaxInt64-9)/10 {
			n = math.MaxInt64 // strtol saturates
			break
		}
		n = n*10 + int64(s[i]-'0')
	}
	if neg {
		n = -n
	}
	return uint32(int32(n))
}
