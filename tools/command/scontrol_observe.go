package command

import (
	"context"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// observeClient is what scontrol's Loam observability commands need of
// the controller: *client.Client has it.
type observeClient interface {
	Suggestions(ctx context.Context) (*api.SuggestionsResponse, error)
	WebToken(ctx context.Context, req *api.WebTokenRequest) (*api.WebTokenResponse, error)
}

func (s *scontrol) observer() (observeClient, bool) {
	c, ok := s.controller()
	if !ok {
		return nil, false
	}
	o, ok := c.(observeClient)
	if !ok {
		s.fail("scontrol: error: this controller offers no suggestions or dashboard tokens\n")
	}
	return o, ok
}

// showSuggestions prints the configuration changes the controller's
// history suggests, one record per suggestion in scontrol's style.
func (s *scontrol) showSuggestions() {
	o, ok := s.observer()
	if !ok {
		return
	}
	resp, err := o.Suggestions(s.ctx)
	if err != nil {
		s.fail("scontrol: error: %s\n", errText(err))
		return
	}
	days := resp.Window / 86400
	if len(resp.Suggestions) == 0 {
		s.w.printf("No suggestions: no rule fired over the last %d days of history.\n", days)
		return
	}
	sep := "\n   "
	if s.one {
		sep = " "
	}
	for i, x := range resp.Suggestions {
		s.w.printf("Suggestion=%d Rule=%s Subject=%s%sFile=%s", i+1, x.Rule, x.Subject, sep, x.File)
		if x.Line != "" {
			s.w.printf(" Line=%s", x.Line)
		}
		s.w.printf(" Key=%s From=%s To=%s%sAction=%s%sWhy=%s\n", x.Key, orNull(x.From), x.To, sep, x.Action, sep, x.Why)
		if !s.one {
			s.w.printf("\n")
		}
	}
}

// token prints a dashboard token as Slurm's scontrol token prints a JWT:
// SLURM_JWT=<token>. Options: lifespan=SECONDS, username=NAME (root and
// SlurmUser only).
func (s *scontrol) token(argv []string) {
	var req api.WebTokenRequest
	for _, a := range argv[1:] {
		k, v, _ := strings.Cut(a, "=")
		switch {
		case strings.EqualFold(k, "lifespan"):
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				s.fail("Invalid lifespan value: %s\n", v)
				return
			}
			req.Lifespan = n
		case strings.EqualFold(k, "username"):
			req.User = v
		default:
			s.fail("Invalid option: `%s`\n", a)
			return
		}
	}
	o, ok := s.observer()
	if !ok {
		return
	}
	resp, err := o.WebToken(s.ctx, &req)
	s.printToken(resp, err)
}

func (s *scontrol) printToken(resp *api.WebTokenResponse, err error) {
	if err != nil {
		s.fail("Error fetching token\nscontrol: error: %s\n", errText(err))
		return
	}
	s.w.printf("SLURM_JWT=%s\n", resp.Token)
}
